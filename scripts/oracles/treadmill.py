"""Oracle for `evaluate measured` on Datasets/treadmill-enmo-vo2/stages.csv, written from the published
equations: ACSM walking (VO2 = 0.1 v + 3.5 mL/kg/min at grade 0, v in m/min) and Hildebrand et al. 2014
adult ActiGraph hip (VO2 = 6.67 + 0.0554 ENMO mg) against the measured VO2 (mL/kg/min); bias and limits
overall (repeated measures, Bland & Altman 2007, stages within participants) and per speed (independent).
Run in a throwaway environment with numpy: python3 scripts/oracles/treadmill.py"""
import csv
import numpy as np

rows = list(csv.DictReader(open("Datasets/treadmill-enmo-vo2/stages.csv")))
Z = 1.96


def num(x):
    return None if x in ("", "NA") else float(x)


def ba2007(ids, d):
    ids = np.array(ids); d = np.array(d); u = list(dict.fromkeys(ids))
    ni = np.array([(ids == i).sum() for i in u]); dm = np.array([d[ids == i].mean() for i in u])
    m, n = len(u), len(d)
    msb = np.sum(ni * (dm - d.mean()) ** 2) / (m - 1)
    msw = sum(np.sum((d[ids == i] - dm[k]) ** 2) for k, i in enumerate(u)) / (n - m)
    lam = (n * n - np.sum(ni ** 2)) / ((m - 1) * n)
    sd = np.sqrt(max(0.0, (msb - msw) / lam) + msw)
    return m, n, d.mean(), d.mean() - Z * sd, d.mean() + Z * sd


for name, predict in [
    ("acsm-walking", lambda r: 0.1 * num(r["speed_kmh"]) * 1000 / 60 + 3.5),
    ("hildebrand-2014-actigraph-hip-adult",
     lambda r: None if num(r["ENMO_mg"]) is None else 6.67 + 0.0554 * num(r["ENMO_mg"])),
]:
    pairs = [(r["ID"], r["speed_kmh"], predict(r) - num(r["VO2_ml_kg_min"])) for r in rows
             if num(r["VO2_ml_kg_min"]) is not None and predict(r) is not None]
    m, n, bias, lo, hi = ba2007([p[0] for p in pairs], [p[2] for p in pairs])
    print(name, "all", n, m, repr(bias), repr(lo), repr(hi))
    for speed in sorted({p[1] for p in pairs}, key=float):
        d = np.array([p[2] for p in pairs if p[1] == speed]); s = d.std(ddof=1)
        print(name, speed, len(d), repr(d.mean()), repr(d.mean() - Z * s), repr(d.mean() + Z * s))


def keytel(r, resting):
    """Keytel et al. 2005 (kg form, without VO2max), kcal/min; below 57 % of
    HRmax = 208 - 0.7 age, the line from rest (3.5 mL/kg/min at 5 kcal/L) at
    the resting heart rate to the equation at 57 % (Hexoskin's blend)."""
    hr, w, a = num(r["HR_bpm"]), num(r["weight_kg"]), num(r["age_years"])
    male = r["sex"] == "1"

    def eq(h):
        kj = (-55.0969 + 0.6309 * h + 0.1988 * w + 0.2017 * a) if male else (-20.4022 + 0.4472 * h - 0.1263 * w + 0.074 * a)
        return kj / 4.184

    rest = 3.5 * w / 1000 * 5
    floor = 0.57 * (208 - 0.7 * a)
    if hr >= floor:
        return max(eq(hr), rest)
    if resting is None or resting >= floor:
        return rest
    share = min(max((hr - resting) / (floor - resting), 0), 1)
    return rest + (max(eq(floor), rest) - rest) * share


for label, use_resting in [("keytel-2005 resting-hr-blend", True), ("keytel-2005 without resting", False)]:
    pairs = [(r["ID"], keytel(r, num(r["resting_HR_bpm"]) if use_resting else None) - num(r["energy_kcal_min"]))
             for r in rows if num(r["energy_kcal_min"]) is not None and num(r["HR_bpm"]) is not None]
    m, n, bias, lo, hi = ba2007([p[0] for p in pairs], [p[1] for p in pairs])
    print(label, "all kcal/min", n, m, repr(bias), repr(lo), repr(hi))
