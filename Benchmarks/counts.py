#!/usr/bin/env python3
"""ActiGraph counts from raw acceleration: EnergyLab against ActiGraph's own
implementation (the agcounts package, installed into a throwaway virtual
environment), per second, on real phone recordings.

Data: the Oxford step counter DataSet (CC BY 4.0) in
../shared/datasets/oxford-step-counter-optimisation (or $STEPS_DATA). Each
recording is linearly resampled to exactly 100 Hz and 30 Hz (the counts need
a fixed rate), written as time_s,x,y,z in g from a whole second, and given
to both programs.

Usage: python3 Benchmarks/counts.py   (writes Benchmarks/results/counts.md)
"""
import csv, os, subprocess

from common import venv, write_results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get(
    "STEPS_DATA", os.path.join(ROOT, "..", "shared", "datasets", "oxford-step-counter-optimisation"))
BIN = os.environ.get("ENERGYLAB_BIN", os.path.join(ROOT, ".build", "release", "energylab"))
WORK = os.path.join(ROOT, "Benchmarks", "work", "counts")
OUT = os.path.join(ROOT, "Benchmarks", "results", "counts.md")
COUNT = int(os.environ.get("RECORDINGS", "8"))

ORACLE = r"""
import sys, numpy as np
from agcounts.extract import get_counts
path, rate, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
raw = np.loadtxt(path, delimiter=",", skiprows=1)[:, 1:4]
np.savetxt(out, get_counts(raw, freq=rate, epoch=1), fmt="%d", delimiter=",")
"""

RESAMPLE = r"""
import sys, gzip, numpy as np
src, rate, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
a = np.loadtxt(gzip.open(src), delimiter=",")
t = (a[:, 0] - a[0, 0]) * 1e-9
grid = np.arange(0, t[-1], 1 / rate)
g = np.column_stack([np.interp(grid, t, a[:, c]) / 9.80665 for c in (2, 3, 4)])
np.savetxt(out, np.column_stack([1.7e9 + grid, g]), fmt="%.6f", delimiter=",", header="time,x,y,z", comments="")
"""


def python():
    return venv(".venv-counts", ["agcounts", "numpy"])


def energylab_seconds(path):
    out = subprocess.run([BIN, "accel", "epochs", path, "--epoch", "1s", "--format", "csv", "--time-format",
                          "unix-s", "--unit", "g"], capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(out.stdout.splitlines()))
    return [(int(float(r["counts_x"] or 0)), int(float(r["counts_y"] or 0)), int(float(r["counts_z"] or 0)))
            for r in rows if r["counts_x"] != ""]


def correlation(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    sa = sum((x - ma) ** 2 for x in a) ** 0.5
    sb = sum((y - mb) ** 2 for y in b) ** 0.5
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / (sa * sb) if sa and sb else float("nan")


def main():
    py = python()
    os.makedirs(WORK, exist_ok=True)
    folders = sorted(d for d in os.listdir(DATA) if os.path.isdir(os.path.join(DATA, d)))[:COUNT]
    lines = ["# ActiGraph counts: EnergyLab against agcounts", "",
             "Real phone recordings (Oxford step counter DataSet, CC BY 4.0) resampled to a fixed rate; "
             "per-second counts of each axis from both programs on the same file.", "",
             "| recording | rate Hz | seconds | equal seconds | correlation | total EnergyLab | total agcounts | total difference % |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for d in folders:
        for rate in (100, 30):
            path = os.path.join(WORK, f"{d}-{rate}hz.csv")
            subprocess.run([py, "-c", RESAMPLE, os.path.join(DATA, d, "accelerometer.csv.gz"), str(rate), path],
                           check=True)
            theirs_path = path + ".agcounts"
            subprocess.run([py, "-c", ORACLE, path, str(rate), theirs_path], check=True)
            theirs = [tuple(int(v) for v in line.split(",")) for line in open(theirs_path) if line.strip()]
            ours = energylab_seconds(path)[:len(theirs)]
            a = [v for row in ours for v in row]
            b = [v for row in theirs for v in row]
            equal = sum(1 for o, t in zip(ours, theirs) if o == t)
            diff = (sum(a) - sum(b)) / sum(b) * 100 if sum(b) else float("nan")
            lines.append(f"| {d} | {rate} | {len(theirs)} | {equal} | {correlation(a, b):.6f} | {sum(a)} | {sum(b)} "
                         f"| {diff:+.3f} |")
            print(lines[-1], flush=True)
    write_results(OUT, lines)


if __name__ == "__main__":
    main()
