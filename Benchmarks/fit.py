#!/usr/bin/env python3
"""FIT reading benchmark: `energylab track summary` against fitdecode reading
every message, side by side in one run on the same files.

Data: the real activities of the shared FIT dataset (FIT_DATASET, default
/work/shared/datasets/fit-activities): its largest activity
(activity-large-fenxi2-multisport.fit, 1.0 MB, 24,239 records), and a 1 GB
chained file built in /tmp by concatenating whole activity files of the
dataset, in turn, until it holds 1e9 bytes (chained FIT files are legal:
each keeps its header and CRC).

fitdecode reads about 0.1-0.2 MB/s here, so reading the 1 GB file takes it
hours; by default it reads a prefix of the chained file made of whole files
(PREFIX_MB, default 8), and EnergyLab reads both that prefix (the ratio on
the same data) and the whole 1 GB file (its time and memory). FITDECODE_FULL=1
times fitdecode on the whole 1 GB file as well (once).

Usage: python3 Benchmarks/fit.py   (from the repository root; NO_BUILD=1
skips `swift build`; REPEATS=3; installs fitdecode into the throwaway
Benchmarks/.venv; writes Benchmarks/results/fit.md and the table between
the fit.py markers of BENCHMARKS.md)
"""
import json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "Benchmarks", ".venv")
BIN = os.environ.get("ENERGYLAB_BIN", os.path.join(ROOT, ".build", "release", "energylab"))
DATASET = os.environ.get("FIT_DATASET", "/work/shared/datasets/fit-activities")
WORK = os.environ.get("FIT_WORK", "/tmp/energylab-fit-bench")
REPEATS = int(os.environ.get("REPEATS", "3"))
PREFIX_MB = float(os.environ.get("PREFIX_MB", "8"))
TARGET_BYTES = int(os.environ.get("CHAINED_BYTES", str(10**9)))
LARGE = "activity-large-fenxi2-multisport.fit"
# The activities of the dataset (README table) that every reader reads whole.
ACTIVITIES = [
    "Edge810-Vector-2013-08-16-15-35-10.fit", "garmin-edge-500-activity.fit", "null_compressed_speed_dist.fit",
    "sample-activity-indoor-trainer.fit", "sample-activity.fit", "activity-small-fenix2-run.fit",
    "2013-02-06-12-11-14.fit", LARGE, "garmin-fenix-5-run.fit", "garmin-fenix-5-walk.fit",
    "garmin-fenix-5-bike.fit", "garmin-edge-820-bike.fit", "coros-pace-2-cycling-misaligned-fields.fit",
]

# Every frame of every file, as fitdecode yields them; data messages and
# records counted so that none is skipped.
FITDECODE_SCRIPT = r"""
import sys, fitdecode
messages = records = 0
for path in sys.argv[1:]:
    with fitdecode.FitReader(path) as reader:
        for frame in reader:
            if frame.frame_type == fitdecode.FIT_FRAME_DATA:
                messages += 1
                if frame.global_mesg_num == 20:
                    records += 1
print(messages, records)
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def measure(cmd, repeats=REPEATS):
    """Best wall time of `repeats` runs, the largest peak RSS (MB) and the
    last run's output."""
    return common.measure(cmd, repeats)


def chained(path, target_bytes, files):
    """Concatenates whole `files`, in turn, into `path` until it holds at
    least `target_bytes`; returns how many files it chained."""
    count = 0
    if os.path.exists(path) and os.path.getsize(path) >= target_bytes and os.path.exists(path + ".count"):
        with open(path + ".count") as f:
            return int(f.read())
    blobs = []
    for name in files:
        with open(os.path.join(DATASET, name), "rb") as f:
            blobs.append(f.read())
    size = 0
    with open(path + ".tmp", "wb") as out:
        while size < target_bytes:
            blob = blobs[count % len(blobs)]
            out.write(blob)
            size += len(blob)
            count += 1
    os.replace(path + ".tmp", path)
    with open(path + ".count", "w") as f:
        f.write(str(count))
    return count


def main():
    os.chdir(ROOT)
    if os.environ.get("NO_BUILD") != "1":
        sh(["swift", "build", "-c", "release", "--product", "energylab"])
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        sh([sys.executable, "-m", "venv", VENV])
    if subprocess.run([py, "-c", "import fitdecode"], capture_output=True).returncode != 0:
        sh([py, "-m", "pip", "install", "-q", "fitdecode"])
    os.makedirs(WORK, exist_ok=True)
    script = os.path.join(WORK, "fitdecode_read.py")
    with open(script, "w") as f:
        f.write(FITDECODE_SCRIPT)
    large = os.path.join(DATASET, LARGE)
    big = os.path.join(WORK, "chained-1GB.fit")
    chained_files = chained(big, TARGET_BYTES, ACTIVITIES)
    prefix = os.path.join(WORK, "chained-prefix.fit")
    prefix_files = chained(prefix, int(PREFIX_MB * 1e6), ACTIVITIES)

    def energylab(path):
        return [BIN, "track", "summary", path, "--format", "json", "--quiet"]

    rows = []
    for label, path, files in [
        (f"{LARGE} (largest activity)", large, 1),
        (f"chained prefix: {prefix_files} whole files", prefix, prefix_files),
    ]:
        ours, ours_rss, out = measure(energylab(path))
        points = sum(r["points"] for r in json.loads(out))
        theirs, theirs_rss, counted = measure([py, script, path])
        messages, records = map(int, counted.split())
        size = os.path.getsize(path) / 1e6
        rows.append((label, size, records, ours, ours_rss, theirs, theirs_rss, theirs / ours, False))
        print(rows[-1], f"energylab points {points}", flush=True)
    # The whole 1 GB chained file: EnergyLab best of REPEATS; fitdecode
    # once when asked, else its prefix rate scaled to the size.
    ours, ours_rss, out = measure(energylab(big))
    size = os.path.getsize(big) / 1e6
    prefix_rate = rows[-1][5] / rows[-1][1]  # fitdecode s per MB on the prefix
    prefix_records_per_mb = rows[-1][2] / rows[-1][1]
    if os.environ.get("FITDECODE_FULL") == "1":
        theirs, theirs_rss, counted = measure([py, script, big], repeats=1)
        records = int(counted.split()[1])
        rows.append((f"chained {size / 1e3:.1f} GB: {chained_files} whole files", size, records, ours, ours_rss, theirs,
                     theirs_rss, theirs / ours, False))
    else:
        theirs = prefix_rate * size
        rows.append((f"chained {size / 1e3:.1f} GB: {chained_files} whole files", size, round(prefix_records_per_mb * size),
                     ours, ours_rss, theirs, rows[-1][6], theirs / ours, True))
    machine = common.machine()
    fitdecode_version = subprocess.run([py, "-c", "import fitdecode; print(fitdecode.__version__)"],
                                       capture_output=True, text=True).stdout.strip()
    python_version = subprocess.run([py, "--version"], capture_output=True, text=True).stdout.strip()
    version = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip().split(" (")[0]
    out = [f"| data | MB | records | energylab track summary (s) | peak RSS (MB) | fitdecode, every message (s) "
           f"| peak RSS (MB) | fitdecode / EnergyLab |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for label, size, records, ours, ours_rss, theirs, theirs_rss, ratio, estimated in rows:
        mark = " (est.)" if estimated else ""
        out.append(f"| {label} | {size:,.1f} | {records:,}{mark} | {ours:.2f} | {ours_rss:.0f} "
                   f"| {theirs:,.1f}{mark} | {theirs_rss:.0f}{mark} | {ratio:,.0f}x{mark} |")
    notes = (f"Best of {REPEATS} (fitdecode on the whole 1 GB file: once, when FITDECODE_FULL=1; "
             "\"est.\" marks fitdecode's time on the prefix scaled to the size, and the records "
             "likewise). Machine: "
             f"{machine}. {version}; fitdecode {fitdecode_version} ({python_version}). "
             f"Data: {DATASET}.")
    text = "\n".join(out) + "\n\n" + notes + "\n"
    common.publish("fit", text)


if __name__ == "__main__":
    main()
