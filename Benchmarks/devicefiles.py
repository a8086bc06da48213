#!/usr/bin/env python3
"""Device-file benchmark: a 7-day, 100 Hz Axivity CWA file summarised with
auto-calibration and non-wear by EnergyLab and by scikit-digital-health,
with actfast's and scikit-digital-health's reading alone beside them, side
by side in one run on the same file.

Data: `Benchmarks/cwa_week.py` writes the real blocks of the shipped
`ax3_testfile.cwa` (GGIRread's test file, AX3, 100 Hz, 176 s) again and
again, their time stamps, sequence numbers and checksums moved, until they
span 7 days: 59.8 million samples, 255 MB, into /tmp/energylab-cwa-bench/
(CWA_WORK). The recording is a wrist in motion throughout: it has no still
10 s window, so both tools find no still points and leave the data
uncalibrated, and both find no non-wear; each still makes the passes that
look for them.

Commands timed:
- EnergyLab: `energylab accel summary FILE --calibrate --non-wear` (a first
  streaming pass for still points and non-wear windows, then the summary:
  ENMO, MAD, intensity minutes, steps, per-day wear and valid days), and
  the same without the two flags (one pass), and the first with a 1-day
  file of the same blocks (its memory against the week's: flat memory);
- scikit-digital-health: a Pipeline of ReadCwa, CalibrateAccelerometer,
  AccelThresholdWearDetection and ActivityLevelClassification (per-day
  wear, intensity minutes and bouts), and ReadCwa alone;
- actfast: `actfast.read` (reading only).

Peak memory is the resident set of each command's process (os.wait4).

Usage: python3 Benchmarks/devicefiles.py   (from the repository root)
  NO_BUILD=1     never run `swift build -c release`
  REPEATS=3      runs of each EnergyLab and actfast command (best wall time)
  SKDH_REPEATS=1 runs of each scikit-digital-health command
  DEVICE_VENV    throwaway virtual environment (default /tmp/energylab-devicefiles-venv),
                 created with actfast and scikit-digital-health when missing
Writes Benchmarks/results/devicefiles.md and the table between the
devicefiles.py markers of BENCHMARKS.md.
"""
import json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine, measure, publish  # noqa: E402
from cwa_week import make_week  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("ENERGYLAB_BIN", os.path.join(ROOT, ".build", "release", "energylab"))
SOURCE = os.environ.get(
    "CWA_SOURCE", os.path.join(ROOT, "..", "shared", "datasets", "accelerometer-device-files", "ax3_testfile.cwa"))
WORK = os.environ.get("CWA_WORK", "/tmp/energylab-cwa-bench")
VENV = os.environ.get("DEVICE_VENV", "/tmp/energylab-devicefiles-venv")
REPEATS = int(os.environ.get("REPEATS", "3"))
SKDH_REPEATS = int(os.environ.get("SKDH_REPEATS", "1"))
DAYS = float(os.environ.get("DAYS", "7"))

# Each prints one JSON line: samples read and what the methods found.
SKDH_SCRIPT = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
from skdh import Pipeline
from skdh.io import ReadCwa
from skdh.preprocessing import CalibrateAccelerometer, AccelThresholdWearDetection
from skdh.activity import ActivityLevelClassification
path, whole = sys.argv[1], sys.argv[2] == "pipeline"
if not whole:
    r = ReadCwa().predict(file=path)
    print(json.dumps({"samples": int(r["time"].size)}))
    sys.exit()
p = Pipeline()
p.add(ReadCwa())
p.add(CalibrateAccelerometer())
p.add(AccelThresholdWearDetection())
p.add(ActivityLevelClassification())
res = p.run(file=path)
cal = res["CalibrateAccelerometer"]
wear = res["AccelThresholdWearDetection"]["wear"]
days = res["ActivityLevelClassification"]
print(json.dumps({
    "samples": int(res["ReadCwa"]["time"].size),
    # CalibrateAccelerometer returns the identity (offset 0, scale 1) when
    # it finds too few still points, with a warning.
    "calibrated": bool(cal) and bool((cal["offset"] != 0).any() or (cal["scale"] != 1).any()),
    "wear_periods": int(len(wear)),
    "days": int(len(days["Date"])),
}))
"""

ACTFAST_SCRIPT = r"""
import json, sys, actfast
r = actfast.read(sys.argv[1])
print(json.dumps({"samples": int(r["timeseries"]["high_frequency"]["datetime"].size)}))
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def environment():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        sh([sys.executable, "-m", "venv", VENV])
    if subprocess.run([py, "-c", "import actfast, skdh"], capture_output=True).returncode != 0:
        sh([py, "-m", "pip", "install", "-q", "actfast", "scikit-digital-health"])
    return py


def version(py, package):
    code = f"import importlib.metadata as m; print(m.version('{package}'))"
    return subprocess.run([py, "-c", code], capture_output=True, text=True).stdout.strip()


def main():
    os.chdir(ROOT)
    if os.environ.get("NO_BUILD") != "1":
        sh(["swift", "build", "-c", "release", "--product", "energylab"])
    py = environment()
    os.makedirs(WORK, exist_ok=True)
    week = os.path.join(WORK, f"ax3-{DAYS:g}-days.cwa")
    if not os.path.exists(week):
        copies, blocks, period = make_week(SOURCE, week, DAYS)
        print(f"wrote {week}: {copies} copies of {period} s, {blocks} blocks", flush=True)
    # A day of the same blocks: memory that does not grow with the file.
    day = os.path.join(WORK, "ax3-1-days.cwa")
    if not os.path.exists(day):
        make_week(SOURCE, day, 1)
    for name, text in (("skdh_run.py", SKDH_SCRIPT), ("actfast_read.py", ACTFAST_SCRIPT)):
        with open(os.path.join(WORK, name), "w") as f:
            f.write(text)

    def energylab(*flags, path=week):
        return [BIN, "accel", "summary", path, "--format", "json", "--quiet", *flags]

    runs = [
        ("energylab accel summary --calibrate --non-wear", "read, calibrate, non-wear, summary", energylab(
            "--calibrate", "--non-wear"), REPEATS),
        ("energylab accel summary", "read, summary (one pass)", energylab(), REPEATS),
        ("energylab accel summary --calibrate --non-wear, first day only", "the same on 1 day (memory check)",
         energylab("--calibrate", "--non-wear", path=day), REPEATS),
        ("scikit-digital-health Pipeline", "ReadCwa, CalibrateAccelerometer, AccelThresholdWearDetection, "
         "ActivityLevelClassification", [py, os.path.join(WORK, "skdh_run.py"), week, "pipeline"], SKDH_REPEATS),
        ("scikit-digital-health ReadCwa", "read only", [py, os.path.join(WORK, "skdh_run.py"), week, "read"],
         SKDH_REPEATS),
        ("actfast.read", "read only", [py, os.path.join(WORK, "actfast_read.py"), week], REPEATS),
    ]
    rows = []
    for label, work, cmd, repeats in runs:
        seconds, rss, out = measure(cmd, repeats)
        found = json.loads(out)
        if isinstance(found, list):  # EnergyLab's summary rows
            row = found[0]
            found = {"samples": row["samples"], "calibrated": row.get("calibrated"),
                     "still_points": row.get("calibration_still_points"), "non_wear_h": row.get("non_wear_h"),
                     "enmo_mean_mg": row.get("enmo_mean_mg")}
        rows.append((label, work, seconds, rss, found))
        print(label, f"{seconds:.2f} s", f"{rss:.0f} MB", found, flush=True)
    ours = rows[0][2]
    size = os.path.getsize(week) / 1e6
    samples = rows[0][4]["samples"]
    ours_version = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip().split(" (")[0]
    python_version = subprocess.run([py, "--version"], capture_output=True, text=True).stdout.strip()
    out = [
        "| tool | work | best time (s) | peak RSS (MB) | time / EnergyLab with calibration and non-wear | samples |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for label, work, seconds, rss, found in rows:
        out.append(f"| {label} | {work} | {seconds:.2f} | {rss:,.0f} | {seconds / ours:.2f}x | {found['samples']:,} |")
    found = {label: f for label, _, _, _, f in rows}
    e = found[rows[0][0]]
    s = found["scikit-digital-health Pipeline"]
    notes = (
        f"File: {size:.1f} MB, {samples:,} samples at 100 Hz over {DAYS:g} days, the blocks of "
        f"ax3_testfile.cwa repeated by Benchmarks/cwa_week.py. EnergyLab found {e['still_points']} still "
        f"points (calibrated: {str(e['calibrated']).lower()}) and {e['non_wear_h']} h of non-wear; "
        f"scikit-digital-health calibrated: "
        f"{str(s['calibrated']).lower()}, {s['wear_periods']} wear period(s), {s['days']} days. "
        f"Best of {REPEATS} (scikit-digital-health: of {SKDH_REPEATS}). Machine: {machine()}. {ours_version}; "
        f"actfast {version(py, 'actfast')}, scikit-digital-health {version(py, 'scikit-digital-health')}, "
        f"numpy {version(py, 'numpy')} ({python_version})."
    )
    publish("devicefiles", "\n".join(out) + "\n\n" + notes + "\n")


if __name__ == "__main__":
    main()
