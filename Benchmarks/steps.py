#!/usr/bin/env python3
"""Step detection on real phone recordings: EnergyLab against the steps a
foot-worn device counted, with leave-one-user-out validation.

Data: the Oxford step counter DataSet (CC BY 4.0), optimisation recordings,
in ../shared/datasets/oxford-step-counter-optimisation (or $STEPS_DATA):
48 recordings of 3 users, 7 carrying positions, 2 surfaces.

Usage: python3 Benchmarks/steps.py   (from the repository root; builds the
release binary when missing; writes Benchmarks/results/steps.md)

For each held-out user, the step parameters (peak threshold, relative
peak, minimum interval) are chosen from a small grid on the other users'
recordings only, then applied to the held-out user: the held-out errors
are the honest figure. The table also shows the shipped defaults.
"""
import itertools, json, os, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get(
    "STEPS_DATA", os.path.join(ROOT, "..", "shared", "datasets", "oxford-step-counter-optimisation"))
BIN = os.environ.get("ENERGYLAB_BIN", os.path.join(ROOT, ".build", "release", "energylab"))
OUT = os.path.join(ROOT, "Benchmarks", "results", "steps.md")
DEFAULTS = (0.08, 0.3, 0.3)
GRID = list(itertools.product([0.07, 0.08, 0.09], [0.3, 0.4, 0.5], [0.25, 0.3]))


def recordings():
    rows = []
    with open(os.path.join(DATA, "stats.csv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            d, user, phone, position, surface, _, steps = [c.strip() for c in line.split(",")]
            rows.append(dict(dir=d, user=user, phone=phone, position=position.lower(), surface=surface,
                             truth=int(steps), path=os.path.join(DATA, d, "accelerometer.csv.gz")))
    return rows


def steps(rows, params):
    """EnergyLab's steps for every recording with these parameters (one run)."""
    threshold, relative, interval = params
    out = subprocess.run(
        [BIN, "accel", "summary", *[r["path"] for r in rows], "--format", "json", "--quiet",
         "--step-threshold", str(threshold), "--step-relative-peak", str(relative),
         "--step-min-interval", str(interval)],
        capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"energylab failed: {out.stderr[:2000]}")
    return {os.path.realpath(r["file"]): r["steps"] for r in json.loads(out.stdout)}


def error(count, truth):
    return (count - truth) / truth * 100


def main():
    if not os.path.exists(BIN):
        subprocess.run(["swift", "build", "-c", "release", "--product", "energylab"], cwd=ROOT, check=True)
    rows = recordings()
    counts = {}
    for params in GRID:
        found = steps(rows, params)
        counts[params] = {r["dir"]: found[os.path.realpath(r["path"])] for r in rows}
    users = sorted({r["user"] for r in rows})

    def mape(params, subset):
        return statistics.mean(abs(error(counts[params][r["dir"]], r["truth"])) for r in subset)

    chosen = {}
    for user in users:
        others = [r for r in rows if r["user"] != user]
        chosen[user] = min(GRID, key=lambda p: (mape(p, others), p))
    lines = [
        "# Steps on real phone recordings",
        "",
        "Oxford step counter DataSet (CC BY 4.0), optimisation recordings: "
        f"{len(rows)} recordings, {len(users)} users, steps counted by a foot-worn device. "
        "`held-out` uses parameters chosen on the other users only (leave one user out); "
        f"`defaults` are the shipped parameters (threshold {DEFAULTS[0]} g, relative peak {DEFAULTS[1]}, "
        f"minimum interval {DEFAULTS[2]} s).",
        "",
        "| recording | position | truth | EnergyLab (defaults) | error % | EnergyLab (held-out) | error % |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    held, default = [], []
    for r in rows:
        d, h = counts[DEFAULTS][r["dir"]], counts[chosen[r["user"]]][r["dir"]]
        default.append((r, error(d, r["truth"])))
        held.append((r, error(h, r["truth"])))
        lines.append(f"| {r['dir']} | {r['position']} | {r['truth']} | {d} | {error(d, r['truth']):+.1f} "
                     f"| {h} | {error(h, r['truth']):+.1f} |")
    lines += ["", "| held-out user | parameters chosen on the others (threshold g, relative, interval s) |",
              "| --- | --- |"]
    lines += [f"| {u} | {chosen[u]} |" for u in users]
    lines += ["", "| position | recordings | MAPE % (held-out) | worst % (held-out) | MAPE % (defaults) |",
              "| --- | ---: | ---: | ---: | ---: |"]
    for position in sorted({r["position"] for r in rows}):
        h = [abs(e) for r, e in held if r["position"] == position]
        d = [abs(e) for r, e in default if r["position"] == position]
        lines.append(f"| {position} | {len(h)} | {statistics.mean(h):.1f} | {max(h):.1f} | {statistics.mean(d):.1f} |")
    h = [abs(e) for _, e in held]
    d = [abs(e) for _, e in default]
    lines += ["", f"Held-out: MAPE {statistics.mean(h):.2f} %, worst {max(h):.1f} %, "
              f"{sum(e <= 5 for e in h)} of {len(h)} within 5 %. "
              f"Defaults: MAPE {statistics.mean(d):.2f} %, worst {max(d):.1f} %, "
              f"{sum(e <= 5 for e in d)} of {len(d)} within 5 %."]
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
