#!/usr/bin/env python3
"""Independent figures for `track power`, `power curve` and W' balance.

Reads a FIT file with fitdecode, builds the 1 Hz power series under the
`auto` missing-power rule (a record without power is 0 W when it carries a
cadence, left out when it does not), and prints, as JSON:

- Normalized Power from its definition (Coggan: fourth-power mean of the
  30 s rolling average), with full windows and with partial windows;
- sweat's `weighted_average_power` (pandas rolling, min_periods=1: the
  partial-window convention) and vmpy's `normalized_power`, where installed;
- the mean-maximal curve from sweat's or vmpy's `mean_max` /
  `power_duration_curve`, given the series with one 0 W sample in front:
  both take energy.diff(t), which never starts a window at the first
  sample, so the leading zero makes their curve every window's;
- W' balance (Skiba 2012 integral, Froncioni-Skiba-Clarke differential)
  from sweat for a given CP and W'.

Run it in a throwaway virtual environment:
  python3 -m venv /tmp/sweat && /tmp/sweat/bin/pip install sweat fitdecode
  /tmp/sweat/bin/python scripts/oracles/power.py FILE [--cp W --wprime J]
(sweat pins numpy<2; vmpy goes in a venv of its own.)
"""
import argparse
import json

import fitdecode
import numpy as np


def series(path):
    """1 Hz: records 2-10 s apart (smart recording) have the seconds between
    them filled by linear interpolation (as sweat's read_fit with resample
    and interpolate); nothing is filled across a longer pause or across a
    record left out (neither power nor cadence)."""
    watts = []
    previous = None  # (time, value) of the last record; value None: left out
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.DISABLED) as reader:
        for frame in reader:
            if not isinstance(frame, fitdecode.FitDataMessage) or frame.name != "record":
                continue
            power = frame.get_value("power") if frame.has_field("power") else None
            cadence = frame.get_value("cadence") if frame.has_field("cadence") else None
            stamp = frame.get_value("timestamp") if frame.has_field("timestamp") else None
            t = stamp.timestamp() if hasattr(stamp, "timestamp") else None
            value = float(power) if power is not None else 0.0 if cadence is not None else None
            if value is not None and previous and previous[1] is not None and t is not None:
                gap = t - previous[0]
                if 1.5 < gap <= 10:
                    n = int(round(gap))
                    watts += [previous[1] + (value - previous[1]) * k / n for k in range(1, n)]
            if value is not None:
                watts.append(value)
            if t is not None or value is None:
                previous = (t, value)
    return np.array(watts)


def normalized_power(watts, partial):
    csum = np.cumsum(np.insert(watts, 0, 0.0))
    averages = (csum[30:] - csum[:-30]) / 30
    if partial:
        averages = np.concatenate([csum[1:30] / np.arange(1, 30), averages])
    return float(np.mean(averages**4) ** 0.25)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--cp", type=float)
    parser.add_argument("--wprime", type=float)
    parser.add_argument("--durations", default="1,5,30,60,300,1200,3600")
    parser.add_argument("--fit", help="fit the models over this range of the curve, as 120-1200 (s)")
    args = parser.parse_args()
    watts = series(args.file)
    out = {
        "samples": len(watts),
        "np_full": normalized_power(watts, False),
        "np_partial": normalized_power(watts, True),
        "mean": float(watts.mean()),
    }
    durations = [int(d) for d in args.durations.split(",") if int(d) <= len(watts)]
    padded = np.insert(watts, 0, 0.0)
    try:
        from sweat.metrics import core

        out["sweat_np_partial"] = float(core.weighted_average_power(watts))
        curve = core.mean_max(padded)
        out["sweat_mmp"] = {str(d): float(curve[d - 1]) for d in durations}
        if args.cp and args.wprime:
            from sweat.pdm import w_prime_balance as wb

            for name, algorithm in [("integral", "skiba"), ("differential", "froncioni-skiba-clarke")]:
                balance = wb.w_prime_balance(watts, cp=args.cp, w_prime=args.wprime, algorithm=algorithm)
                out[f"sweat_wbal_{name}_min"] = float(balance.min())
    except ImportError:
        pass
    if args.fit:
        # The curve's points on EnergyLab's duration grid within the range
        # (every 5 s to 10 min, every 30 s to 1 h), fitted by sweat's
        # PowerDurationRegressor (scipy curve_fit from sweat's starting
        # values) and by scipy least_squares to tight tolerances.
        low, high = (int(v) for v in args.fit.split("-"))
        grid = [d for d in list(range(1, 120)) + list(range(120, 600, 5)) + list(range(600, 3600, 30))
                if low <= d <= high and d <= len(watts)]
        csum = np.insert(np.cumsum(watts), 0, 0.0)
        t = np.array(grid, dtype=float)
        p = np.array([max(csum[d:] - csum[:-d]) / d for d in grid])
        out["fit_points"] = len(grid)
        models = {
            "2-parameter": (lambda x, cp, w: cp + w / x, [300, 20000], ["cp", "w_prime"]),
            "3-parameter": (lambda x, cp, w, pmax: w / (x + w / (pmax - cp)) + cp, [300, 20000, 1000],
                            ["cp", "w_prime", "p_max"]),
            "exponential": (lambda x, cp, pmax, tau: (pmax - cp) * np.exp(-x / tau) + cp, [300, 1000, 300],
                            ["cp", "p_max", "tau"]),
        }
        from scipy.optimize import least_squares

        # The 2-parameter model is linear in (CP, W'): its exact solution.
        (cp, w), *_ = np.linalg.lstsq(np.column_stack([np.ones_like(t), 1 / t]), p, rcond=None)
        out["fit_2-parameter_exact"] = {"cp": float(cp), "w_prime": float(w)}

        for name, (f, p0, names) in models.items():
            tight = least_squares(lambda q: f(t, *q) - p, p0, xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=100000)
            out[f"fit_{name}"] = dict(zip(names, map(float, tight.x)))
        try:
            from sweat.pdm.regressors import PowerDurationRegressor

            for name, model in [("2-parameter", "2 param"), ("3-parameter", "3 param"), ("exponential", "exponential")]:
                r = PowerDurationRegressor(model=model).fit(t.reshape(-1, 1), p)
                keys = models[name][2]
                out[f"sweat_fit_{name}"] = {k: float(getattr(r, k + "_")) for k in keys}
        except ImportError:
            pass
    try:
        from vmpy import metrics

        out["vmpy_np_partial"] = float(metrics.normalized_power(list(watts)))
        curve = metrics.power_duration_curve(list(padded))
        out["vmpy_mmp"] = {str(d): float(curve[d - 1]) for d in durations}
    except ImportError:
        pass
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
