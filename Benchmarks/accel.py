#!/usr/bin/env python3
"""Accelerometer benchmark: EnergyLab's whole pipeline (a 100 Hz time,x,y,z CSV
to 60 s epochs) against polars.read_csv and pandas.read_csv only reading the
same file, side by side in one run, with `cat` as the disk baseline.

Goal: EnergyLab's pipeline at least 1.5x faster than polars reading the file,
with peak memory under 100 MB whatever the file size (checked on the file and
on one a quarter of its size).

Usage: python3 Benchmarks/accel.py [--size-gb 1]   (from the repository root)
  SIZE_GB=0.1  file size in GB (10^9 bytes), same as --size-gb; default 1
  REPEATS=7    rounds of every command in turn; the median wall time and CPU time
               and the largest peak RSS are reported
  NO_BUILD=1   never run `swift build`; BUILD=1 always runs it; otherwise it
               runs only when .build/release/energylab is missing
Installs polars and pandas into Benchmarks/.venv, generates the files (when
missing) into Benchmarks/work/ with `energylab accel synth` and writes the
results to Benchmarks/results/accel.md. Times are with a warm page cache.
"""
import argparse, json, os, platform, re, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "Benchmarks", "work")
VENV = os.environ.get("BENCH_VENV", os.path.join(ROOT, "Benchmarks", ".venv"))
PY = os.path.join(VENV, "bin", "python")
BIN = os.path.join(ROOT, ".build", "release", "energylab")
REPEATS = int(os.environ.get("REPEATS", "7"))
# Legs of the recording in hours; about 16.9 MB of CSV per hour at 100 Hz
# (48 bytes a row), so these 63 hours make 1.07 GB and are scaled to the size.
LEGS = [("still", 20), ("walk", 2), ("still", 20), ("run", 1), ("still", 20)]
BYTES_PER_HOUR = 16.92e6

READ_SCRIPT = r"""
import sys
tool, path = sys.argv[1], sys.argv[2]
if tool == "polars":
    import polars as pl
    df = pl.read_csv(path)
else:
    import pandas as pd
    df = pd.read_csv(path)
print(len(df))
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def measure_once(cmd, out=None):
    """Wall time, CPU time (user + system) and peak RSS (MB) of one run;
    stdout to out or /dev/null."""
    with open(out or os.devnull, "wb") as stdout:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - t
    if status != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def synth(size_gb):
    """The generated file of about size_gb GB and its steps by construction."""
    path = os.path.join(WORK, f"accel-{size_gb:g}gb.csv")
    note = path + ".steps"
    if not (os.path.exists(path) and os.path.exists(note)):
        scale = size_gb * 1e9 / (BYTES_PER_HOUR * sum(h for _, h in LEGS))
        legs = []
        for movement, hours in LEGS:
            legs += ["--leg", f"{movement},{max(1, round(hours * 60 * scale))}min"]
        line = sh([BIN, "accel", "synth", "-o", path, *legs, "--rate", "100", "--seed", "5"],
                  capture_output=True, text=True).stdout
        with open(note, "w") as f:
            f.write(line)
    with open(note) as f:
        return path, int(re.search(r"(\d+) steps by construction", f.read()).group(1))


def counted_steps(json_path):
    with open(json_path) as f:
        return json.load(f)[0]["steps"]


def machine():
    cpu, mem = "unknown", 0
    with open("/proc/cpuinfo") as f:
        cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    with open("/proc/meminfo") as f:
        mem = int(next(l.split()[1] for l in f if l.startswith("MemTotal"))) / 1024 ** 2
    versions = subprocess.run([PY, "-c", "import sys, polars, pandas; "
                               "print(f'Python {sys.version.split()[0]}, polars {polars.__version__}, pandas {pandas.__version__}')"],
                              capture_output=True, text=True).stdout.strip()
    ours = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip()
    return (f"{platform.system()} {platform.release()} {platform.machine()}, {os.cpu_count()} cores, {cpu}, "
            f"{mem:.0f} GB RAM. {ours}; {versions}.")


def main():
    parser = argparse.ArgumentParser(description="EnergyLab accel against polars and pandas")
    parser.add_argument("--size-gb", type=float, default=float(os.environ.get("SIZE_GB", "1")))
    size_gb = parser.parse_args().size_gb
    os.chdir(ROOT)
    if os.environ.get("BUILD") == "1" or (not os.path.exists(BIN) and os.environ.get("NO_BUILD") != "1"):
        sh(["swift", "build", "-c", "release", "--product", "energylab"])
    if not os.path.exists(PY):
        sh([sys.executable, "-m", "venv", VENV])
    sh([os.path.join(VENV, "bin", "pip"), "install", "-q", "polars", "pandas"])
    os.makedirs(WORK, exist_ok=True)
    path, steps = synth(size_gb)
    quarter, _ = synth(size_gb / 4)
    gz = path + ".gz"
    if not os.path.exists(gz):
        sh(["gzip", "-k", "-1", path])
    read_py = os.path.join(WORK, "accel_read.py")
    with open(read_py, "w") as f:
        f.write(READ_SCRIPT)
    summary_json, gz_json = os.path.join(WORK, "accel-summary.json"), os.path.join(WORK, "accel-summary-gz.json")

    commands = [  # cat first, so the file is in the page cache for everyone
        ("cat", "read the file (disk baseline)", ["cat", path], None),
        ("energylab accel epochs", "whole pipeline to 60 s epochs (CSV)",
         [BIN, "accel", "epochs", path, "--epoch", "60s", "--format", "csv"], None),
        ("energylab accel summary", "whole pipeline to one summary (JSON)",
         [BIN, "accel", "summary", path, "--format", "json"], summary_json),
        ("energylab accel summary, gzip -1", "same from the .gz (MB/s of the CSV)",
         [BIN, "accel", "summary", gz, "--format", "json"], gz_json),
        ("polars.read_csv", "read only", [PY, read_py, "polars", path], None),
        ("pandas.read_csv", "read only", [PY, read_py, "pandas", path], None),
    ]
    # Rounds of every command in turn, so that a noisy spell on this shared
    # machine falls on all of them alike; medians of wall and CPU time and
    # the largest RSS kept.
    samples = {}
    for _ in range(REPEATS):
        for tool, _, cmd, out in commands:
            samples.setdefault(tool, []).append(measure_once(cmd, out))
    best = {tool: (statistics.median(s[0] for s in runs), statistics.median(s[1] for s in runs),
                   max(s[2] for s in runs)) for tool, runs in samples.items()}
    runs = [(tool, what, best[tool]) for tool, what, _, _ in commands]
    quarter_rss = max(measure_once([BIN, "accel", "summary", quarter, "--format", "json"])[2] for _ in range(3))

    mb = os.path.getsize(path) / 1e6
    polars = dict((tool, r) for tool, _, r in runs)["polars.read_csv"][0]
    out = [f"Machine: {machine()}", "",
           f"File: {mb:.0f} MB, 100 Hz time,x,y,z (`energylab accel synth`); gzip -1: {os.path.getsize(gz) / 1e6:.0f} MB; "
           f"medians of {REPEATS} rounds (each round runs every command once, in this order), warm page cache; "
           f"every process may use all {os.cpu_count()} cores.", "",
           f"| tool | what it does | median wall (s) | median CPU (s) | MB/s | peak RSS (MB) | polars time / tool time |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for tool, what, (seconds, cpu, rss) in runs:
        out.append(f"| {tool} | {what} | {seconds:.2f} | {cpu:.2f} | {mb / seconds:.0f} | {rss:.0f} | {polars / seconds:.2f}x |")
    epochs_s = runs[1][2][0]
    full_rss = runs[2][2][2]
    ours_rss = [rss for tool, _, (_, _, rss) in runs if tool.startswith("energylab")]
    out += ["",
            f"Steps: {steps} by construction; EnergyLab counted {counted_steps(summary_json)} "
            f"(CSV) and {counted_steps(gz_json)} (gzip).",
            f"Memory: accel summary peak RSS {quarter_rss:.0f} MB on the {os.path.getsize(quarter) / 1e6:.0f} MB file, "
            f"{full_rss:.0f} MB on the {mb:.0f} MB file.",
            f"Goal: epochs (median) {polars / epochs_s:.2f}x faster than polars reading (target 1.5x: "
            f"{'met' if polars / epochs_s >= 1.5 else 'not met'}); EnergyLab peak RSS under 100 MB at both sizes: "
            f"{'met' if max([quarter_rss] + ours_rss) < 100 else 'not met'}."]
    text = "\n".join(out) + "\n"
    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "Benchmarks", "results", "accel.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
