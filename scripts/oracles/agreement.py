"""EnergyLab agreement-statistics oracle (numpy 2.4.6, scipy 1.17.1, pandas, pingouin 0.7.0), written from the
 papers' equations; run in a throwaway environment: python3 -m venv v && v/bin/pip install numpy scipy pandas pingouin
 && v/bin/python scripts/oracles/agreement.py
D = a - b (a = model/predicted, b = reference/measured), A = (a + b) / 2; every value is printed with repr()."""
import numpy as np, pandas as pd, pingouin as pg
from scipy import stats, odr

Z = 1.96  # agreement multiplier of every limit (bias -/+ 1.96 SD); confidence quantiles come from scipy
D1_A = [10.2, 11.5, 9.8, 12.1, 10.9]
D1_B = [10.0, 10.8, 9.9, 11.2, 10.1]
# D3 (heteroscedastic): b_k = 2 + 12k/29 (k = 0..29), a_k = b_k + 0.08 b_k z_k, both rounded to 4 dp, with
# z = [-0.07,-1.1,-1.68,-0.74,-1.65,0.19,1.35,1.77,-1.13,1.57,-1.45,-0.12,1.45,1.82,0.05,
#      1.06,0.34,-0.48,-1.69,0.34,0.56,0.85,0.57,1.53,0.19,-1.41,0.46,1.23,-1.8,-2.0]
D3_A = [1.9888, 2.2014, 2.4476, 3.0495, 3.1727, 4.1308, 4.9669, 5.59, 4.8302, 6.443, 5.4259, 6.4888, 7.7735,
        8.4537, 7.8243, 8.9028, 8.8552, 8.6876, 8.1709, 10.1303, 10.7363, 11.4166, 11.6097, 12.9269, 12.1124,
        10.9523, 13.2281, 14.4686, 11.6298, 11.76]
D3_B = [2.0, 2.4138, 2.8276, 3.2414, 3.6552, 4.069, 4.4828, 4.8966, 5.3103, 5.7241, 6.1379, 6.5517, 6.9655,
        7.3793, 7.7931, 8.2069, 8.6207, 9.0345, 9.4483, 9.8621, 10.2759, 10.6897, 11.1034, 11.5172, 11.931,
        12.3448, 12.7586, 13.1724, 13.5862, 14.0]
# D2: Bland & Altman (2007) J Biopharm Stat 17:571, Table 1 (also BA 1999): cardiac output, (subject, RV, IC); a = RV, b = IC
D2 = [(1, 7.83, 6.57), (1, 7.42, 5.62), (1, 7.89, 6.90), (1, 7.12, 6.57), (1, 7.88, 6.35), (2, 6.16, 4.06),
      (2, 7.26, 4.29), (2, 6.71, 4.26), (2, 6.54, 4.09), (3, 4.75, 4.71), (3, 5.24, 5.50), (3, 4.86, 5.08),
      (3, 4.78, 5.02), (3, 6.05, 6.01), (3, 5.42, 5.67), (4, 4.21, 4.14), (4, 3.61, 4.20), (4, 3.72, 4.61),
      (4, 3.87, 4.68), (4, 3.92, 5.04), (5, 3.13, 3.03), (5, 2.98, 2.86), (5, 2.85, 2.77), (5, 3.17, 2.46),
      (5, 3.09, 2.32), (5, 3.12, 2.43), (6, 5.92, 5.90), (6, 6.42, 5.81), (6, 5.92, 5.70), (6, 6.27, 5.76),
      (7, 7.13, 5.09), (7, 6.62, 4.63), (7, 6.58, 4.61), (7, 6.93, 5.09), (8, 4.54, 4.72), (8, 4.81, 4.61),
      (8, 5.11, 4.36), (8, 5.29, 4.20), (8, 5.39, 4.36), (8, 5.57, 4.20), (9, 4.48, 3.17), (9, 4.92, 3.12),
      (9, 3.97, 2.96), (10, 4.22, 4.35), (10, 4.65, 4.62), (10, 4.74, 3.16), (10, 4.44, 3.53), (10, 4.50, 3.53),
      (11, 6.78, 7.20), (11, 6.07, 6.09), (11, 6.52, 7.00), (11, 6.42, 7.10), (11, 6.41, 7.40), (11, 5.76, 6.80),
      (12, 5.06, 4.50), (12, 4.72, 4.20), (12, 4.90, 3.80), (12, 4.80, 3.80), (12, 4.90, 4.20), (12, 5.10, 4.50)]

def p(name, v):  # full-precision repr of plain Python floats
    f = lambda x: x.item() if hasattr(x, "item") else x
    v = tuple(f(x) for x in np.asarray(v)) if np.ndim(v) else f(v)
    print(f"{name} = {v!r}")

def limits(tag, x):  # items 1-4 for any vector of differences / log-ratios / percentages
    x = np.asarray(x, float); n = len(x); m = x.mean(); s = x.std(ddof=1); t = stats.t.ppf(0.975, n - 1)
    lo, hi = m - Z * s, m + Z * s
    q = stats.nct.ppf([0.025, 0.975], n - 1, Z * np.sqrt(n)) / np.sqrt(n)  # Carkeet (2015) exact
    p(f"{tag}.bias", m); p(f"{tag}.sd", s); p(f"{tag}.limits", (lo, hi))
    p(f"{tag}.bias_ci95_t", (m - t * s / np.sqrt(n), m + t * s / np.sqrt(n)))
    h = t * np.sqrt(3 * s**2 / n)  # Bland & Altman (1986) approximate
    p(f"{tag}.lower_ci_approx", (lo - h, lo + h)); p(f"{tag}.upper_ci_approx", (hi - h, hi + h))
    p(f"{tag}.lower_ci_exact", (m - s * q[1], m - s * q[0])); p(f"{tag}.upper_ci_exact", (m + s * q[0], m + s * q[1]))
    return m, s, lo, hi

def analyze(tag, a, b, zones, logs=False):
    a, b = np.asarray(a, float), np.asarray(b, float); n = len(a); D = a - b; A = (a + b) / 2
    print(f"# {tag} (n = {n})"); m, s, lo, hi = limits(tag, D)
    r = stats.linregress(A, D); p(f"{tag}.reg_D_on_A.slope_intercept_p", (r.slope, r.intercept, r.pvalue))
    res = np.abs(D - (r.intercept + r.slope * A)); r2 = stats.linregress(A, res)
    p(f"{tag}.reg_absres_on_A.slope_intercept_p", (r2.slope, r2.intercept, r2.pvalue))
    if logs:  # item 6: log-ratio and percentage limits, coverage by thirds of A
        lm, ls, llo, lhi = limits(f"{tag}.logratio", np.log(a / b))
        p(f"{tag}.ratio.geomean_limits", np.exp([lm, llo, lhi]))
        q = stats.nct.ppf([0.025, 0.975], n - 1, Z * np.sqrt(n)) / np.sqrt(n)
        p(f"{tag}.ratio.lower_ci_exact", np.exp([lm - ls * q[1], lm - ls * q[0]]))
        p(f"{tag}.ratio.upper_ci_exact", np.exp([lm + ls * q[0], lm + ls * q[1]]))
        limits(f"{tag}.percent", 100 * D / A)
        o = np.argsort(A, kind="stable"); R = a / b
        for j, idx in enumerate(np.split(o, 3)):
            p(f"{tag}.third{j + 1}.share_in_abs_limits", np.mean((D[idx] >= lo) & (D[idx] <= hi)))
            p(f"{tag}.third{j + 1}.share_in_ratio_limits",
              np.mean((R[idx] >= np.exp(llo)) & (R[idx] <= np.exp(lhi))))
    # item 7: ICC, pingouin (long data: targets = pair, raters = method) and McGraw & Wong (1996) by hand
    long = pd.DataFrame({"pair": np.tile(np.arange(n), 2), "method": ["a"] * n + ["b"] * n, "y": np.r_[a, b]})
    ic = pg.intraclass_corr(long, targets="pair", raters="method", ratings="y").set_index("Type")
    Y = np.c_[a, b]; k = 2; g = Y.mean()
    msr = k * np.sum((Y.mean(1) - g) ** 2) / (n - 1); msc = n * np.sum((Y.mean(0) - g) ** 2) / (k - 1)
    mse = (np.sum((Y - g) ** 2) - (n - 1) * msr - (k - 1) * msc) / ((n - 1) * (k - 1))
    icc_a = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n); icc_c = (msr - mse) / (msr + (k - 1) * mse)
    F, d1, d2 = msr / mse, n - 1, (n - 1) * (k - 1)
    fl, fu = F / stats.f.ppf(0.975, d1, d2), F * stats.f.ppf(0.975, d2, d1)
    ci_c = ((fl - 1) / (fl + k - 1), (fu - 1) / (fu + k - 1))
    aa, bb = k * icc_a / (n * (1 - icc_a)), 1 + k * icc_a * (n - 1) / (n * (1 - icc_a))
    v = (aa * msc + bb * mse) ** 2 / ((aa * msc) ** 2 / (k - 1) + (bb * mse) ** 2 / ((n - 1) * (k - 1)))
    f1, f2 = stats.f.ppf(0.975, n - 1, v), stats.f.ppf(0.975, v, n - 1)
    ci_a = (n * (msr - f1 * mse) / (f1 * (k * msc + (k * n - k - n) * mse) + n * msr),
            n * (f2 * msr - mse) / (k * msc + (k * n - k - n) * mse + n * f2 * msr))
    for typ, mine, ci in (("ICC(A,1)", icc_a, ci_a), ("ICC(C,1)", icc_c, ci_c)):
        row = ic.loc[typ]
        p(f"{tag}.{typ}.pingouin_icc_F_df1_df2_p", (row.ICC, row.F, row.df1, row.df2, row.pval))
        p(f"{tag}.{typ}.pingouin_ci95", row.CI95); p(f"{tag}.{typ}.own_icc", mine); p(f"{tag}.{typ}.own_ci95", ci)
        print(f"{tag}.{typ}.own_ci95_rounds_to_pingouin = {bool(np.allclose(np.round(ci, 2), row.CI95))}")
    # item 8: Lin (1989) CCC, moments over n; z = atanh(rc), Var(z) (Lin 1989, corrected 2000) =
    #   [ (1-r^2) rc^2 / ((1-rc^2) r^2) + 2 rc^3 (1-rc) u^2 / (r (1-rc^2)^2) - rc^4 u^4 / (2 r^2 (1-rc^2)^2) ] / (n-2),
    #   u = (mean a - mean b) / sqrt(sa sb), r = Pearson correlation
    sa, sb, sab = a.std(), b.std(), np.mean((a - a.mean()) * (b - b.mean()))
    rc = 2 * sab / (sa**2 + sb**2 + (a.mean() - b.mean()) ** 2); r = sab / (sa * sb); u = (a.mean() - b.mean()) / np.sqrt(sa * sb)
    vz = ((1 - r**2) * rc**2 / ((1 - rc**2) * r**2) + 2 * rc**3 * (1 - rc) * u**2 / (r * (1 - rc**2) ** 2)
          - rc**4 * u**4 / (2 * r**2 * (1 - rc**2) ** 2)) / (n - 2)
    zc = stats.norm.ppf(0.975) * np.sqrt(vz)
    p(f"{tag}.ccc", rc); p(f"{tag}.ccc_var_z", vz); p(f"{tag}.ccc_ci95", np.tanh([np.arctanh(rc) - zc, np.arctanh(rc) + zc]))
    # item 9: Deming (lambda = 1, orthogonal) of a on b; jackknife CI (Linnet 1990): estimate -/+ t(n-1) * SE(pseudo-values)
    def deming(x, y):
        sxx, syy, sxy = np.var(x), np.var(y), np.mean((x - x.mean()) * (y - y.mean()))
        sl = (syy - sxx + np.sqrt((syy - sxx) ** 2 + 4 * sxy**2)) / (2 * sxy); return np.array([sl, y.mean() - sl * x.mean()])
    est = deming(b, a); p(f"{tag}.deming.slope_intercept", est)
    fit = odr.ODR(odr.RealData(b, a), odr.unilinear, beta0=[1.0, 0.0], sstol=1e-15, partol=1e-15).run(); p(f"{tag}.deming.odr_slope_intercept", fit.beta)
    pv = np.array([n * est - (n - 1) * deming(np.delete(b, i), np.delete(a, i)) for i in range(n)])
    se = pv.std(0, ddof=1) / np.sqrt(n); tq = stats.t.ppf(0.975, n - 1)
    p(f"{tag}.deming.jackknife_mean_slope_intercept", pv.mean(0)); p(f"{tag}.deming.jackknife_se", se)
    p(f"{tag}.deming.slope_ci95", (est[0] - tq * se[0], est[0] + tq * se[0]))
    p(f"{tag}.deming.intercept_ci95", (est[1] - tq * se[1], est[1] + tq * se[1]))
    # item 10: TOST against -/+ delta
    for name, dl in zones:
        pl = stats.ttest_1samp(D, -dl, alternative="greater").pvalue; pu = stats.ttest_1samp(D, dl, alternative="less").pvalue
        p(f"{tag}.tost[{name}].delta_pLower_pUpper_p", (dl, pl, pu, max(pl, pu)))
    t90 = stats.t.ppf(0.95, n - 1) * s / np.sqrt(n); p(f"{tag}.tost.bias_ci90", (m - t90, m + t90))

print("# nct checks"); p("nct.cdf(3.0, 4, 4.3827)", stats.nct.cdf(3.0, 4, 4.3827)); p("nct.cdf(10.0, 29, 10.735)", stats.nct.cdf(10.0, 29, 10.735))
p("nct.ppf([0.025, 0.975], 29, 1.96*sqrt(30))", stats.nct.ppf([0.025, 0.975], 29, Z * np.sqrt(30)))
p("nct.ppf([0.025, 0.975], 4, 1.96*sqrt(5))", stats.nct.ppf([0.025, 0.975], 4, Z * np.sqrt(5)))
analyze("D1", D1_A, D1_B, [("10% of mean b", 0.1 * np.mean(D1_B)), ("0.5 units", 0.5)])
analyze("D3", D3_A, D3_B, [("10% of mean b", 0.1 * np.mean(D3_B))], logs=True)

print("# D2, Bland & Altman (2007) 'true value varies'")
sub = np.array([r[0] for r in D2]); d = np.array([r[1] - r[2] for r in D2]); ids = np.unique(sub)
mi = np.array([(sub == i).sum() for i in ids]); dm = np.array([d[sub == i].mean() for i in ids]); m, N = len(ids), len(d)
msb = np.sum(mi * (dm - d.mean()) ** 2) / (m - 1); msw = sum(np.sum((d[sub == i] - dm[j]) ** 2) for j, i in enumerate(ids)) / (N - m)
lam = (N**2 - np.sum(mi**2)) / ((m - 1) * N); sb2 = max(0.0, (msb - msw) / lam); sd = np.sqrt(sb2 + msw)
p("D2.m_N", (m, N)); p("D2.bias_mean_all", d.mean()); p("D2.MS_between_within", (msb, msw)); p("D2.divisor", lam)
p("D2.s2_between", sb2); p("D2.var_total", sb2 + msw); p("D2.sd_total", sd); p("D2.limits", (d.mean() - Z * sd, d.mean() + Z * sd))
# Zou (2013) MOVER, 'mean varies', as its equations are documented in SimplyAgree::agree_nest (not checked against the paper):
#   dbar = mean of subject means, sb2 = var(subject means, ddof 1), sw2 = MSw, mh = m / sum(1/m_i), S2 = sb2 + (1 - 1/mh) sw2
#   L = S2 - sqrt([sb2 (1 - (m-1)/chi2(.975, m-1))]^2 + [(1-1/mh) sw2 (1 - (N-m)/chi2(.975, N-m))]^2)
#   U = S2 + sqrt([sb2 ((m-1)/chi2(.025, m-1) - 1)]^2 + [(1-1/mh) sw2 ((N-m)/chi2(.025, N-m) - 1)]^2)
#   LME = sqrt(q^2 sb2/m + 1.96^2 (sqrt(U) - sqrt(S2))^2), RME = sqrt(q^2 sb2/m + 1.96^2 (sqrt(S2) - sqrt(L))^2)
#   lower limit CI = [low - LME, low + RME], upper limit CI = [up - RME, up + LME]; q = z(.975) (SimplyAgree) or t(.975, m-1)
def zou(tag, sub, d):
    ids = np.unique(sub); mi = np.array([(sub == i).sum() for i in ids]); dm = np.array([d[sub == i].mean() for i in ids])
    m, N = len(ids), len(d); msw = sum(np.sum((d[sub == i] - dm[j]) ** 2) for j, i in enumerate(ids)) / (N - m)
    sbz = dm.var(ddof=1); mh = m / np.sum(1 / mi); S2 = sbz + (1 - 1 / mh) * msw; c = 1 - 1 / mh
    L = S2 - np.sqrt((sbz * (1 - (m - 1) / stats.chi2.ppf(0.975, m - 1))) ** 2 + (c * msw * (1 - (N - m) / stats.chi2.ppf(0.975, N - m))) ** 2)
    U = S2 + np.sqrt((sbz * ((m - 1) / stats.chi2.ppf(0.025, m - 1) - 1)) ** 2 + (c * msw * ((N - m) / stats.chi2.ppf(0.025, N - m) - 1)) ** 2)
    lo, hi = dm.mean() - Z * np.sqrt(S2), dm.mean() + Z * np.sqrt(S2)
    p(f"{tag}.dbar_sb2_sw2_mh", (dm.mean(), sbz, msw, mh)); p(f"{tag}.S2_L_U", (S2, L, U)); p(f"{tag}.limits", (lo, hi))
    for qn, q in (("z", stats.norm.ppf(0.975)), ("t", stats.t.ppf(0.975, m - 1))):
        lme = np.sqrt(q**2 * sbz / m + Z**2 * (np.sqrt(U) - np.sqrt(S2)) ** 2); rme = np.sqrt(q**2 * sbz / m + Z**2 * (np.sqrt(S2) - np.sqrt(L)) ** 2)
        p(f"{tag}[{qn}].lower_ci", (lo - lme, lo + rme)); p(f"{tag}[{qn}].upper_ci", (hi - rme, hi + lme))
zou("D2.zou", sub, d)
zou("D2first4.zou", sub[sub <= 4], d[sub <= 4])  # SimplyAgree test "examples from Zou": subjects 1-4 only (20 pairs)
# Balanced subset (subjects 3, 5, 8, 11 and 12, six pairs each): there Zou's components (the variance of the
# participants' means, the harmonic mean of the counts) equal Bland & Altman's ANOVA components, so the MOVER
# intervals of the two coincide; t(m - 1) for the mean term.
keep = np.isin(sub, [3, 5, 8, 11, 12])
zou("D2balanced.zou", sub[keep], d[keep])
