#!/usr/bin/env python3
"""Generate deterministic synthetic raw accelerometer recordings and the
ActiGraph activity counts that the reference implementation `agcounts`
(PyPI, version recorded in manifest.txt) produces for them.

Run with:  /tmp/agvenv/bin/python /tmp/agoracle/make_oracle.py

Outputs (in the directory of this script):
  synth-<f>hz.csv                 raw input, columns time_s,x,y,z (g, 6 decimals)
  synth-<f>hz-counts-<E>s.csv     agcounts output for epoch E in {1,10,60} s,
                                  columns axis1,axis2,axis3,vm
                                  axis1 = x column, axis2 = y column, axis3 = z column
                                  (agcounts keeps the input column order);
                                  vm = sqrt(axis1^2+axis2^2+axis3^2) of that row, 6 decimals
                                  row k = epoch starting at k*E seconds
  synth-<f>hz-stages30.csv        (f = 30 and 100 only) per 30 Hz sample j:
                                  resampled+rounded input, band-pass output after
                                  gain, and trimmed value for each axis
  synth-<f>hz-stages10.csv        (f = 30 and 100 only) per 10 Hz sample: the
                                  floor(mean of 3) values per axis
  manifest.txt                    versions, sample counts, epoch counts
Rates produced: 30, 40, 50, 60, 70, 80, 90, 100 Hz (all rates agcounts supports
without MNE). The 30 Hz and 100 Hz files are the primary oracles.
"""
import math
import os
import sys

import numpy as np
import pandas as pd
import scipy

import agcounts
from agcounts import extract
from agcounts.extract import get_counts

OUT = os.path.dirname(os.path.abspath(__file__))
RATES = [30, 40, 50, 60, 70, 80, 90, 100]
EPOCHS = [1, 10, 60]
DURATION_S = 130.5  # n = round(DURATION_S * f) + 1 samples -> not a multiple of anything
NOISE_SD = 0.004    # g
SEEDS = {f: 1000 + f for f in RATES}  # numpy default_rng seed per rate


def clean_signal(t):
    """Noise-free 3-axis signal in g as a function of time t (seconds).

    0   <= t < 5     rest, gravity on +z
    5   <= t < 65    walking-like: 1.8 Hz fundamental + harmonics
    65  <= t < 70    rest, gravity on +z
    70  <= t < 125   vigorous: 2.6 Hz on x/z, large 0.8 Hz swing on y
                     (y amplitude 2.4 g is chosen to hit the 128 clip)
    125 <= t         rest, device tilted: gravity split y=0.5, z=0.866
    """
    x = np.zeros_like(t)
    y = np.zeros_like(t)
    z = np.ones_like(t)
    two_pi = 2.0 * math.pi

    m = (t >= 5.0) & (t < 65.0)
    tau = t[m] - 5.0
    x[m] = 0.22 * np.sin(two_pi * 1.8 * tau) + 0.06 * np.sin(two_pi * 3.6 * tau + 0.5)
    y[m] = 0.12 * np.sin(two_pi * 0.9 * tau + 1.0)
    z[m] = 1.0 + 0.30 * np.sin(two_pi * 1.8 * tau + 0.3) + 0.08 * np.sin(two_pi * 5.4 * tau)

    m = (t >= 70.0) & (t < 125.0)
    tau = t[m] - 70.0
    x[m] = 0.6 * np.sin(two_pi * 2.6 * tau)
    y[m] = 2.4 * np.sin(two_pi * 0.8 * tau + 0.7)
    z[m] = 1.0 + 1.2 * np.sin(two_pi * 2.6 * tau + 0.2) + 0.25 * np.sin(two_pi * 7.8 * tau)

    m = t >= 125.0
    x[m] = 0.0
    y[m] = 0.5
    z[m] = 0.866
    return x, y, z


def make_raw(f):
    n = int(round(DURATION_S * f)) + 1
    t = np.arange(n, dtype=np.float64) / f
    x, y, z = clean_signal(t)
    rng = np.random.default_rng(SEEDS[f])
    noise = rng.normal(0.0, NOISE_SD, size=(n, 3))
    raw = np.column_stack([x, y, z]) + noise
    df = pd.DataFrame({"time_s": t, "x": raw[:, 0], "y": raw[:, 1], "z": raw[:, 2]})
    path = os.path.join(OUT, f"synth-{f}hz.csv")
    df.to_csv(path, index=False, float_format="%.6f")
    # Read back so the oracle is computed from exactly the published numbers.
    back = pd.read_csv(path)
    return back[["x", "y", "z"]].to_numpy(dtype=np.float64)


def write_counts(counts, path):
    counts = np.asarray(counts, dtype=np.int64)
    vm = np.sqrt((counts.astype(np.float64) ** 2).sum(axis=1))
    df = pd.DataFrame({
        "axis1": counts[:, 0],
        "axis2": counts[:, 1],
        "axis3": counts[:, 2],
        "vm": vm,
    })
    df.to_csv(path, index=False, float_format="%.6f")
    return df


def write_stages(raw, f):
    """Intermediate signals from agcounts' own internal steps (fast path)."""
    res = extract._resample(raw=raw, frequency=f)          # (3, n30), rounded to 3 dp
    bpf = extract._bpf_filter(downsample_data=res)          # (3, n30), gain applied
    trim = extract._trim_data(bpf_data=bpf, lfe_select=False)
    ten = extract._resample_10hz(trim_data=trim)            # (3, n10)
    st30 = pd.DataFrame({
        "j": np.arange(res.shape[1]),
        "res_x": res[0], "res_y": res[1], "res_z": res[2],
        "bpf_x": bpf[0], "bpf_y": bpf[1], "bpf_z": bpf[2],
        "trim_x": trim[0].astype(int), "trim_y": trim[1].astype(int),
        "trim_z": trim[2].astype(int),
    })
    st30.to_csv(os.path.join(OUT, f"synth-{f}hz-stages30.csv"), index=False,
                float_format="%.10f")
    st10 = pd.DataFrame({
        "k": np.arange(ten.shape[1]),
        "x": ten[0].astype(int), "y": ten[1].astype(int), "z": ten[2].astype(int),
    })
    st10.to_csv(os.path.join(OUT, f"synth-{f}hz-stages10.csv"), index=False)
    return res.shape[1], ten.shape[1]


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = [
        f"python {sys.version.split()[0]}",
        f"numpy {np.__version__}",
        f"scipy {scipy.__version__}",
        f"pandas {pd.__version__}",
        "agcounts " + __import__("importlib.metadata").metadata.version("agcounts"),
        "get_counts(raw, freq=f, epoch=E) with defaults fast=True, use_mne=False",
        "axis1 <- input column x, axis2 <- y, axis3 <- z",
        "",
    ]
    for f in RATES:
        raw = make_raw(f)
        lines.append(f"{f} Hz: {raw.shape[0]} raw samples")
        if f in (30, 100):
            n30, n10 = write_stages(raw, f)
            lines.append(f"  resampled 30 Hz samples: {n30}, 10 Hz samples: {n10}")
        per_epoch = {}
        for e in EPOCHS:
            c = get_counts(raw.copy(), freq=f, epoch=e)
            per_epoch[e] = c
            write_counts(c, os.path.join(OUT, f"synth-{f}hz-counts-{e}s.csv"))
            lines.append(f"  epoch {e:>2}s: {c.shape[0]} rows, column sums {c.sum(axis=0).tolist()}")
        # Slow (loop) implementation agreement check
        for e in EPOCHS:
            slow = get_counts(raw.copy(), freq=f, epoch=e, fast=False)
            fast = per_epoch[e]
            nmin = min(slow.shape[0], fast.shape[0])
            ndiff = int((slow[:nmin] != fast[:nmin]).any(axis=1).sum())
            lines.append(f"  fast vs slow epoch {e}s: rows {fast.shape[0]} vs {slow.shape[0]}, "
                         f"differing rows {ndiff}")
        # Re-integration check: 10 s epochs summed in groups of 6 vs epoch=60
        c10, c60 = per_epoch[10], per_epoch[60]
        k = c60.shape[0]
        summed = c10[: 6 * k].reshape(k, 6, 3).sum(axis=1)
        lines.append(f"  sum of six 10s axis counts == 60s axis counts: {np.array_equal(summed, c60)}")
        vm60 = np.sqrt((c60.astype(float) ** 2).sum(axis=1))
        vm10 = np.sqrt((c10[: 6 * k].astype(float) ** 2).sum(axis=1)).reshape(k, 6).sum(axis=1)
        lines.append("  VM of 60s epoch (sqrt of summed axes): " + ", ".join(f"{v:.3f}" for v in vm60))
        lines.append("  sum of the six 10s VMs            : " + ", ".join(f"{v:.3f}" for v in vm10))
        c1 = per_epoch[1]
        summed1 = c1[: 10 * c10.shape[0]].reshape(c10.shape[0], 10, 3).sum(axis=1)
        lines.append(f"  sum of ten 1s axis counts == 10s axis counts: {np.array_equal(summed1, c10)}")
    with open(os.path.join(OUT, "manifest.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
