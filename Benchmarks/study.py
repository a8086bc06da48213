#!/usr/bin/env python3
"""Study benchmark: the whole per-file pipeline of `energylab batch` over
generated studies of 50, 100 and 200 week-long recordings, its cost per
recording, how it grows with N, where the time goes, and what 100,000
recordings would take.

Data: `Benchmarks/study_gen.py` writes the largest study once (real AX3
blocks; varied wear, non-wear, rate and length; a few corrupt, truncated
and broken files) into STUDY_WORK/all; the study of N is its first N
recordings, hard-linked into STUDY_WORK/nN (no second copy on disk).

Each study runs as a job array would: WORKERS processes at once (default
the number of cores), worker k `batch nN --shard k/WORKERS --jobs 1
--db shard-k.sqlite FLAGS` (FLAGS default `--calibrate --non-wear`: read,
calibrate, non-wear, epochs, steps, energy, days, store), each measured by
os.wait4 (user + system CPU seconds, peak resident set); then `db merge`
of the shards. Per recording: the workers' CPU seconds over the
recordings processed; the store's bytes over the recordings stored.

Where the time goes: `perf record` of one worker on one recording of the
study, the share of CPU by symbol (top 15) and by library.

Extrapolation: core-hours for 100,000 recordings = CPU s per recording x
100,000 / 3,600, with the assumptions printed (the same mix of lengths,
rates and wear as the generated study; one week at 100 Hz is 60.5 M
samples; every file read from local disk, its page cache cold or warm as
here; the store's bytes grow linearly).

Usage: python3 Benchmarks/study.py [N ...]   (from the repository root;
default 50 100 200)
  NO_BUILD=1    never run `swift build -c release`
  STUDY_WORK    where the studies go (default /tmp/energylab-study; about
                0.24 GB per recording of the largest N)
  WORKERS       processes at once (default: cores)
  FLAGS         batch options (default "--calibrate --non-wear")
  SCALE         shorten the recordings (a quick trial, never published)
  GENERATED     recordings generated at most (default: the largest N); a
                larger study repeats them as hard links under further
                participant folders (same bytes, other paths, so other
                runs), for a disk that cannot hold 0.24 GB x N
Writes Benchmarks/results/study.md.
"""
import json, os, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, ROOT, build, machine, publish  # noqa: E402
from study_gen import generate  # noqa: E402

WORK = os.environ.get("STUDY_WORK", "/tmp/energylab-study")
WORKERS = int(os.environ.get("WORKERS", str(os.cpu_count() or 1)))
FLAGS = os.environ.get("FLAGS", "--calibrate --non-wear").split()
SCALE = float(os.environ.get("SCALE", "1"))
GENERATED = int(os.environ["GENERATED"]) if os.environ.get("GENERATED") else None
GOAL_CORE_HOURS = 200.0
GOAL_RSS_MB = 100.0
GOAL_STORE_MB = 1.0


def repeated(recordings, n):
    """n recordings: the generated ones, then the same again as hard links
    under further participant folders (P00100/wrist.cwa is P00000's)."""
    out = []
    for i in range(n):
        r = dict(recordings[i % len(recordings)])
        r["source"] = r["file"]
        if i >= len(recordings):
            r["file"] = f"P{i:05d}/" + r["file"].split("/", 1)[1]
        out.append(r)
    return out


def study(n, largest):
    """The study of the first n recordings of the generated one."""
    everything = os.path.join(WORK, "all")
    plan_file = os.path.join(everything, "study-plan.json")
    wanted = min(largest, GENERATED or largest)
    plan = None
    if os.path.exists(plan_file):
        with open(plan_file) as f:
            plan = json.load(f)
        if len(plan["recordings"]) < wanted or plan.get("scale", 1.0) != SCALE:
            plan = None
    if plan is None:
        shutil.rmtree(everything, ignore_errors=True)
        started = time.perf_counter()
        generate(everything, wanted, seed=1, scale=SCALE)
        print(f"generated {wanted} recordings in {time.perf_counter() - started:.0f} s", flush=True)
        with open(plan_file) as f:
            plan = json.load(f)
    recordings = repeated(plan["recordings"][:wanted], n)
    folder = os.path.join(WORK, f"n{n}")
    shutil.rmtree(folder, ignore_errors=True)
    for r in recordings:
        target = os.path.join(folder, r["file"])
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.link(os.path.join(everything, r["source"]), target)
    return folder, recordings


def worker(cmd, log):
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)


def run(n, largest):
    folder, recordings = study(n, largest)
    out = os.path.join(WORK, f"run-n{n}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    running = {}
    for k in range(1, WORKERS + 1):
        log = open(os.path.join(out, f"worker-{k}.log"), "w")
        cmd = [BIN, "batch", folder, "--db", os.path.join(out, f"shard-{k}.sqlite"),
               "--shard", f"{k}/{WORKERS}", "--jobs", "1", *FLAGS]
        running[worker(cmd, log).pid] = (k, log)
    workers = []
    while running:
        pid, status, usage = os.wait4(-1, 0)
        if pid not in running:
            continue
        k, log = running.pop(pid)
        log.close()
        workers.append({"k": k, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
                        "status": os.waitstatus_to_exitcode(status)})
    wall = time.perf_counter() - started
    merged = os.path.join(out, "study.sqlite")
    subprocess.run([BIN, "db", "merge", merged, *[os.path.join(out, f"shard-{k}.sqlite") for k in range(1, WORKERS + 1)]],
                   check=True, stdout=subprocess.DEVNULL)
    info = subprocess.run([BIN, "db", "info", "--db", merged, "--format", "json"], capture_output=True, text=True,
                          check=True)
    tables = {row["table"]: row["rows"] for row in json.loads(info.stdout)}
    runs = subprocess.run([BIN, "db", "export", "--db", merged, "--table", "runs", "--format", "json"],
                          capture_output=True, text=True, check=True)
    commands = [r["command"] for r in json.loads(runs.stdout)]
    stored = sum(c.startswith("batch accelerometer ") for c in commands)
    failed = sum(c.startswith("batch failed ") for c in commands)
    # Non-wear found against the generator's plan (its spans merged).
    results = subprocess.run([BIN, "db", "export", "--db", merged, "--table", "results", "--format", "json"],
                             capture_output=True, text=True, check=True)
    found = {r["subject"]: r["value"] for r in json.loads(results.stdout) if r["metric"] == "non_wear" and r["unit"] == "h"}
    gaps = []
    for r in recordings:
        subject = os.path.realpath(os.path.join(folder, r["file"]))
        if subject not in found or found[subject] is None:
            continue
        merged_spans = []
        for a, b in sorted(r["non_wear_s"]):
            if merged_spans and a <= merged_spans[-1][1]:
                merged_spans[-1][1] = max(merged_spans[-1][1], b)
            else:
                merged_spans.append([a, b])
        planned = sum(b - a for a, b in merged_spans) / 3600
        if r["damage"] == "truncated":
            continue
        gaps.append(abs(found[subject] - planned))
    # The store without its journal: merged runs only.
    subprocess.run(["sqlite3", merged, "VACUUM"], check=False)
    size = os.path.getsize(merged)
    cpu = sum(w["cpu_s"] for w in workers)
    return {
        "n": n, "load": (load + os.getloadavg()[0]) / 2, "wall_s": wall, "cpu_s": cpu, "cpu_per_recording_s": cpu / n,
        "rss_max_mb": max(w["rss_mb"] for w in workers), "workers": sorted(workers, key=lambda w: w["k"]),
        "stored": stored, "failed": failed, "store_bytes": size, "store_per_recording_mb": size / max(stored, 1) / 1e6,
        "tables": tables,
        "gb": sum(os.path.getsize(os.path.join(folder, r["file"])) for r in recordings) / 1e9,
        "expected_failures": sum(r["damage"] == "header" for r in recordings),
        "non_wear_gap_h": (sum(gaps) / len(gaps)) if gaps else float("nan"), "non_wear_checked": len(gaps),
    }


def profile(largest):
    """perf's share of CPU by symbol and by library for one worker on one
    whole-week recording of the study."""
    if shutil.which("perf") is None:
        return ["perf is not installed (apt-get install linux-perf): no profile."]
    everything = os.path.join(WORK, "all")
    with open(os.path.join(everything, "study-plan.json")) as f:
        plan = json.load(f)
    chosen = next(r for r in plan["recordings"] if r["damage"] is None and r["days"] == 7 * SCALE and r["rate_hz"] == 100)
    one = os.path.join(WORK, "profile")
    shutil.rmtree(one, ignore_errors=True)
    os.makedirs(os.path.join(one, "study", "P"))
    os.link(os.path.join(everything, chosen["file"]), os.path.join(one, "study", "P", "wrist.cwa"))
    data = os.path.join(one, "perf.data")
    subprocess.run(["perf", "record", "-F", "499", "-g", "-o", data, "--", BIN, "batch", os.path.join(one, "study"),
                    "--db", os.path.join(one, "p.sqlite"), "--jobs", "1", "--quiet", *FLAGS],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lines = [f"Profile of one worker on `{chosen['file']}` (7 days, 100 Hz; `perf record -F 499`), share of samples:", ""]
    for sort, title, top in (("dso", "library", 6), ("sym", "symbol", 15)):
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", sort,
                                 "--percent-limit", "0.5", "-g", "none"], capture_output=True, text=True)
        rows = []
        for line in report.stdout.splitlines():
            line = line.strip()
            if not line or line.startswith("#") or "%" not in line.split()[0]:
                continue
            share, name = line.split(None, 1)
            rows.append((share, name.replace("[.] ", "").replace("[k] ", "").strip()))
        rows = rows[:top]
        if sort == "sym" and shutil.which("swift"):
            # Swift symbols demangled, one per line.
            names = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(n for _, n in rows),
                                   capture_output=True, text=True).stdout.splitlines()
            if len(names) == len(rows):
                rows = [(share, name) for (share, _), name in zip(rows, names)]
        lines += [f"| {title} | share |", "|---|---|"] + [f"| `{name[:110]}` | {share} |" for share, name in rows] + [""]
    return lines


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [50, 100, 200]
    if not os.environ.get("NO_BUILD"):
        build()
    largest = max(sizes)
    results = []
    for n in sorted(sizes):
        r = run(n, largest)
        print(json.dumps({k: v for k, v in r.items() if k != "workers"}), flush=True)
        results.append(r)
        # Each size published as it is done: a long run cut short keeps
        # what it measured.
        report(results, [f"(Studies of {', '.join(str(m) for m in sorted(sizes)[len(results):])} recordings "
                         "still to run when this was written.)"] if len(results) < len(sizes) else [])
    report(results, profile(largest))


def report(results, prof):
    largest = max(r["n"] for r in results)
    per = [r["cpu_per_recording_s"] for r in results]
    mean = sum(per) / len(per)
    core_hours = mean * 100_000 / 3600
    rss = max(r["rss_max_mb"] for r in results)
    store = max(r["store_per_recording_mb"] for r in results)
    lines = [
        f"Whole-study cost of `energylab batch {' '.join(FLAGS)}` ({machine()}); {WORKERS} worker processes of "
        f"`--jobs 1`, each a shard as in a Slurm array; generated studies of `Benchmarks/study_gen.py` (seed 1"
        + (f", lengths scaled by {SCALE}: a trial, not a result" if SCALE != 1 else "") + ").",
        "",
        "| recordings | GB | stored | failed (broken header, expected) | wall s | CPU s | CPU s per recording | peak RSS per worker MB | store MB per recording |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['n']} | {r['gb']:.1f} | {r['stored']} | {r['failed']} ({r['expected_failures']}) | {r['wall_s']:.0f} | "
            f"{r['cpu_s']:.0f} | {r['cpu_per_recording_s']:.2f} | {r['rss_max_mb']:.0f} | {r['store_per_recording_mb']:.3f} |")
    if GENERATED and GENERATED < largest:
        lines += [
            "",
            f"Generated: {GENERATED} recordings; the recordings after the first {GENERATED} of a study are hard links "
            f"of them under further participant folders (P{GENERATED:05d}/wrist.cwa is P00000/wrist.cwa, and so on): "
            f"the same bytes at other paths, so other runs of their own (GB counts each path; the disk holds "
            f"{GENERATED} recordings)."]
    lines += [
        "",
        "The machine's load average (1 min; other work shares it) at the start and end of each run, their mean: "
        + ", ".join(f"{r['load']:.1f} for N = {r['n']}" for r in results) + " (CPU seconds are the workers' own; "
        "wall seconds grow with the load).",
    ]
    lines += [
        "",
        "Non-wear found against the generator's plan (its spans merged; truncated files left out): mean |found - "
        "planned| " + ", ".join(f"{r['non_wear_gap_h']:.2f} h over {r['non_wear_checked']}" for r in results) + ".",
        "",
        f"Rows stored for the largest study: " + ", ".join(f"{t} {n}" for t, n in results[-1]["tables"].items() if n),
        "",
        f"Linear in N: CPU s per recording {', '.join(f'{p:.2f}' for p in per)} for N = "
        f"{', '.join(str(r['n']) for r in results)} (spread {100 * (max(per) - min(per)) / mean:.1f} % of the mean).",
        "",
        f"Extrapolated to 100,000 recordings: {mean:.2f} CPU s x 100,000 / 3,600 = **{core_hours:.0f} core-hours** "
        f"(goal at most {GOAL_CORE_HOURS:.0f}); peak resident set per worker {rss:.0f} MB (goal at most "
        f"{GOAL_RSS_MB:.0f}); store {store:.3f} MB per recording (goal at most {GOAL_STORE_MB:.0f}), "
        f"{store * 100_000 / 1e3:.0f} GB for the study.",
        "Assumptions: recordings like the generated ones (mostly 7 days at 100 Hz, some 5-8 days, one in seven at "
        "50 Hz, the same share of non-wear); read from local disk; one worker per core with no other load; the "
        "store's rows per recording as here (minutes, days, totals; no per-sample data).",
        "",
    ] + prof
    if SCALE == 1:
        publish("study", "\n".join(lines) + "\n")
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
