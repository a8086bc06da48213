#!/usr/bin/env python3
"""Batch benchmark: `energylab batch` with --jobs 1 and --jobs 2 in the same
run, each into a fresh database, on two generated studies:

- tracks: 400 GPX tracks of 25 minutes each (1 fix/s), the study of
  issue #39 (goal: --jobs 2 at least 1.8 times as fast as --jobs 1);
- mixed: 1,000 GPX tracks of 5-24 minutes and 4 accelerometer recordings
  (3 h at 100 Hz).

Usage: python3 Benchmarks/batch.py [tracks] [mixed]   (from the repository
root; both when none is named; NO_BUILD=1 skips `swift build`; ENERGYLAB_BIN
runs another binary; REPEATS=3: the runs alternate --jobs 1 and --jobs 2,
REPEATS rounds, and each
keeps its best; the studies are generated once into Benchmarks/work/;
results go to Benchmarks/results/batch.md)
"""
import datetime, os, platform, resource, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "Benchmarks", "work")
BIN = os.environ.get("ENERGYLAB_BIN", os.path.join(ROOT, ".build", "release", "energylab"))
REPEATS = int(os.environ.get("REPEATS", "3"))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


STUDIES = {
    "tracks": {
        "folder": os.path.join(WORK, "batch-tracks-400"),
        "files": 400,
        "describe": "400 GPX tracks of 25 min (1 fix/s)",
    },
    "mixed": {
        "folder": os.path.join(WORK, "batch-study"),
        "files": 1004,
        "describe": "1,000 GPX tracks (5-24 min, 1 fix/s) and 4 accelerometer recordings (3 h at 100 Hz)",
    },
}


def generate(name):
    study = STUDIES[name]["folder"]
    marker = os.path.join(study, ".complete")
    if os.path.exists(marker):
        return
    os.makedirs(os.path.join(study, "tracks"), exist_ok=True)
    if name == "tracks":
        for k in range(400):
            sh([BIN, "track", "synth", "-o", os.path.join(study, "tracks", f"walk-{k:03d}.gpx"),
                "--duration", "25min", "--noise", "1", "--seed", str(k + 1)], stdout=subprocess.DEVNULL)
    else:
        os.makedirs(os.path.join(study, "recordings"), exist_ok=True)
        for k in range(1000):
            sh([BIN, "track", "synth", "-o", os.path.join(study, "tracks", f"walk-{k:04d}.gpx"),
                "--duration", f"{k % 20 + 5}min", "--noise", "1", "--seed", str(k + 1)], stdout=subprocess.DEVNULL)
        for k in range(4):
            sh([BIN, "accel", "synth", "-o", os.path.join(study, "recordings", f"rec-{k}.csv"),
                "--leg", "still,100min", "--leg", "walk,20min", "--leg", "still,60min", "--rate", "100",
                "--seed", str(k + 1)], stdout=subprocess.DEVNULL)
    open(marker, "w").close()


def once(name, jobs):
    """Wall and CPU time (user + system) of one batch into a fresh database."""
    db = os.path.join(WORK, f"batch-{name}-jobs{jobs}.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    sh([BIN, "batch", STUDIES[name]["folder"], "--db", db, "--jobs", str(jobs), "--quiet"],
       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, db


def measure(name):
    best = {1: None, 2: None}
    dbs = {}
    for _ in range(REPEATS):
        for jobs in (1, 2):
            wall, cpu, dbs[jobs] = once(name, jobs)
            if best[jobs] is None or wall < best[jobs][0]:
                best[jobs] = (wall, cpu)
    same = subprocess.run([BIN, "db", "compare", dbs[1], dbs[2]], capture_output=True).returncode == 0
    return best, same


def main():
    os.chdir(ROOT)
    names = [a for a in sys.argv[1:] if a in STUDIES] or list(STUDIES)
    if os.environ.get("NO_BUILD") != "1":
        sh(["swift", "build", "-c", "release", "--product", "energylab"])
    cpu_name = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines = []
    for name in names:
        generate(name)
        study = STUDIES[name]
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(study["folder"]) for f in fs) / 1e6
        best, same = measure(name)
        (one, cpu1), (two, cpu2) = best[1], best[2]
        n = study["files"]
        lines += [
            f"Study `{name}`: {study['describe']}, {size:.0f} MB; `energylab batch` into a fresh database; "
            f"--jobs 1 and --jobs 2 alternating, best of {REPEATS}.", "",
            "| jobs | wall time (s) | CPU time (s) | files/s | speed-up |", "| ---: | ---: | ---: | ---: | ---: |",
            f"| 1 | {one:.2f} | {cpu1:.2f} | {n / one:.0f} | 1.00x |",
            f"| 2 | {two:.2f} | {cpu2:.2f} | {n / two:.0f} | {one / two:.2f}x |", "",
            f"Same stored results with 1 and 2 jobs (`db compare`): {'yes' if same else 'NO'}. "
            f"At least 1.8x with 2 jobs: {'yes' if one / two >= 1.8 else 'no'}.", "",
        ]
    lines += [
        f"Machine: {platform.system()} {platform.release()} {platform.machine()}, {os.cpu_count()} cores, {cpu_name}. "
        f"Run {datetime.date.today().isoformat()}.",
    ]
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "Benchmarks", "results", "batch.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
