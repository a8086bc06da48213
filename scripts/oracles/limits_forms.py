"""Forms of the limits of agreement (trend and spread tests, also on the logarithms) and the exact
intervals of the Lancet 1986 peak-flow limits, with scipy; run as scripts/oracles/agreement.py is run."""
import numpy as np
from scipy import stats
def analyse(name, a, b):
    a = np.array(a); b = np.array(b); A = (a + b) / 2; D = a - b
    t = stats.linregress(A, D); r = np.abs(D - (t.intercept + t.slope * A)); u = stats.linregress(A, r)
    out = [name, "trend", t.slope, t.pvalue, "spread", u.slope, u.pvalue, u.intercept]
    if (a > 0).all() and (b > 0).all():
        L = np.log(a) - np.log(b); M = (np.log(a) + np.log(b)) / 2
        lt = stats.linregress(M, L); lr = np.abs(L - (lt.intercept + lt.slope * M)); ls = stats.linregress(M, lr)
        out += ["log trend", lt.slope, lt.pvalue, "log spread", ls.slope, ls.pvalue, "ratio limits", np.exp(L.mean() - 1.96 * L.std(ddof=1)), np.exp(L.mean() + 1.96 * L.std(ddof=1)), "ratio bias", np.exp(L.mean())]
    print(*[repr(float(x)) if not isinstance(x, str) else x for x in out])
analyse("a", [15.3, 24.8, 35.1, 44.6, 55.2, 65.0, 74.9, 85.3, 94.7, 105.1], [10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
analyse("b", [21.05, 31.455, 42.04, 52.35, 63.12, 73.5, 83.92, 94.77, 104.8, 115.555, 125.7, 136.695], [18.95, 28.545, 37.96, 47.65, 56.88, 66.5, 76.08, 85.23, 95.2, 104.445, 114.3, 123.305])
analyse("c", [12.0, 16.125, 22.375, 26.8125, 33.5, 36.625, 43.625, 47.5625, 55.0, 57.125, 64.875, 68.3125, 76.5, 77.625, 86.125, 89.0625, 98.0, 98.125, 107.375], [8.0, 13.875, 17.625, 23.1875, 26.5, 33.375, 36.375, 42.4375, 45.0, 52.875, 55.125, 61.6875, 63.5, 72.375, 73.875, 80.9375, 82.0, 91.875, 92.625])
analyse("d", [-33.25, -29.0, -22.125, -17.125, -10.25, -6.0, 0.875, 5.875, 12.75, 17.0, 23.875, 28.875, 35.75], [-26.75, -21.0, -17.875, -12.875, -9.75, -4.0, -0.875, 4.125, 7.25, 13.0, 16.125, 21.125, 24.25])
analyse("e", [11.65, 21.85, 32.575, 42.925, 53.65, 63.85, 74.575, 84.925], [8.35, 18.15, 27.425, 37.075, 46.35, 56.15, 65.425, 75.075])
analyse("f", [16.75, 24.5, 38.25, 47.0, 59.75, 69.5, 81.25, 92.0, 103.0, 114.0, 125.0, 136.0], [3.25, 15.5, 21.75, 33.0, 40.25, 50.5, 58.75, 68.0, 77.0, 86.0, 95.0, 104.0])
w = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
m = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]
D = np.array(w, float) - np.array(m, float); n = len(D); s = D.std(ddof=1); d = D.mean()
k = stats.nct.ppf([0.025, 0.975], n - 1, 1.96 * np.sqrt(n)) / np.sqrt(n)
print("wright exact lower", repr(float(d - s * k[1])), repr(float(d - s * k[0])), "upper", repr(float(d + s * k[0])), repr(float(d + s * k[1])))
