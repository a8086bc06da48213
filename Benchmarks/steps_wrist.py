#!/usr/bin/env python3
"""Step detection at the wrists, sternum and lower back of one walker,
against the steps of two foot-worn gyroscopes in straight walking.

Data: the two-minute walk test shipped in the source distribution of
dispel 0.0.3 on PyPI (Biogen's DIgital Signal ProcEssing Library; MIT
licence), tests/providers/apdm/_resources/2mwt/example.h5: six APDM Opal
sensors recorded together at 128 Hz (left and right wrist, sternum, lower
back, left and right foot), 123 s, walking back and forth with a turn
every 7 s or so. The file carries no step annotations.

Reference: only straight walking, where the feet give an unambiguous
count. Turns are found from the lower-back gyroscope (the rate about the
axis of gravity, low-passed at 0.5 Hz, above 0.35 rad/s); stretches of at
least 3 s between turns are straight walking. In them each foot's
gyroscope about its mediolateral axis (low-passed at 3 Hz) peaks once per
stride at mid-swing; a peak of at least 1.5 rad/s, 0.7 s or more after
the last, is one step of that foot. The check on the reference: in
straight walking the feet must alternate (no two steps of one foot in a
row), and the count must not depend on the peak height chosen (1 or
2 rad/s give the same).

EnergyLab reads each body sensor's acceleration (written as time,x,y,z in
m/s^2) with its shipped parameters; its steps are those in 0.1 s epochs
starting within a straight stretch. A foot's mid-swing comes before its
heel strike and EnergyLab times a step at its filtered peak, after the
heel strike, so for each sensor the stretches are shifted by the median
time from a reference step to the next EnergyLab step inside them (a
constant lag, measured, not chosen). Over the whole recording EnergyLab
also counts steps in the turns, where the reference has no count.

Usage: python3 Benchmarks/steps_wrist.py   (from the repository root;
downloads dispel 0.0.3's source from PyPI and installs h5py, numpy and
scipy into a throwaway virtual environment; builds the release binary
when missing; writes Benchmarks/results/steps_wrist.md)
"""
import json, os, statistics, subprocess

from common import ROOT, build, sdist_members, step_epochs, venv, warned, write_results

WORK = os.path.join(ROOT, "Benchmarks", "work", "wrist")
OUT = os.path.join(ROOT, "Benchmarks", "results", "steps_wrist.md")
DISPEL = "0.0.3"
MEMBER = f"dispel-{DISPEL}/tests/providers/apdm/_resources/2mwt/example.h5"
POSITIONS = ["Left Wrist", "Right Wrist", "Sternum", "Lumbar"]

REFERENCE = r"""
import json, sys
import h5py, numpy as np
from scipy.signal import butter, filtfilt, find_peaks

path, out = sys.argv[1], sys.argv[2]
f = h5py.File(path, "r")
label = {}
for sid in f["Sensors"]:
    name = f["Sensors"][sid]["Configuration"].attrs["Label 0"]
    label[name.decode() if isinstance(name, bytes) else name] = f["Sensors"][sid]
rate = 128.0
lumbar = label["Lumbar"]
t0 = lumbar["Time"][0] * 1e-6
t = lumbar["Time"][:] * 1e-6 - t0
gravity = lumbar["Accelerometer"][:].mean(axis=0)
yaw = lumbar["Gyroscope"][:] @ (gravity / np.linalg.norm(gravity))
b, a = butter(2, 0.5 / (rate / 2))
turning = np.abs(filtfilt(b, a, yaw)) > 0.35
stretches, i = [], 0
while i < len(t):
    if turning[i]:
        i += 1
        continue
    j = i
    while j < len(t) and not turning[j]:
        j += 1
    if t[j - 1] - t[i] >= 3:
        stretches.append((float(t[i]), float(t[j - 1])))
    i = j

def foot_steps(height):
    steps = []
    for foot in ["Left Foot", "Right Foot"]:
        s = label[foot]
        times = s["Time"][:] * 1e-6 - t0
        b, a = butter(2, 3 / (rate / 2))
        x = -filtfilt(b, a, s["Gyroscope"][:, 1])
        peaks, _ = find_peaks(x, height=height, distance=int(0.7 * rate))
        steps += [(float(times[p]), foot) for p in peaks]
    return sorted(steps)

def inside(steps, a, b):
    return [s for s in steps if a <= s[0] <= b]

events = [t for t, _ in foot_steps(1.5)]
reference = {}
for height in (1.0, 1.5, 2.0):
    steps = foot_steps(height)
    per = [inside(steps, a, b) for a, b in stretches]
    reference[height] = dict(
        per_stretch=[len(p) for p in per],
        same_foot=sum(1 for p in per for x, y in zip(p, p[1:]) if x[1] == y[1]))
recordings = {}
for position in %s:
    s = label[position]
    path_csv = out + "/" + position.lower().replace(" ", "-") + ".csv"
    times = s["Time"][:] * 1e-6
    with open(path_csv, "w") as w:
        w.write("time,x,y,z\n")
        for ti, (x, y, z) in zip(times, s["Accelerometer"][:]):
            w.write("%%.6f,%%.5f,%%.5f,%%.5f\n" %% (ti, x, y, z))
    recordings[position] = path_csv
json.dump(dict(t0=float(t0), seconds=float(t[-1]), stretches=stretches, reference=reference, events=events,
               recordings=recordings), open(out + "/reference.json", "w"), indent=1)
""" % repr(POSITIONS)


def recording(py):
    """The walk test's HDF5 file, taken from dispel's source distribution."""
    folder = os.path.join(WORK, "2mwt")
    if not os.path.exists(os.path.join(folder, "example.h5")):
        sdist_members(py, "dispel", DISPEL, os.path.dirname(MEMBER) + "/", folder)
    return os.path.join(folder, "example.h5")


def median_lag(epochs, events, stretches):
    """Median time from each EnergyLab step in a straight stretch back to
    the reference step before it, s."""
    delays = []
    for t, n in epochs:
        if n and any(a <= t <= b for a, b in stretches):
            before = [e for e in events if e <= t]
            if before:
                delays.append(t - before[-1])
    return statistics.median(delays)


def main():
    build()
    py = venv(".venv-wrist", ["h5py", "numpy", "scipy"])
    os.makedirs(WORK, exist_ok=True)
    h5 = recording(py)
    csvs = os.path.join(WORK, "csv")
    os.makedirs(csvs, exist_ok=True)
    subprocess.run([py, "-c", REFERENCE, h5, csvs], check=True)
    info = json.load(open(os.path.join(csvs, "reference.json")))
    stretches = info["stretches"]
    reference = info["reference"]
    chosen = reference["1.5"]["per_stretch"]
    truth = sum(chosen)
    lines = [
        "# Steps at the wrists, sternum and lower back of one walker",
        "",
        f"dispel {DISPEL} (PyPI; MIT): a two-minute walk test, six APDM Opal sensors at 128 Hz. "
        f"Reference: steps of the foot gyroscopes in {len(stretches)} straight stretches between turns "
        f"({sum(b - a for a, b in stretches):.0f} s of {info['seconds']:.0f} s).",
        "",
        "| foot peak height (rad/s) | steps in the straight stretches | two steps of one foot in a row |",
        "| ---: | ---: | ---: |",
    ]
    for height, r in sorted(reference.items(), key=lambda kv: float(kv[0])):
        lines.append(f"| {height} | {sum(r['per_stretch'])} | {r['same_foot']} |")
    lines += ["", "| sensor | lag s | steps in the straight stretches | error % | steps in the whole recording |",
              "| --- | ---: | ---: | ---: | ---: |", f"| feet (reference) | | {truth} | | |"]
    per_stretch = {}
    lags = {}
    for position in POSITIONS:
        epochs = [(t - info["t0"], n)
                  for t, n in step_epochs(info["recordings"][position], "--time-format", "unix-s", "--unit", "m/s2")]
        lag = median_lag(epochs, info["events"], stretches)
        lags[position] = lag
        per = [sum(n for t, n in epochs if a + lag <= t <= b + lag) for a, b in stretches]
        per_stretch[position] = per
        total = sum(n for _, n in epochs)
        lines.append(f"| {position.lower()} | {lag:.2f} | {sum(per)} | {(sum(per) - truth) / truth * 100:+.1f} | {total} |")
    lines += ["", "Stretch by stretch (seconds from the start; reference, then each sensor):", "",
              "| stretch | from s | to s | feet | " + " | ".join(p.lower() for p in POSITIONS) + " |",
              "| ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in POSITIONS) + " |"]
    for k, (a, b) in enumerate(stretches):
        lines.append(f"| {k + 1} | {a:.1f} | {b:.1f} | {chosen[k]} | "
                     + " | ".join(str(per_stretch[p][k]) for p in POSITIONS) + " |")
    paths = [info["recordings"][p] for p in POSITIONS]
    flagged = warned(paths, "--time-format", "unix-s", "--unit", "m/s2")
    lines += ["", "Sensors whose default summary (no wear location stated) warns `steps-below-threshold` "
              "(the waist's 0.02 g threshold finding many more steps): "
              + (", ".join(p.lower() for p, path in zip(POSITIONS, paths) if path in flagged) or "none") + "."]
    write_results(OUT, lines)


if __name__ == "__main__":
    main()
