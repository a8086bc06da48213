#!/usr/bin/env python3
"""Batch benchmark: `energylab batch` over one study folder of 1,000 small GPX
tracks and 4 accelerometer recordings, with --jobs 1 and --jobs 2 in the same
run; reports the speed-up (goal: at least 1.8x on 2 cores).

Usage: python3 Benchmarks/batch.py   (from the repository root; NO_BUILD=1 skips
`swift build`; REPEATS=3; the study is generated once into Benchmarks/work/batch-study/;
results go to Benchmarks/results/batch.md)
"""
import os, platform, subprocess, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "Benchmarks", "work")
STUDY = os.path.join(WORK, "batch-study")
BIN = os.path.join(ROOT, ".build", "release", "energylab")
REPEATS = int(os.environ.get("REPEATS", "3"))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def generate():
    marker = os.path.join(STUDY, ".complete")
    if os.path.exists(marker):
        return
    os.makedirs(os.path.join(STUDY, "tracks"), exist_ok=True)
    os.makedirs(os.path.join(STUDY, "recordings"), exist_ok=True)
    for k in range(1000):
        sh([BIN, "track", "synth", "-o", os.path.join(STUDY, "tracks", f"walk-{k:04d}.gpx"),
            "--duration", f"{k % 20 + 5}min", "--noise", "1", "--seed", str(k + 1)], stdout=subprocess.DEVNULL)
    for k in range(4):
        sh([BIN, "accel", "synth", "-o", os.path.join(STUDY, "recordings", f"rec-{k}.csv"),
            "--leg", "still,100min", "--leg", "walk,20min", "--leg", "still,60min", "--rate", "100",
            "--seed", str(k + 1)], stdout=subprocess.DEVNULL)
    open(marker, "w").close()


def measure(jobs):
    best = None
    db = os.path.join(WORK, f"batch-jobs{jobs}.sqlite")
    for _ in range(REPEATS):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        t = time.perf_counter()
        sh([BIN, "batch", STUDY, "--db", db, "--jobs", str(jobs), "--quiet"], stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - t
        best = elapsed if best is None else min(best, elapsed)
    return best, db


def main():
    os.chdir(ROOT)
    if os.environ.get("NO_BUILD") != "1":
        sh(["swift", "build", "-c", "release", "--product", "energylab"])
    generate()
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(STUDY) for f in fs) / 1e6
    one, db1 = measure(1)
    two, db2 = measure(2)
    same = subprocess.run([BIN, "db", "compare", db1, db2], capture_output=True, text=True).returncode == 0
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    text = "\n".join([
        f"Study: 1,000 GPX tracks (5-24 min, 1 fix/s) and 4 accelerometer recordings (3 h at 100 Hz), "
        f"{size:.0f} MB; `energylab batch` into a fresh database; best of {REPEATS}.", "",
        "| jobs | wall time (s) | files/s | speed-up |", "| ---: | ---: | ---: | ---: |",
        f"| 1 | {one:.2f} | {1004 / one:.0f} | 1.00x |",
        f"| 2 | {two:.2f} | {1004 / two:.0f} | {one / two:.2f}x |", "",
        f"Same stored results with 1 and 2 jobs (`db compare`): {'yes' if same else 'NO'}. "
        f"Goal: at least 1.8x with 2 jobs: {'met' if one / two >= 1.8 else 'not met'}.", "",
        f"Machine: {platform.system()} {platform.release()} {platform.machine()}, {os.cpu_count()} cores, {cpu}.",
    ]) + "\n"
    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "Benchmarks", "results", "batch.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
