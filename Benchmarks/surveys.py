#!/usr/bin/env python3
"""Survey benchmark: `energylab survey summary` against pandas reading the
same export and counting every column, side by side on generated Google
Forms exports (agreement answers, 3 % unanswered).

Usage: python3 Benchmarks/surveys.py   (from the repository root; builds the
release binary when missing, installs pandas into Benchmarks/.venv or
$BENCH_VENV, writes Benchmarks/results/surveys.md)
  REPEATS=7  rounds; each round runs both tools once on each export, so a
             busy spell on a shared machine falls on both; medians reported
Then memory against file size: `survey summary` once on exports of
50,000, 100,000 and 200,000 respondents x 200 questions (1x, 2x, 4x the
rows), its peak resident set each (flat when the export is streamed).
"""
import os, random, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "Benchmarks", "work", "surveys")
VENV = os.environ.get("BENCH_VENV", os.path.join(ROOT, "Benchmarks", ".venv"))
BIN = os.path.join(ROOT, ".build", "release", "energylab")
SIZES = [(20000, 120), (100000, 200)]
MEMORY_SIZES = [(50000, 200), (100000, 200), (200000, 200)]
REPEATS = int(os.environ.get("REPEATS", "7"))
LABELS = ["Strongly disagree", "Disagree", "Neither agree nor disagree", "Agree", "Strongly agree"]
PANDAS = "import sys, pandas as pd\nf = pd.read_csv(sys.argv[1], dtype=str)\nc = {k: f[k].value_counts() for k in f.columns}\n"


def export(respondents, questions):
    path = os.path.join(WORK, f"forms-{respondents}x{questions}.csv")
    if not os.path.exists(path):
        random.seed(respondents * 1000 + questions)
        with open(path, "w") as f:
            f.write("Timestamp," + ",".join(f"Question {k + 1} about the app" for k in range(questions)) + "\n")
            for r in range(respondents):
                row = [f"2024/05/01 10:{r % 60:02d}:00"]
                for _ in range(questions):
                    x = random.random()
                    row.append("" if x < 0.03 else LABELS[int(x * 5) % 5])
                f.write(",".join(row) + "\n")
    return path


def measure(cmd):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"failed: {cmd}")
    return time.perf_counter() - t, usage.ru_maxrss / 1024


def main():
    os.makedirs(WORK, exist_ok=True)
    if not os.path.exists(BIN):
        subprocess.run(["swift", "build", "-c", "release", "--product", "energylab"], cwd=ROOT, check=True)
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", "pandas"], check=True)
    runs = []
    for n, q in SIZES:
        path = export(n, q)
        for name, cmd in [("energylab survey summary", [BIN, "survey", "summary", path, "--format", "csv"]),
                          ("pandas read_csv + value_counts", [py, "-c", PANDAS, path])]:
            runs.append((n, q, os.path.getsize(path) / 1e6, name, cmd))
    samples = {}
    for _ in range(REPEATS):
        for n, q, _, name, cmd in runs:
            samples.setdefault((n, q, name), []).append(measure(cmd))
    median = {key: (statistics.median(s[0] for s in v), max(s[1] for s in v)) for key, v in samples.items()}
    lines = [f"Medians of {REPEATS} rounds (each round runs every command once, in this order); "
             f"{os.cpu_count()} cores, both tools may use all.", "",
             "| export | tool | median time (s) | peak RSS (MB) | pandas time / tool time |",
             "| --- | --- | ---: | ---: | ---: |"]
    for n, q, mb, name, _ in runs:
        seconds, rss = median[(n, q, name)]
        pandas = median[(n, q, "pandas read_csv + value_counts")][0]
        lines.append(f"| {n:,} x {q} ({mb:.0f} MB) | {name} | {seconds:.2f} | {rss:.0f} | {pandas / seconds:.2f}x |")
    versions = subprocess.run([py, "-c", "import sys, pandas; print(f'Python {sys.version.split()[0]}, pandas {pandas.__version__}')"],
                              capture_output=True, text=True).stdout.strip()
    lines += ["", f"{versions}.", "", "Memory against file size: `energylab survey summary --format csv` once on each export.", "",
              "| export | file (MB) | time (s) | peak RSS (MB) |", "| --- | ---: | ---: | ---: |"]
    for n, q in MEMORY_SIZES:
        path = export(n, q)
        seconds, rss = measure([BIN, "survey", "summary", path, "--format", "csv"])
        lines.append(f"| {n:,} x {q} | {os.path.getsize(path) / 1e6:.0f} | {seconds:.2f} | {rss:.0f} |")
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "Benchmarks", "results", "surveys.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
