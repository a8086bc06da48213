"""Oracle for crouter-2010-refined (Crouter et al. 2010, Med Sci Sports Exerc 42(5):1029-1037), written from the
published rule: counts per 10 s c (vertical axis, ActiGraph at the hip); CV = SD/mean x 100 of each of the six
windows of six consecutive 10 s epochs holding the epoch (SD with n - 1), the lowest taken; MET = 1 if c <= 8,
2.294275 exp(0.00084679 c) if CV <= 10, else 0.749395 + 0.716431 ln c - 0.179874 ln^2 c + 0.033173 ln^3 c;
kcal/min = MET x 3.5 x kg / 1000 x 5.

Writes Tests/PipelineTests/Fixtures/crouter-2010/counts-10s.csv (an ActiLife-style export of 10 s epochs: sitting,
steady walking, intermittent play, running, sitting; seeded) and prints the energy at 70 kg, the MET of chosen
epochs and the count of epochs on each regression. Standard library only: python3 scripts/oracles/crouter-2010.py"""
import math
import random
import statistics

rng = random.Random(2010)
counts = []
counts += [rng.choice([0, 0, 0, 2, 5, 8]) for _ in range(18)]        # 3 min sitting
counts += [500 + rng.randint(-20, 20) for _ in range(30)]              # 5 min steady walking
counts += [rng.choice([10, 60, 150, 400, 700, 30]) for _ in range(30)]  # 5 min intermittent play
counts += [1500 + rng.randint(-50, 50) for _ in range(18)]             # 3 min running
counts += [rng.choice([0, 0, 3, 9, 12]) for _ in range(24)]            # 4 min sitting, fidgets

n = len(counts)
cvs = []
for i in range(n):
    best = None
    for s in range(max(0, i - 5), min(i, n - 6) + 1):
        w = counts[s:s + 6]
        m = sum(w) / 6
        cv = statistics.stdev(w) / m * 100 if m > 0 else 0.0
        best = cv if best is None else min(best, cv)
    cvs.append(best)


def met(c, cv):
    if c <= 8:
        return 1.0
    if cv <= 10:
        return 2.294275 * math.exp(0.00084679 * c)
    lc = math.log(c)
    return 0.749395 + 0.716431 * lc - 0.179874 * lc ** 2 + 0.033173 * lc ** 3


mets = [met(c, cv) for c, cv in zip(counts, cvs)]
kcal = sum(m * 3.5 * 70 / 1000 * 5 / 6 for m in mets)
walk = sum(1 for c, cv in zip(counts, cvs) if c > 8 and cv <= 10)
life = sum(1 for c, cv in zip(counts, cvs) if c > 8 and cv > 10)
print(f"{n} epochs; {walk} on the walking/running regression, {life} on the intermittent one")
print(f"energy at 70 kg: {kcal:.6f} kcal")
for i in (0, 20, 40, 60, 90, 110):
    print(f"epoch {i}: c={counts[i]} cv={cvs[i]:.4f} MET={mets[i]:.6f}")

with open("Tests/PipelineTests/Fixtures/crouter-2010/counts-10s.csv", "w") as f:
    f.write("------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v3.2.1 date format M/d/yyyy "
            "Filter Normal -----------\n")
    f.write("Serial Number: SYNTHETIC0010\nStart Time 10:00:00\nStart Date 3/2/2026\nEpoch Period (hh:mm:ss) 00:00:10\n"
            "Download Time 12:00:00\nDownload Date 3/2/2026\nCurrent Memory Address: 0\n"
            "Current Battery Voltage: 4.10     Mode = 61\n--------------------------------------------------\n")
    f.write("Date,Time,Axis1,Axis2,Axis3,Steps,Lux,Inclinometer Off,Inclinometer Standing,Inclinometer Sitting,"
            "Inclinometer Lying,Vector Magnitude\n")
    for i, c in enumerate(counts):
        s = 10 * i
        f.write(f"3/2/2026,{10 + s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d},{c},0,0,0,0,0,0,0,0,{c:.2f}\n")
