"""Pieces the validation scripts share: the EnergyLab binary, throwaway
virtual environments, source distributions from PyPI, 0.1 s step epochs
and the results file."""
import csv, datetime, glob, json, os, platform, re, subprocess, sys, tarfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("ENERGYLAB_BIN", os.path.join(ROOT, ".build", "release", "energylab"))


def build():
    """The release binary, built when missing."""
    if not os.path.exists(BIN):
        subprocess.run(["swift", "build", "-c", "release", "--product", "energylab"], cwd=ROOT, check=True)


def venv(name, packages):
    """Python of the throwaway environment Benchmarks/<name>, created with
    `packages` the first time."""
    folder = os.path.join(ROOT, "Benchmarks", name)
    py = os.path.join(folder, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", folder], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", *packages], check=True)
    return py


def sdist_members(py, package, version, prefix, target):
    """Extracts the files under `prefix` of a PyPI source distribution into
    `target` (the prefix removed)."""
    folder = os.path.join(os.path.dirname(target), "sdist")
    subprocess.run([py, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                    f"{package}=={version}", "-d", folder], check=True)
    archive = glob.glob(os.path.join(folder, f"{package}-{version}.tar.gz"))[0]
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(prefix) and m.isfile()]
        for m in members:
            m.name = m.name[len(prefix):]
        tar.extractall(target, members=members, filter="data")


def step_epochs(path, *flags):
    """(epoch start in s since 1970, steps) of EnergyLab's 0.1 s epochs."""
    out = subprocess.run([BIN, "accel", "epochs", path, "--epoch", "0.1s", "--format", "csv", *flags],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"energylab failed on {path}: {out.stderr[:2000]}")
    return [(datetime.datetime.fromisoformat(r["start"].replace("Z", "+00:00")).timestamp(), int(r["steps"] or 0))
            for r in csv.DictReader(out.stdout.splitlines())]


def summaries(paths, *flags):
    """`energylab accel summary` of the recordings in one run: its JSON
    rows, in the order of `paths`."""
    out = subprocess.run([BIN, "accel", "summary", *paths, "--format", "json", "--quiet", *flags],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"energylab failed: {out.stderr[:2000]}")
    return json.loads(out.stdout)


def warns(row, code="steps-below-threshold"):
    """Whether a summary row carries the diagnostic `code`."""
    return any(f"[{code}]" in d for d in row.get("diagnostics", []))


def warned(paths, *flags):
    """The recordings whose summary with its defaults (no wear location
    stated) warns `steps-below-threshold`."""
    return [p for p, r in zip(paths, summaries(paths, *flags)) if warns(r)]


def resample(times, values, rate):
    """(time, [x, y, z]) on a uniform grid at `rate` Hz from the first
    sample, by linear interpolation between the recorded samples: what a
    device sampling at that rate would give (no extra low-pass)."""
    out = []
    k = 0
    t = times[0]
    while t <= times[-1]:
        while times[k + 1] < t:
            k += 1
        span = times[k + 1] - times[k]
        w = (t - times[k]) / span if span > 0 else 0
        out.append((t, [a + w * (b - a) for a, b in zip(values[k], values[k + 1])]))
        t += 1 / rate
    return out


def write_results(path, lines):
    """Writes the Markdown lines to `path` and prints them."""
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    print(text)


def measure(cmd, repeats):
    """Best wall time of `repeats` runs of `cmd`, the largest peak resident
    set (MB, from os.wait4) and the last run's standard output."""
    best, peak, output = None, 0.0, ""
    for _ in range(repeats):
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        output = p.stdout.read().decode()
        _, status, usage = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - t
        if status != 0:
            raise SystemExit(f"failed ({status}): {' '.join(cmd)}")
        best = elapsed if best is None else min(best, elapsed)
        peak = max(peak, usage.ru_maxrss / 1024)
    return best, peak, output


def machine():
    """The operating system, architecture, cores and CPU model."""
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}"


def publish(name, text):
    """Writes Benchmarks/results/<name>.md and the text between the
    `<!-- begin name.py -->` and `<!-- end name.py -->` markers of
    BENCHMARKS.md, and prints it."""
    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "Benchmarks", "results", f"{name}.md"), "w") as f:
        f.write(text)
    bench = os.path.join(ROOT, "BENCHMARKS.md")
    with open(bench) as f:
        doc = f.read()
    pattern = re.compile(rf"(<!-- begin {re.escape(name)}\.py -->\n).*?(<!-- end {re.escape(name)}\.py -->)", re.S)
    if pattern.search(doc):
        with open(bench, "w") as f:
            f.write(pattern.sub(lambda m: m.group(1) + text + m.group(2), doc))
    print(text)
