#!/usr/bin/env python3
"""Step detection on real waist-worn (lower back) recordings: EnergyLab
against the initial contacts of a foot-worn reference system.

Data: the laboratory example recordings shipped in the source distribution
of mobgap 1.2.0 on PyPI (the Mobilise-D gait pipeline; Apache-2.0, copyright
MaDLab FAU in the name of the Mobilise-D consortium; Micó-Amigo et al. 2023,
J NeuroEng Rehabil 20:78, doi:10.1186/s12984-023-01198-5; Kirk et al.
2024, Sci Rep 14:1754, doi:10.1038/s41598-024-51766-5). Three participants
(two healthy adults, one with multiple sclerosis) wore a McRoberts
MoveMonitor+ at the lower back (100 Hz) through a straight walk at
comfortable speed (Test 5, two trials) and simulated daily activities
(Test 11, two to four minutes, walking bouts between other tasks); the INDIP
reference (inertial sensors on both feet, pressure insoles, distance
sensors) gives the walking bouts and every initial contact (step) in them.
Two Test 5 trials of one participant carry no reference bout and are left
out. The recordings are read with mobgap's own loader (the .mat files are
not a device format EnergyLab reads) and written as time,x,y,z in m/s^2.

Reference and comparison:
- per reference walking bout: the reference's initial contacts against
  EnergyLab's steps whose 0.1 s epoch starts within the bout, widened by
  0.3 s at each end (half the shortest step: a step is timed at its
  filtered peak, a little after the heel strike);
- per recording: all of EnergyLab's steps against all reference contacts
  (steps outside the reference bouts, such as single steps or shuffling
  while turning, are counted by EnergyLab and not by the reference);
- peers: mobgap's three initial-contact detectors for lower-back data
  (Ionescu, Shin improved, HK Lee improved) run on each reference bout
  widened by the same 0.3 s, that is, told where the walking is.

The step detector runs with its shipped parameters and with lower peak
thresholds (--step-threshold) to show how the count depends on it; for
waist wear a threshold is also chosen leaving one participant out (the
other two choose it, the held-out one is scored), and the shipped
parameters stay as chosen on the phones.

Usage: python3 Benchmarks/steps_waist.py   (from the repository root;
downloads mobgap 1.2.0 from PyPI into a throwaway virtual environment,
builds the release binary when missing, writes
Benchmarks/results/steps_waist.md)
"""
import datetime, json, os, statistics, subprocess

from common import ROOT, build, resample, sdist_members, step_epochs, venv, warned, write_results

WORK = os.path.join(ROOT, "Benchmarks", "work", "waist")
OUT = os.path.join(ROOT, "Benchmarks", "results", "steps_waist.md")
MOBGAP = "1.2.0"
THRESHOLDS = [None, 0.04, 0.03, 0.02]  # None: the shipped parameters
WAIST = 0.02  # what --wear-location waist sets
EDGE_S = 2.0  # steps this close to a bout count as starting or stopping it
TOLERANCE_S = 0.3

EXPORT = r"""
import json, os, sys
from mobgap.data import LabExampleDataset
from mobgap.initial_contacts import IcdIonescu, IcdShinImproved, IcdHKLeeImproved
from mobgap.utils.conversions import to_body_frame

out, tolerance = sys.argv[1], float(sys.argv[2])
peers = {"Ionescu": IcdIonescu, "Shin improved": IcdShinImproved, "HK Lee improved": IcdHKLeeImproved}
recordings = []
for d in LabExampleDataset(reference_system="INDIP", reference_para_level="wb"):
    g = d.group_label
    name = f"{g.cohort}{g.participant_id}_{g.test}_{g.trial}"
    data, rate = d.data_ss, d.sampling_rate_hz
    reference = d.reference_parameters_
    bouts = reference.wb_list
    path = os.path.join(out, name + ".csv")
    with open(path, "w") as f:
        f.write("time,x,y,z\n")
        for t, x, y, z in zip(data.index, data["acc_x"], data["acc_y"], data["acc_z"]):
            f.write(f"{t.strftime('%Y-%m-%dT%H:%M:%S.%f')}Z,{x:.5f},{y:.5f},{z:.5f}\n")
    body = to_body_frame(data)
    contacts = reference.ic_list.groupby(level="wb_id").size() if len(bouts) else {}
    rows = []
    for wb, start, end, speed, cadence in zip(bouts.index, bouts["start"], bouts["end"],
                                              bouts["avg_walking_speed_mps"], bouts["avg_cadence_spm"]):
        pad = int(round(tolerance * rate))
        segment = body.iloc[max(0, int(start) - pad):int(end) + 1 + pad]
        rows.append(dict(
            start=data.index[int(start)].timestamp(), end=data.index[int(end)].timestamp(),
            contacts=int(contacts.loc[wb]), speed=float(speed), cadence=float(cadence),
            contact_times=[data.index[int(i)].timestamp() for i in reference.ic_list.loc[wb]["ic"]],
            peers={p: len(a().detect(segment, sampling_rate_hz=rate).ic_list_) for p, a in peers.items()}))
    recordings.append(dict(name=name, cohort=g.cohort, participant=g.participant_id, test=g.test,
                           trial=g.trial, path=path, seconds=len(data) / rate, rate=rate, bouts=rows))
json.dump(recordings, open(os.path.join(out, "reference.json"), "w"), indent=1)
"""


def example_data(py):
    """The source distribution's example_data folder, laid out as mobgap's
    data cache expects it ($MOBGAP_DATA_DIR/v<version>)."""
    cache = os.path.join(WORK, "cache")
    target = os.path.join(cache, f"v{MOBGAP}")
    if not os.path.exists(os.path.join(target, "README.md")):
        sdist_members(py, "mobgap", MOBGAP, f"mobgap-{MOBGAP}/example_data/", target)
    return cache


def energylab_step_times(path, threshold):
    """(epoch start in s, steps) of EnergyLab's 0.1 s epochs."""
    return step_epochs(path, *([] if threshold is None else ["--step-threshold", str(threshold)]))


def resampled(path, rate):
    """A copy of the recording at `rate` Hz (linear interpolation onto a
    uniform grid), as a device sampling slower would give: 50 Hz and
    ActiGraph's 30 Hz."""
    out = path.replace(".csv", f"-{rate}hz.csv")
    rows = [line.split(",") for line in open(path).read().splitlines()[1:] if line]
    times = [datetime.datetime.fromisoformat(r[0].replace("Z", "+00:00")).timestamp() for r in rows]
    values = [[float(v) for v in r[1:4]] for r in rows]
    with open(out, "w") as f:
        f.write("time,x,y,z\n")
        for t, v in resample(times, values, rate):
            f.write(f"{t:.6f}," + ",".join(f"{a:.5f}" for a in v) + "\n")
    return out


def percent(count, reference):
    return (count - reference) / reference * 100


def label(threshold):
    return "defaults (0.05 g)" if threshold is None else f"threshold {threshold} g"


def main():
    build()
    py = venv(".venv-waist", [f"mobgap=={MOBGAP}"])
    cache = example_data(py)
    csvs = os.path.join(WORK, "csv")
    os.makedirs(csvs, exist_ok=True)
    subprocess.run([py, "-c", EXPORT, csvs, str(TOLERANCE_S)], check=True, env={**os.environ, "MOBGAP_DATA_DIR": cache},
                   stderr=subprocess.DEVNULL)
    recordings = [r for r in json.load(open(os.path.join(csvs, "reference.json"))) if r["bouts"]]
    found = {}  # (threshold, recording) -> (steps in each bout, all steps)
    outside = {}  # recording -> times of the steps outside the bouts at the waist's threshold
    for threshold in THRESHOLDS:
        for r in recordings:
            epochs = energylab_step_times(r["path"], threshold)
            inside = [sum(n for t, n in epochs if b["start"] - TOLERANCE_S <= t <= b["end"] + TOLERANCE_S)
                      for b in r["bouts"]]
            found[threshold, r["name"]] = (inside, sum(n for _, n in epochs))
            if threshold == WAIST:
                outside[r["name"]] = [t for t, n in epochs for _ in range(n) if not any(
                    b["start"] - TOLERANCE_S <= t <= b["end"] + TOLERANCE_S for b in r["bouts"])]
    peers = list(recordings[0]["bouts"][0]["peers"])
    lines = [
        "# Steps on real waist-worn (lower back) recordings",
        "",
        f"Mobilise-D laboratory example recordings from mobgap {MOBGAP} (PyPI; Apache-2.0): "
        "MoveMonitor+ at the lower back, 100 Hz; reference: INDIP walking bouts and initial contacts. "
        f"EnergyLab's steps are those in 0.1 s epochs starting within a bout +/- {TOLERANCE_S} s. "
        f"Peers are mobgap's initial-contact detectors run on each reference bout +/- {TOLERANCE_S} s (told where the walking is).",
        "",
        "| recording | bout | speed m/s | cadence steps/min | reference contacts | "
        + " | ".join(f"EnergyLab {label(t)}" for t in THRESHOLDS) + " | " + " | ".join(peers) + " |",
        "| --- | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in THRESHOLDS + peers) + " |",
    ]
    for r in recordings:
        for i, b in enumerate(r["bouts"]):
            lines.append(f"| {r['name']} | {i + 1} | {b['speed']:.2f} | {b['cadence']:.0f} | {b['contacts']} | "
                         + " | ".join(str(found[t, r["name"]][0][i]) for t in THRESHOLDS) + " | "
                         + " | ".join(str(b["peers"][p]) for p in peers) + " |")

    def bouts(test):
        return [(r, i, b) for r in recordings if test(r) for i, b in enumerate(r["bouts"])]

    groups = [("straight walk (Test 5)", lambda r: r["test"] == "Test5"),
              ("daily-living circuit (Test 11)", lambda r: r["test"] == "Test11"),
              ("all", lambda r: True)]
    lines += ["", "Inside the reference bouts, summed (error of the sum against the reference contacts; MAPE over the bouts):", "",
              "| bouts | n | reference | " + " | ".join(f"EnergyLab {label(t)}" for t in THRESHOLDS)
              + " | " + " | ".join(peers) + " |",
              "| --- | ---: | ---: | " + " | ".join("---:" for _ in THRESHOLDS + peers) + " |"]
    for title, test in groups:
        chosen = bouts(test)
        reference = sum(b["contacts"] for _, _, b in chosen)
        cells = []

        def cell(counts):
            mape = statistics.mean(abs(percent(n, b["contacts"])) for n, (_, _, b) in zip(counts, chosen))
            return f"{sum(counts)} ({percent(sum(counts), reference):+.1f} %; MAPE {mape:.0f} %)"

        for t in THRESHOLDS:
            cells.append(cell([found[t, r["name"]][0][i] for r, i, _ in chosen]))
        for p in peers:
            cells.append(cell([b["peers"][p] for _, _, b in chosen]))
        lines.append(f"| {title} | {len(chosen)} | {reference} | " + " | ".join(cells) + " |")
    lines += ["", "Whole recordings (EnergyLab counts steps outside the reference bouts too):", "",
              "| recording | seconds | reference contacts | " + " | ".join(f"EnergyLab {label(t)}" for t in THRESHOLDS)
              + " |", "| --- | ---: | ---: | " + " | ".join("---:" for _ in THRESHOLDS) + " |"]
    for r in recordings:
        reference = sum(b["contacts"] for b in r["bouts"])
        lines.append(f"| {r['name']} | {r['seconds']:.0f} | {reference} | "
                     + " | ".join(str(found[t, r['name']][1]) for t in THRESHOLDS) + " |")
    # The steps the reference's bouts cannot confirm: starting and stopping
    # steps next to a bout, or runs of steps away from any.
    lines += ["", f"Steps outside the reference bouts at {WAIST} g (`--wear-location waist`): within {EDGE_S:.0f} s "
              "of a bout (starting or stopping it), or farther, in runs (a pause over 1.25 s ends a run):", "",
              "| recording | outside the bouts | next to a bout | farther | runs farther away (steps; median interval s) |",
              "| --- | ---: | ---: | ---: | --- |"]
    for r in recordings:
        times = outside[r["name"]]
        far = [t for t in times if min(min(abs(t - b["start"]), abs(t - b["end"])) for b in r["bouts"]) > EDGE_S]
        runs = []
        for t in far:
            if runs and t - runs[-1][-1] <= 1.25:
                runs[-1].append(t)
            else:
                runs.append([t])
        cells = "; ".join(f"{len(run)} ({statistics.median(b - a for a, b in zip(run, run[1:])):.2f})"
                          if len(run) > 1 else "1" for run in runs)
        lines.append(f"| {r['name']} | {len(times)} | {len(times) - len(far)} | {len(far)} | {cells or '-'} |")
    flagged = warned([r["path"] for r in recordings])
    warned_names = [r["name"] for r in recordings if r["path"] in flagged]
    lines += ["", f"Recordings whose default summary (no wear location stated) warns `steps-below-threshold`: "
              f"{len(warned_names)} of {len(recordings)} ({', '.join(warned_names) or 'none'})."]
    # A threshold for waist wear, chosen for each participant on the other
    # two (lowest MAPE over their bouts) and scored on the held-out one.
    def mape_of(threshold, keep):
        return statistics.mean(abs(percent(found[threshold, r["name"]][0][i], b["contacts"]))
                               for r, i, b in bouts(keep))

    lines += ["", "A threshold for waist wear, left one participant out (chosen on the other two by MAPE over "
              "bouts):", "",
              "| held-out participant | threshold chosen | bouts | reference | EnergyLab held-out | MAPE % held-out "
              "| MAPE % defaults | steps held-out, whole recordings | defaults, whole recordings |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for participant in sorted({r["cohort"] + r["participant"] for r in recordings}):
        def held(r):
            return r["cohort"] + r["participant"] == participant
        chosen = min(THRESHOLDS[1:], key=lambda t: (mape_of(t, lambda r: not held(r)), t))
        mine = bouts(held)
        n = sum(found[chosen, r["name"]][0][i] for r, i, _ in mine)
        whole = sum(found[chosen, r["name"]][1] for r in recordings if held(r))
        whole_defaults = sum(found[None, r["name"]][1] for r in recordings if held(r))
        lines.append(f"| {participant} | {chosen} g | {len(mine)} | {sum(b['contacts'] for _, _, b in mine)} "
                     f"| {n} | {mape_of(chosen, held):.1f} | {mape_of(None, held):.1f} | {whole} | {whole_defaults} |")
    # The same recordings sampled slower: the counts must not depend on the
    # rate (ActiGraph devices record at 30 Hz).
    lines += ["", "The same recordings resampled (shipped parameters; steps inside the bouts, and in the "
              "whole recordings; recordings whose summary warns `steps-below-threshold`):", "",
              "| rate | reference | EnergyLab in the bouts | EnergyLab whole recordings | warn |",
              "| ---: | ---: | ---: | ---: | ---: |"]
    reference = sum(b["contacts"] for _, _, b in bouts(lambda r: True))
    lines.append(f"| 100 Hz (as recorded) | {reference} | {sum(sum(found[None, r['name']][0]) for r in recordings)} "
                 f"| {sum(found[None, r['name']][1] for r in recordings)} | {len(flagged)} |")
    for rate in (50, 30):
        inside = whole = 0
        copies = []
        for r in recordings:
            copies.append(resampled(r["path"], rate))
            epochs = step_epochs(copies[-1], "--time-format", "unix-s", "--unit", "m/s2")
            inside += sum(sum(n for t, n in epochs if b["start"] - TOLERANCE_S <= t <= b["end"] + TOLERANCE_S)
                          for b in r["bouts"])
            whole += sum(n for _, n in epochs)
        warns = len(warned(copies, "--time-format", "unix-s", "--unit", "m/s2"))
        lines.append(f"| {rate} Hz | {reference} | {inside} | {whole} | {warns} |")
    slow = [(r, i, b) for r, i, b in bouts(lambda r: True) if b["speed"] < 0.7]
    if slow:
        reference = sum(b["contacts"] for _, _, b in slow)
        n = sum(found[None, r["name"]][0][i] for r, i, _ in slow)
        lines += ["", f"Bouts slower than 0.7 m/s: {len(slow)}, {reference} reference contacts, "
                  f"EnergyLab (defaults) {n} ({percent(n, reference):+.1f} %)."]
    write_results(OUT, lines)


if __name__ == "__main__":
    main()
