#!/usr/bin/env python3
"""Transport modes on the 19 days of the PALMS validation study.

Times the release binary on the study's GPS days (best of three, peak
resident memory from the kernel's accounting of the child):

- `energylab track segments GPX...` (activities by the epoch model);
- `energylab track segments GPX... --epochs 30s` (one row per epoch);
- `energylab track trips GPX...` (trips, stays, places);
- `energylab evaluate modes GPX... --truth DIR --palms CSV` (reads the
  truth, classifies, fits and decodes left-one-day-out, scores PALMS).

and prints the scores of `evaluate modes` beside those of the independent
oracle scripts/oracles/transport_modes.py (standard library Python) on the
same days, for EnergyLab's shipped counts and PALMS's own output.

Data: ../shared/datasets/palms-mode-validation (or $PALMS_MODE_DATA).
Usage: python3 Benchmarks/modes.py
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine, measure  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get("PALMS_MODE_DATA", os.path.join(ROOT, "..", "shared", "datasets", "palms-mode-validation"))
BIN = os.path.join(ROOT, ".build", "release", "energylab")


def main():
    subprocess.run(["swift", "build", "-c", "release", "--product", "energylab"], cwd=ROOT, check=True)
    gpx = sorted(glob.glob(os.path.join(DATA, "gpx", "*.gpx")))
    truth = os.path.join(DATA, "truth")
    palms = os.path.join(DATA, "palms-defaults.csv")
    tz = ["--truth-tz", "America/Los_Angeles"]
    runs = [
        ("track segments", [BIN, "track", "segments", *gpx, "--quiet"]),
        ("track segments --epochs 30s", [BIN, "track", "segments", *gpx, "--epochs", "30s", "--quiet"]),
        ("track trips", [BIN, "track", "trips", *gpx, "--quiet"]),
        ("evaluate modes (truth, left-one-day-out, PALMS)",
         [BIN, "evaluate", "modes", *gpx, "--truth", truth, *tz, "--palms", palms, "--quiet", "--format", "json"]),
    ]
    print(f"{len(gpx)} days, {sum(os.path.getsize(p) for p in gpx) / 1e6:.1f} MB of GPX; {machine()}")
    print("| command | best of 3 (s) | peak RSS (MB) |")
    print("| --- | ---: | ---: |")
    scores = None
    for name, args in runs:
        seconds, rss, out = measure(args, 3)
        print(f"| {name} | {seconds:.2f} | {rss:.0f} |")
        if name.startswith("evaluate"):
            scores = json.loads(out)
    table = scores["mode-scores"] if isinstance(scores, dict) else scores
    counts = os.path.join(ROOT, "Benchmarks", "work", "mode-counts.json")
    os.makedirs(os.path.dirname(counts), exist_ok=True)
    fitted = subprocess.run(
        [BIN, "evaluate", "modes", *gpx, "--truth", truth, *tz, "--fit", "--no-held-out", "--quiet",
         "--format", "json"], capture_output=True, text=True, check=True)
    model = json.loads(fitted.stdout)["mode-model-counts"]
    json.dump({"emission": [[float(x) for x in r["emission_counts"].split()] for r in model],
               "transition": [[float(x) for x in r["transition_counts"].split()] for r in model]},
              open(counts, "w"))
    oracle = json.loads(subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "oracles", "transport_modes.py"), "--truth", truth,
         "--gpx", *gpx, "--palms", palms, "--counts", counts], capture_output=True, text=True, check=True).stdout)
    print()
    print("| predictor | moving epochs | moving accuracy (EnergyLab) | moving accuracy (oracle) |")
    print("| --- | ---: | ---: | ---: |")
    for row in table:
        name = row["predictor"]
        key = {"energylab": "energylab", "palms": "palms"}.get(name)
        mine = row["moving_accuracy"]
        theirs = oracle[key]["moving_accuracy"] if key else None
        print(f"| {name} | {row['moving_epochs']} | {mine:.4f} | {'' if theirs is None else f'{theirs:.4f}'} |")


if __name__ == "__main__":
    main()
