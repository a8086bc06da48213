#!/usr/bin/env python3
"""Step detection on real phone recordings: EnergyLab against the steps a
foot-worn device counted, with leave-one-user-out validation.

Data: the Oxford step counter DataSet (CC BY 4.0), optimisation recordings,
in ../shared/datasets/oxford-step-counter-optimisation (or $STEPS_DATA):
48 recordings of 3 users, 7 carrying positions, 2 surfaces.

Usage: python3 Benchmarks/steps.py   (from the repository root; builds the
release binary when missing; writes Benchmarks/results/steps.md)

Three references per recording, all from the foot switches' own file
(stepcounter.csv), never from EnergyLab:
- `truth`: the dataset's count (every 0 -> 1 change of either switch; it
  equals stats.csv);
- `debounced`: the same without switch bounces, a press of one foot less
  than 0.5 s after that foot's previous press. One foot lands once per
  stride, and a stride takes 0.9-1.3 s in walking and no less than about
  0.6 s even in a sprint, so such a press is the switch chattering, not a
  step;
- `corrected`: the debounced count plus the presses a switch missed. Feet
  alternate: two presses of one foot in a row, 0.75-1.5 of that foot's
  median stride apart, with no press of the other foot between, leave out
  the other foot's press (longer same-foot gaps are pauses, not counted).

For each held-out user the step parameters (low-pass corner, peak
threshold, relative peak, and whether the gap-fill and rhythm rules are
on) are chosen from a grid on the other users' recordings only (lowest
MAPE against the corrected count), then applied to the held-out user: the
held-out errors are the honest figure of that procedure (the rules' own
settings and the missed-press window are fixed, not chosen here). The same choice leaving out one surface, one phone model or one
carrying position at a time shows whether a choice carries over to walking
the grid has not seen. The shipped defaults are reported as they are, and
without either rule or both, and on the same recordings resampled to the
lower rates other phones and apps record at (50 Hz is Android's game
rate; a sensor at a lower rate is read as it writes them).
"""
import gzip, itertools, json, os, shutil, statistics, subprocess, sys

from common import resample, summaries, warns, write_results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get(
    "STEPS_DATA", os.path.join(ROOT, "..", "shared", "datasets", "oxford-step-counter-optimisation"))
BIN = os.environ.get("ENERGYLAB_BIN", os.path.join(ROOT, ".build", "release", "energylab"))
OUT = os.path.join(ROOT, "Benchmarks", "results", "steps.md")
# (low-pass Hz, peak threshold g, relative peak, gap fill on, rhythm rule on);
# the minimum interval stays at 0.3 s.
GRID = list(itertools.product([2.5, 3.0, 3.5, 4.0], [0.04, 0.05, 0.06, 0.07, 0.08], [0.3, 0.4],
                              [True, False], [True, False]))
BOUNCE_S = 0.5
# A same-foot interval of this share of that foot's median stride holds one
# missed press of the other foot.
MISSED_STRIDES = (0.75, 1.5)
# The shipped parameters (checked against a run without flags).
DEFAULTS = (2.5, 0.05, 0.3, True, True)
# The reference parameters are chosen against.
REF = os.environ.get("STEPS_REFERENCE", "corrected")
# Lower sample rates the recordings are resampled to, Hz.
RATES = [50, 30, 20, 15]
WORK = os.path.join(ROOT, "Benchmarks", "work", "phone-rates")
if REF not in ("truth", "debounced", "corrected"):
    sys.exit(f"STEPS_REFERENCE={REF}: expected truth, debounced or corrected")


def switch_counts(folder):
    """(presses, bounces, missed) of the two foot switches in stepcounter.csv."""
    presses, bounces = 0, 0
    last = [None, None]
    previous = [None, None]
    kept = []  # (time, foot) of the presses that are not bounces
    with open(os.path.join(folder, "stepcounter.csv")) as f:
        for line in f:
            if not line.strip():
                continue
            t, left, right = line.split(",")[:3]
            t = int(t) * 1e-9
            for foot, state in enumerate((int(left), int(right))):
                if previous[foot] == 0 and state == 1:
                    presses += 1
                    if last[foot] is not None and t - last[foot] < BOUNCE_S:
                        bounces += 1
                    else:
                        kept.append((t, foot))
                    last[foot] = t
                previous[foot] = state
    kept.sort()
    times = [[t for t, f in kept if f == foot] for foot in (0, 1)]
    if min(len(t) for t in times) < 2:
        sys.exit(f"{folder}: a foot switch has fewer than two presses; no stride to check alternation against")
    stride = [statistics.median(b - a for a, b in zip(t, t[1:])) for t in times]
    missed = sum(1 for (t1, f1), (t2, f2) in zip(kept, kept[1:])
                 if f1 == f2 and MISSED_STRIDES[0] * stride[f1] <= t2 - t1 <= MISSED_STRIDES[1] * stride[f1])
    return presses, bounces, missed


def recordings():
    rows = []
    with open(os.path.join(DATA, "stats.csv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            d, user, phone, position, surface, _, steps = [c.strip() for c in line.split(",")]
            presses, bounces, missed = switch_counts(os.path.join(DATA, d))
            if presses != int(steps):
                sys.exit(f"{d}: stepcounter.csv has {presses} presses, stats.csv says {steps}")
            rows.append(dict(dir=d, user=user, phone=phone, position=position.lower(), surface=surface,
                             truth=int(steps), bounces=bounces, debounced=int(steps) - bounces,
                             missed=missed, corrected=int(steps) - bounces + missed,
                             path=os.path.join(DATA, d, "accelerometer.csv.gz")))
    return rows


def summarise(rows, params):
    """EnergyLab's summary row of every recording with these parameters
    (one run), by the recording's real path."""
    flags = []
    if params is not None:
        low_pass, threshold, relative, gap_fill, rhythm = params
        flags += ["--step-low-pass", str(low_pass), "--step-threshold", str(threshold),
                  "--step-relative-peak", str(relative)]
        flags += [] if gap_fill else ["--no-step-gap-fill"]
        flags += [] if rhythm else ["--no-step-rhythm"]
    return {os.path.realpath(r["file"]): r for r in summaries([r["path"] for r in rows], *flags)}


def steps(rows, params):
    """EnergyLab's steps for every recording with these parameters (one run)."""
    return {path: r["steps"] for path, r in summarise(rows, params).items()}


def at_rate(rows, rate):
    """Shipped-default steps of every recording resampled to `rate` Hz
    (linear interpolation onto a uniform grid; written in the dataset's own
    format: sensor-clock ns, accuracy, x, y, z in m/s^2)."""
    folder = os.path.join(WORK, str(rate))
    os.makedirs(folder, exist_ok=True)
    copies = []
    for r in rows:
        with gzip.open(r["path"], "rt") as f:
            samples = [line.split(",") for line in f if line.strip()]
        times = [int(c[0]) * 1e-9 for c in samples]
        values = [[float(v) for v in c[2:5]] for c in samples]
        copy = dict(r, path=os.path.join(folder, r["dir"] + ".csv"))
        with open(copy["path"], "w") as f:
            for t, v in resample(times, values, rate):
                f.write(f"{round(t * 1e9)},3," + ",".join(f"{a:.6f}" for a in v) + "\n")
        copies.append(copy)
    rows_at_rate = summarise(copies, None)
    found = {c["dir"]: rows_at_rate[os.path.realpath(c["path"])] for c in copies}
    shutil.rmtree(folder)
    return {d: r["steps"] for d, r in found.items()}, sum(warns(r) for r in found.values())


def error(count, reference):
    return (count - reference) / reference * 100


def summary(errors):
    a = [abs(e) for e in errors]
    return f"MAPE {statistics.mean(a):.2f} %, worst {max(a):.1f} %, {sum(e <= 5 for e in a)} of {len(a)} within 5 %"


def main():
    if not os.path.exists(BIN):
        subprocess.run(["swift", "build", "-c", "release", "--product", "energylab"], cwd=ROOT, check=True)
    rows = recordings()
    counts = {}
    for params in GRID:
        found = steps(rows, params)
        counts[params] = {r["dir"]: found[os.path.realpath(r["path"])] for r in rows}
    defaults = summarise(rows, None)
    defaults = {r["dir"]: defaults[os.path.realpath(r["path"])] for r in rows}
    shipped = {d: r["steps"] for d, r in defaults.items()}
    # Where the defaults warn that the waist's threshold finds many more.
    flagged = [d for d, r in defaults.items() if warns(r)]
    if shipped != counts[DEFAULTS]:
        sys.exit(f"the shipped step parameters are not {DEFAULTS}: update DEFAULTS")
    no_rules = counts[DEFAULTS[:3] + (False, False)]

    def mape(params, subset):
        return statistics.mean(abs(error(counts[params][r["dir"]], r[REF])) for r in subset)

    def leave_out(key):
        """{group: parameters chosen on the other groups} and the held-out errors."""
        chosen, held = {}, {}
        for group in sorted({r[key] for r in rows}):
            others = [r for r in rows if r[key] != group]
            chosen[group] = min(GRID, key=lambda p: (mape(p, others), p))
            for r in rows:
                if r[key] == group:
                    held[r["dir"]] = error(counts[chosen[group]][r["dir"]], r[REF])
        return chosen, held

    users = sorted({r["user"] for r in rows})
    chosen, _ = leave_out("user")
    best = min(GRID, key=lambda p: (mape(p, rows), p))
    lines = [
        "# Steps on real phone recordings",
        "",
        "Oxford step counter DataSet (CC BY 4.0), optimisation recordings: "
        f"{len(rows)} recordings, {len(users)} users, steps counted by two foot switches. "
        "`truth` is the dataset's count; `bounces` are presses of one foot less than "
        f"{BOUNCE_S} s after that foot's previous press (a stride is never that short); `missed` are presses "
        "of one foot missing between two presses of the other foot "
        f"{MISSED_STRIDES[0]}-{MISSED_STRIDES[1]} of its median stride apart (feet alternate); `corrected` is "
        "the truth less bounces plus missed presses. Errors are against the corrected count unless "
        f"named; parameters are chosen against the {REF} count. `held-out` uses parameters chosen on "
        "the other users only (leave one user out); `defaults` are the shipped parameters (low-pass "
        f"{DEFAULTS[0]} Hz, threshold {DEFAULTS[1]} g, relative peak {DEFAULTS[2]}, gap fill and rhythm "
        "rule on), and `no rules` the same without the gap-fill and rhythm rules. The grid's lowest MAPE "
        f"on all users is {best}.",
        "",
        "| recording | position | truth | bounces | missed | corrected | EnergyLab (held-out) "
        "| error % (truth) | error % | EnergyLab (defaults) | error % | EnergyLab (no rules) | error % |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    held = {r["dir"]: counts[chosen[r["user"]]][r["dir"]] for r in rows}

    def errors(found, reference="corrected", subset=rows):
        return [error(found[r["dir"]], r[reference]) for r in subset]

    for r in rows:
        h, d, u = held[r["dir"]], shipped[r["dir"]], no_rules[r["dir"]]
        lines.append(f"| {r['dir']} | {r['position']} | {r['truth']} | {r['bounces']} | {r['missed']} "
                     f"| {r['corrected']} | {h} | {error(h, r['truth']):+.1f} | {error(h, r['corrected']):+.1f} "
                     f"| {d} | {error(d, r['corrected']):+.1f} | {u} | {error(u, r['corrected']):+.1f} |")
    lines += ["", "| held-out user | parameters chosen on the others (low-pass Hz, threshold g, relative, "
              "gap fill, rhythm) |", "| --- | --- |"]
    lines += [f"| {u} | {chosen[u]} |" for u in users]
    lines += ["", "| position | recordings | MAPE % held-out (truth) | MAPE % held-out "
              "| worst % held-out | MAPE % defaults | MAPE % no rules |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for position in sorted({r["position"] for r in rows}):
        subset = [r for r in rows if r["position"] == position]
        t, h, d, u = ([abs(e) for e in errors(found, reference, subset)] for found, reference in
                      ((held, "truth"), (held, "corrected"), (shipped, "corrected"), (no_rules, "corrected")))
        lines.append(f"| {position} | {len(subset)} | {statistics.mean(t):.1f} | {statistics.mean(h):.1f} "
                     f"| {max(h):.1f} | {statistics.mean(d):.1f} | {statistics.mean(u):.1f} |")
    lines += ["", f"Leaving out one group at a time (against the {REF} count):", "",
              "| left out | parameters chosen on the rest, per group left out | held-out errors |",
              "| --- | --- | --- |"]
    for key in ("user", "surface", "phone", "position"):
        ch, out = leave_out(key)
        worst = max(out, key=lambda d: abs(out[d]))
        lines.append(f"| {key} | {'; '.join(f'{g}: {p}' for g, p in ch.items())} "
                     f"| {summary(list(out.values()))}; worst {worst} |")
    lines += [""]
    for name, found in (("Held-out", held), ("Defaults", shipped)):
        for reference in ("truth", "debounced", "corrected"):
            lines.append(f"{name} against the {reference} count: {summary(errors(found, reference))}.")
    for what, rules in (("without gap fill", (False, True)), ("without the rhythm rule", (True, False)),
                        ("without either rule", (False, False))):
        lines.append(f"Defaults {what} against the corrected count: "
                     f"{summary(errors(counts[DEFAULTS[:3] + rules]))}.")
    lines += [f"Bounces: {sum(r['bounces'] for r in rows)} in {sum(r['bounces'] > 0 for r in rows)} of "
              f"{len(rows)} recordings; missed presses: {sum(r['missed'] for r in rows)} in "
              f"{sum(r['missed'] > 0 for r in rows)}."]
    lines += ["", "The same recordings resampled to lower rates (shipped parameters; against the corrected count):", "",
              "| rate | MAPE % | worst % | within 5 % | worst recording | warn `steps-below-threshold` |",
              "| --- | ---: | ---: | ---: | --- | ---: |"]
    for rate, (found, warnings) in [("as recorded (100-220 Hz)", (shipped, len(flagged)))] + [
            (f"{hz} Hz", at_rate(rows, hz)) for hz in RATES]:
        e = dict(zip((r["dir"] for r in rows), errors(found)))
        worst = max(e, key=lambda d: abs(e[d]))
        lines.append(f"| {rate} | {statistics.mean(abs(x) for x in e.values()):.2f} | {abs(e[worst]):.1f} "
                     f"| {sum(abs(x) <= 5 for x in e.values())} of {len(e)} | {worst} ({found[worst]}, {e[worst]:+.1f} %) "
                     f"| {warnings} |")
    lines += ["", "Recordings whose default summary (no wear location stated) warns `steps-below-threshold` "
              f"(the waist's 0.02 g threshold finding many more steps): {len(flagged)} of {len(rows)}"
              + (f" ({', '.join(flagged)})." if flagged else ".")]
    write_results(OUT, lines)


if __name__ == "__main__":
    main()
