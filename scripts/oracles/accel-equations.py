"""Oracle for the accelerometer equations applied by `accel energy --model` (Sources/Estimation/AccelEquations.swift),
written from the published equations, reading the files with other programs than EnergyLab's:

- Crouter, Flynn & Bassett 2015 (youth, ActiGraph at the wrist, counts per 5 s): child-METs = 1 at or below 35 (VA)
  or 100 (VM) counts/5 s, else 1.592 + 0.0039 x VA or 1.475 + 0.0025 x VM counts/5 s;
- Freedson et al. 1998: MET = 1.439008 + 0.000795 x vertical cpm; Sasaki et al. 2011: MET = 0.668876 + 0.000863 x VM cpm;
- Hildebrand et al. 2014, adults, ActiGraph hip: VO2 = 6.67 + 0.0554 x ENMO (mg);
- kcal/min = VO2 (mL/kg/min) x kg / 1000 x 5, VO2 = MET x 3.5.

A: point values; B: the shipped 60 s counts file (Datasets/accelerometer/day-counts-60s.csv, read with csv) at 70 kg;
C: the shipped GT3X file read by pygt3x (idle sleep filled, as ActiLife), ENMO per whole UTC minute, at 61 kg.
Run in a throwaway environment: pip install numpy pygt3x; python3 scripts/oracles/accel-equations.py"""
import csv
import numpy as np


def kcal_per_min(vo2, kg):
    return vo2 * kg / 1000 * 5


def crouter(per5, va=True):
    cut, a, b = (35, 1.592, 0.0039) if va else (100, 1.475, 0.0025)
    return 1.0 if per5 <= cut else a + b * per5


print("A: crouter-2015 child-METs and kcal/min at 70 kg")
for per5 in [0, 35, 36, 100, 101, 250, 600]:
    for va in (True, False):
        met = crouter(per5, va)
        print(f"  {'va' if va else 'vm'} {per5:4d} counts/5s: {met:.6f} MET, {kcal_per_min(met * 3.5, 70):.6f} kcal/min")

print("B: day-counts-60s.csv at 70 kg")
lines = open("Datasets/accelerometer/day-counts-60s.csv").read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith("Date,Time"))
rows = list(csv.DictReader(lines[start:]))
freedson = sum(kcal_per_min((1.439008 + 0.000795 * float(r["Axis1"])) * 3.5, 70) for r in rows)
sasaki = sum(kcal_per_min(max(1.0, 0.668876 + 0.000863 * float(r["Vector Magnitude"])) * 3.5, 70) for r in rows)
print(f"  {len(rows)} minutes; freedson-1998 {freedson:.4f} kcal; sasaki-2011-vm3 (never below rest) {sasaki:.4f} kcal")

print("C: actigraph_testfile.gt3x via pygt3x at 61 kg")
from pygt3x.reader import FileReader

with FileReader("Datasets/device-files/actigraph_testfile.gt3x") as reader:
    df = reader.to_pandas()
t = df.index.to_numpy(dtype=float)
xyz = df[["X", "Y", "Z"]].to_numpy()
enmo = np.maximum(0, np.sqrt((xyz ** 2).sum(axis=1)) - 1) * 1000
minute = np.floor(t / 60 + 1e-9)
total = 0.0
for m in np.unique(minute):
    sel = minute == m
    total += kcal_per_min(6.67 + 0.0554 * enmo[sel].mean(), 61) * sel.sum() / 30 / 60
print(f"  {len(t)} samples, {len(np.unique(minute))} minutes; hildebrand-2014-actigraph-hip-adult {total:.4f} kcal")

print("D: actigraph_testfile.gt3x mean ENMO, idle sleep filled (pygt3x, as ActiLife) and left out")
idle = df["IdleSleepMode"].to_numpy().astype(bool)
print(f"  filled: {len(enmo)} samples, {enmo.mean():.6f} mg; gaps: {(~idle).sum()} samples, {enmo[~idle].mean():.6f} mg")
