#!/usr/bin/env python3
"""Power-curve benchmark: `energylab power curve --bounded-memory` on the
1 GB chained FIT file that Benchmarks/fit.py builds (whole activity files
of the shared FIT dataset, in turn, until it holds 1e9 bytes), timed with
its peak resident set, beside the same command on one 1 MB activity.

The goal: the mean-maximal curve of the 1 GB file within 60 s in flat
memory. Timings are measured here, never asserted in tests.

Usage: python3 Benchmarks/power_curve.py   (from the repository root;
ENERGYLAB_BIN picks the binary, default .build/release/energylab, built
when missing; REPEATS=1; writes Benchmarks/results/power_curve.md and the
table between the power_curve.py markers of BENCHMARKS.md)
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import fit  # noqa: E402

REPEATS = int(os.environ.get("REPEATS", "1"))


def main():
    common.build()
    os.makedirs(fit.WORK, exist_ok=True)
    big = os.path.join(fit.WORK, "chained-1gb.fit")
    files = fit.chained(big, fit.TARGET_BYTES, fit.ACTIVITIES)
    rows = []
    for label, path in [(f"{fit.LARGE} (1 MB)", os.path.join(fit.DATASET, fit.LARGE)),
                        ("Edge810-Vector (148 kB, power)", os.path.join(fit.DATASET, fit.ACTIVITIES[0])),
                        (f"chained 1 GB: {files} whole files", big)]:
        seconds, peak, out = common.measure(
            [common.BIN, "power", "curve", path, "--bounded-memory", "--format", "csv",
             "--charts", os.path.join(fit.WORK, "charts")], REPEATS)
        points = max(0, len(out.strip().splitlines()) - 1)
        rows.append(f"| {label} | {os.path.getsize(path) / 1e6:,.1f} | {points} | {seconds:.2f} | {peak:.0f} |")
    text = "\n".join([
        "| data | MB | curve points | energylab power curve --bounded-memory (s) | peak RSS (MB) |",
        "| --- | ---: | ---: | ---: | ---: |",
        *rows,
        "",
        f"Best of {REPEATS}. Machine: {common.machine()}. Binary: {common.BIN}. The curve is exact to 1 h and "
        "over whole minutes beyond; the chained file is one series (its activities back to back).",
        "",
    ])
    common.publish("power_curve", text)


if __name__ == "__main__":
    main()
