#!/usr/bin/env python3
"""Track reading benchmark: EnergyLab against gpxpy and gpsbabel, side by side
in one run on the same generated files.

Usage: python3 Benchmarks/tracks.py   (from the repository root; builds the
release binary, installs gpxpy into Benchmarks/.venv and gpsbabel with
apt-get when missing, generates the corpus into Benchmarks/work/, writes the
results table to Benchmarks/results/tracks.md)
"""
import os, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "Benchmarks", "work")
VENV = os.path.join(ROOT, "Benchmarks", ".venv")
BIN = os.path.join(ROOT, ".build", "release", "energylab")
REPEATS = int(os.environ.get("REPEATS", "3"))

GPXPY_SCRIPT = r"""
import sys, gpxpy
for path in sys.argv[1:]:
    with open(path) as f:
        g = gpxpy.parse(f)
    length = g.length_2d(); duration = g.get_duration(); climb = g.get_uphill_downhill()
    print(path, round(length, 1), duration, round(climb.uphill, 1))
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def measure(cmd):
    """Best wall time of REPEATS runs and the largest peak RSS (MB)."""
    return common.measure(cmd, REPEATS)[:2]


def main():
    os.chdir(ROOT)
    sh(["swift", "build", "-c", "release", "--product", "energylab"])
    if not os.path.exists(os.path.join(VENV, "bin", "python")):
        sh([sys.executable, "-m", "venv", VENV])
    sh([os.path.join(VENV, "bin", "pip"), "install", "-q", "gpxpy"])
    if shutil.which("gpsbabel") is None:
        prefix = [] if os.geteuid() == 0 else ["sudo"]
        sh(prefix + ["apt-get", "install", "-y", "-qq", "gpsbabel"], stdout=subprocess.DEVNULL)
    os.makedirs(os.path.join(WORK, "small"), exist_ok=True)
    large = os.path.join(WORK, "large.gpx")
    if not os.path.exists(large):
        sh([BIN, "track", "synth", "-o", large, "--duration", "400000s", "--heart-rate", "140bpm",
            "--noise", "2", "--seed", "3"], stdout=subprocess.DEVNULL)
    small = [os.path.join(WORK, "small", f"walk-{i:04d}.gpx") for i in range(1000)]
    for i, path in enumerate(small):
        if not os.path.exists(path):
            sh([BIN, "track", "synth", "-o", path, "--duration", "600s", "--noise", "2", "--seed", str(i + 1),
                "--heart-rate", "120bpm"], stdout=subprocess.DEVNULL)
    gpxpy_py = os.path.join(WORK, "gpxpy_summary.py")
    with open(gpxpy_py, "w") as f:
        f.write(GPXPY_SCRIPT)
    py = os.path.join(VENV, "bin", "python")
    size_large = os.path.getsize(large) / 1e6
    size_small = sum(os.path.getsize(p) for p in small) / 1e6
    rows = []
    for corpus, files, size in [("1 file, 400,000 fixes with heart rate", [large], size_large),
                                ("1,000 files of 601 fixes", small, size_small)]:
        gpsbabel = ["gpsbabel", "-i", "gpx"]
        for path in files:
            gpsbabel += ["-f", path]
        gpsbabel += ["-o", "unicsv", "-F", os.devnull]
        results = {
            "energylab track summary": measure([BIN, "track", "summary", "--format", "csv"] + files),
            "gpxpy (parse, length, duration, climb)": measure([py, gpxpy_py] + files),
            "gpsbabel (GPX to CSV)": measure(gpsbabel),
        }
        ours = results["energylab track summary"][0]
        for tool, (seconds, rss) in results.items():
            rows.append((corpus, f"{size:.1f}", tool, seconds, rss, seconds / ours))
    # Whole-track commands hold the path's fixes and steps (compact: about
    # 170 bytes per fix); their peak memory on the large file, beside
    # gpxpy's for parsing it.
    study = os.path.join(WORK, "large-study")
    os.makedirs(study, exist_ok=True)
    if not os.path.exists(os.path.join(study, "large.gpx")):
        os.symlink(large, os.path.join(study, "large.gpx"))
    db = os.path.join(WORK, "large-study.sqlite")
    whole = []
    for tool, cmd in [
        ("energylab energy --model acsm-walking", [BIN, "energy", large, "--model", "acsm-walking", "--mass", "70kg"]),
        ("energylab profile --by day", [BIN, "profile", large, "--by", "day", "--tz", "UTC"]),
        ("energylab batch (summary, activities, energy, CO2; stored)", [BIN, "batch", study, "--db", db, "--quiet"]),
        ("gpxpy (parse, length, duration, climb)", [py, gpxpy_py, large]),
    ]:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        seconds, rss = measure(cmd)
        whole.append((tool, seconds, rss))
    machine = common.machine()
    gpxpy_version = subprocess.run([py, "-c", "import gpxpy; print(gpxpy.__version__)"], capture_output=True, text=True).stdout.strip()
    babel = subprocess.run(["gpsbabel", "-V"], capture_output=True, text=True).stdout.strip().splitlines()
    out += ["", "Whole-track commands on the large file (%s fixes):" % f"{400001:,}", "",
            "| command | best of %d (s) | peak RSS (MB) |" % REPEATS, "| --- | ---: | ---: |"]
    for tool, seconds, rss in whole:
        out.append(f"| {tool} | {seconds:.2f} | {rss:.0f} |")
    text = "\n".join(out) + f"\n\nMachine: {machine}. gpxpy {gpxpy_version}; {babel[-1] if babel else 'gpsbabel'}.\n"
    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "Benchmarks", "results", "tracks.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
