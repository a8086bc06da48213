#!/usr/bin/env python3
"""Survey benchmark: `energylab survey summary` against pandas reading the
same export and counting every column, side by side on generated Google
Forms exports (agreement answers, 3 % unanswered).

Usage: python3 Benchmarks/surveys.py   (from the repository root; builds the
release binary when missing, installs pandas into Benchmarks/.venv, writes
Benchmarks/results/surveys.md)
"""
import os, random, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "Benchmarks", "work", "surveys")
VENV = os.path.join(ROOT, "Benchmarks", ".venv")
BIN = os.path.join(ROOT, ".build", "release", "energylab")
SIZES = [(20000, 120), (100000, 200)]
LABELS = ["Strongly disagree", "Disagree", "Neither agree nor disagree", "Agree", "Strongly agree"]
PANDAS = "import sys, pandas as pd\nf = pd.read_csv(sys.argv[1], dtype=str)\nc = {k: f[k].value_counts() for k in f.columns}\n"


def export(respondents, questions):
    path = os.path.join(WORK, f"forms-{respondents}x{questions}.csv")
    if not os.path.exists(path):
        random.seed(respondents * 1000 + questions)
        with open(path, "w") as f:
            f.write("Timestamp," + ",".join(f"Question {k + 1} about the app" for k in range(questions)) + "\n")
            for r in range(respondents):
                row = [f"2024/05/01 10:{r % 60:02d}:00"]
                for _ in range(questions):
                    x = random.random()
                    row.append("" if x < 0.03 else LABELS[int(x * 5) % 5])
                f.write(",".join(row) + "\n")
    return path


def measure(cmd):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"failed: {cmd}")
    return time.perf_counter() - t, usage.ru_maxrss / 1024


def main():
    os.makedirs(WORK, exist_ok=True)
    if not os.path.exists(BIN):
        subprocess.run(["swift", "build", "-c", "release", "--product", "energylab"], cwd=ROOT, check=True)
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", "pandas"], check=True)
    lines = ["| export | tool | time (s) | peak RSS (MB) |", "| --- | --- | ---: | ---: |"]
    for n, q in SIZES:
        path = export(n, q)
        for name, cmd in [("energylab survey summary", [BIN, "survey", "summary", path, "--format", "csv"]),
                          ("pandas read_csv + value_counts", [py, "-c", PANDAS, path])]:
            seconds, mb = measure(cmd)
            lines.append(f"| {n:,} x {q} | {name} | {seconds:.2f} | {mb:.0f} |")
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.join(ROOT, "Benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "Benchmarks", "results", "surveys.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
