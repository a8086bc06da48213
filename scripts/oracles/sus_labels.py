#!/usr/bin/env python3
"""Independent scores of Tests/SurveysTests/Fixtures/sus-labels-qualtrics.csv
(read with pandas, labels coded by the table below, SUS by Brooke's 1996
rule, the interval by scipy's t quantile, top-two-box by Wilson's 1927
interval). EnergyLab's tests assert these figures.

Usage: python3 scripts/oracles/sus_labels.py   (needs pandas and scipy)
"""
import math, os
import pandas as pd
from scipy import stats

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "SurveysTests", "Fixtures")
# Qualtrics' 5-point agreement wording, coded 1-5 (lowest first).
CODE = {"Strongly disagree": 1, "Somewhat disagree": 2, "Neither agree nor disagree": 3, "Somewhat agree": 4,
        "Strongly agree": 5}

# Row 1 names the columns; rows 2 and 3 are the question texts and import ids.
frame = pd.read_csv(os.path.join(HERE, "sus-labels-qualtrics.csv"), skiprows=[1, 2])
items = frame[[f"Q{i}" for i in range(1, 11)]].apply(lambda c: c.map(CODE))
assert not items.isna().any().any(), "an answer outside the 5-point wording"
complete = items.dropna()
odd = complete[[f"Q{i}" for i in (1, 3, 5, 7, 9)]].sum(axis=1) - 5
even = 25 - complete[[f"Q{i}" for i in (2, 4, 6, 8, 10)]].sum(axis=1)
scores = 2.5 * (odd + even)
n = len(scores)
mean, sd = scores.mean(), scores.std(ddof=1)
half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
print(f"respondents {len(frame)}, with all ten items {n}")
print(f"SUS mean {mean:.4f} sd {sd:.4f} ci95 {mean - half:.4f} {mean + half:.4f}")
print("first five scores", list(scores[:5]))

numeric = pd.read_csv(os.path.join(HERE, "sus-labels-numeric.csv"))
same = (numeric[[f"S{i}" for i in range(1, 11)]].values == items.values).all()
print("numeric twin holds the same codes:", bool(same))

g = frame["Q11"].map(CODE)
k, m = int((g >= 4).sum()), len(g)
p, z = k / m, stats.norm.ppf(0.975)
centre = (p + z * z / (2 * m)) / (1 + z * z / m)
margin = z / (1 + z * z / m) * math.sqrt(p * (1 - p) / m + z * z / (4 * m * m))
print(f"Q11 top-two-box {k}/{m} = {100 * p:.2f} % (Wilson {100 * (centre - margin):.2f}-{100 * (centre + margin):.2f})")
print(f"Q11 read as 7-point (top two = Agree, Strongly agree): {100 * (g == 5).sum() / m:.2f} %")
print("Q11 median", g.median())
