#!/usr/bin/env python3
"""Independent oracle for `energylab evaluate modes`.

Scores transport modes per 30 s epoch against second-by-second truth, as
the PALMS validation folder's README states it (Datasets/palms-mode-
validation/README.md): an epoch's true class is the class of the most
observed seconds when it holds at least 16 of 30; classes walk (Walk,
In-Out Walk), cycle (Bike), vehicle (Car, Bus), stationary (Stand, Sit,
Some Movement); epochs without truth or without a GPS fix are left out.

Two predictors: PALMS's own output (tripMode per epoch), and the epoch
hidden Markov model of EnergyLab's README written again from its
equations: epoch speed = median of the speeds of the steps (steps of at
most 60 s; each measured from the fix at least 5 s before its end, back
along such steps, to its end, WGS-84 geodesic distance by Vincenty's
inverse formula) whose middle falls in the epoch; emission and transition probabilities = counts
plus a pseudocount (1 and 0.5), normalised; Viterbi over runs of epochs
split where no fix falls for more than 120 s. With --fit the counts are
fitted on the given days; with --counts FILE (JSON) they are read.

Standard library only. Usage:
  transport_modes.py --truth DIR --gpx GPX... [--palms CSV] [--fit]
"""
import argparse
import collections
import csv
import datetime
import glob
import json
import math
import os
import re
import statistics
from zoneinfo import ZoneInfo

CLASSES = ["walk", "cycle", "vehicle", "stationary"]
OBSERVED = {"Walk": "walk", "In-Out Walk": "walk", "Bike": "cycle", "Car": "vehicle", "Bus": "vehicle",
            "Stand": "stationary", "Sit": "stationary", "Some Movement": "stationary"}
PALMS = {"pedestrian": "walk", "bicycle": "cycle", "vehicle": "vehicle", "stationary": "stationary"}
EDGES = [0.2, 0.4, 0.7, 1.0, 1.5, 2.0, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 10, 13, 17, 25]
EPOCH = 30


def vincenty(lat1, lon1, lat2, lon2):
    """WGS-84 inverse geodesic distance, metres (Vincenty 1975)."""
    a, f = 6378137.0, 1 / 298.257223563
    b = a * (1 - f)
    if lat1 == lat2 and lon1 == lon2:
        return 0.0
    L = math.radians(lon2 - lon1)
    U1 = math.atan((1 - f) * math.tan(math.radians(lat1)))
    U2 = math.atan((1 - f) * math.tan(math.radians(lat2)))
    sU1, cU1, sU2, cU2 = math.sin(U1), math.cos(U1), math.sin(U2), math.cos(U2)
    lam = L
    for _ in range(200):
        sl, cl = math.sin(lam), math.cos(lam)
        ss = math.hypot(cU2 * sl, cU1 * sU2 - sU1 * cU2 * cl)
        if ss == 0:
            return 0.0
        cs = sU1 * sU2 + cU1 * cU2 * cl
        sig = math.atan2(ss, cs)
        sa = cU1 * cU2 * sl / ss
        c2a = 1 - sa * sa
        c2sm = cs - 2 * sU1 * sU2 / c2a if c2a != 0 else 0.0
        C = f / 16 * c2a * (4 + f * (4 - 3 * c2a))
        prev = lam
        lam = L + (1 - C) * f * sa * (sig + C * ss * (c2sm + C * cs * (-1 + 2 * c2sm * c2sm)))
        if abs(lam - prev) < 1e-12:
            break
    u2 = c2a * (a * a - b * b) / (b * b)
    A = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
    B = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
    ds = B * ss * (c2sm + B / 4 * (cs * (-1 + 2 * c2sm * c2sm) - B / 6 * c2sm * (-3 + 4 * ss * ss) * (-3 + 4 * c2sm * c2sm)))
    return b * A * (sig - ds)


def truth_epochs(path, tz):
    seconds = collections.defaultdict(collections.Counter)
    with open(path, encoding="latin-1", newline="") as f:
        for r in csv.DictReader(f):
            m, d, y = map(int, r["Date"].split("/"))
            hh, mm, ss = map(int, r["Time"].split(":"))
            t = datetime.datetime(y, m, d, hh, mm, ss, tzinfo=tz).timestamp()
            seconds[int(t // EPOCH * EPOCH)][OBSERVED.get(r["Mode"].strip())] += 1
    out = {}
    for e, c in seconds.items():
        known = [k for k in CLASSES if c[k] > 0]
        best = max(known, key=lambda k: (c[k], -CLASSES.index(k)), default=None)
        out[e] = best if best is not None and c[best] >= 16 else None
    return out


def fixes(path):
    text = open(path, encoding="utf-8-sig").read()
    out = []
    for lat, lon, body in re.findall(r'<trkpt lat="([^"]+)" lon="([^"]+)">(.*?)</trkpt>', text, re.S):
        t = re.search(r"<time>([^<]+)</time>", body).group(1)
        out.append((datetime.datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp(), float(lat), float(lon)))
    return out


def epoch_speeds(fx):
    speeds, present = collections.defaultdict(list), set()
    for i, (t, lat, lon) in enumerate(fx):
        present.add(int(t // EPOCH * EPOCH))
        if i == 0:
            continue
        dt = t - fx[i - 1][0]
        if not 0 < dt <= 60:
            continue
        # Back along steps of at most 60 s until the baseline is 5 s long.
        j = i - 1
        while t - fx[j][0] < 5 and j > 0 and 0 < fx[j][0] - fx[j - 1][0] <= 60:
            j -= 1
        t0, lat0, lon0 = fx[j]
        # The step counts in the epoch holding its middle.
        middle = (fx[i - 1][0] + t) / 2
        speeds[int(middle // EPOCH * EPOCH)].append(vincenty(lat0, lon0, lat, lon) / (t - t0))
    epochs = sorted(present | set(speeds))
    return {e: (statistics.median(speeds[e]) if speeds[e] else None) for e in epochs}, present


def bin_of(v):
    return next((i for i, x in enumerate(EDGES) if v < x), len(EDGES))


def fit(tracks, truth):
    emit = [[0] * (len(EDGES) + 1) for _ in CLASSES]
    trans = [[0] * len(CLASSES) for _ in CLASSES]
    for sp in tracks:
        prev = None
        for e, v in sp.items():
            t = truth.get(e)
            if t is not None and v is not None:
                emit[CLASSES.index(t)][bin_of(v)] += 1
            if t is not None and prev is not None and e - prev[0] == EPOCH:
                trans[prev[1]][CLASSES.index(t)] += 1
            prev = (e, CLASSES.index(t)) if t is not None else None
    return emit, trans


def decode(sp, emit, trans):
    E = [[math.log((x + 1) / (sum(row) + len(row))) for x in row] for row in emit]
    T = [[math.log((x + 0.5) / (sum(row) + 0.5 * len(row))) for x in row] for row in trans]
    n = len(CLASSES)
    epochs = list(sp)
    runs, cur = [], []
    for e in epochs:
        if cur and e - cur[-1] > 120:
            runs.append(cur)
            cur = []
        cur.append(e)
    if cur:
        runs.append(cur)
    out = {}
    for run in runs:
        def em(s, e):
            return 0.0 if sp[e] is None else E[s][bin_of(sp[e])]
        score = [em(s, run[0]) for s in range(n)]
        back = []
        for e in run[1:]:
            nxt, frm = [], []
            for j in range(n):
                best = max(range(n), key=lambda i: (score[i] + T[i][j], -i))
                nxt.append(score[best] + T[best][j] + em(j, e))
                frm.append(best)
            back.append(frm)
            score = nxt
        s = max(range(n), key=lambda i: (score[i], -i))
        seq = [s]
        for frm in reversed(back):
            s = frm[s]
            seq.append(s)
        for e, s in zip(run, reversed(seq)):
            out[e] = CLASSES[s]
    return out


def score(truth, with_fix, predicted):
    conf = collections.Counter()
    for e, t in truth.items():
        if t is None or e not in with_fix:
            continue
        conf[(t, predicted.get(e))] += 1
    moving = sum(v for (t, _), v in conf.items() if t != "stationary")
    right = sum(conf[(c, c)] for c in CLASSES[:3])
    walking = sum(v for (t, _), v in conf.items() if t == "walk")
    return {"epochs": sum(conf.values()), "moving_epochs": moving,
            "moving_accuracy": right / moving if moving else None,
            "walk_as_cycle": conf[("walk", "cycle")] / walking if walking else None,
            "confusion": {t: [conf[(t, p)] for p in CLASSES + [None]] for t in CLASSES}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--truth", required=True)
    ap.add_argument("--gpx", nargs="+", required=True)
    ap.add_argument("--palms")
    ap.add_argument("--tz", default="America/Los_Angeles")
    ap.add_argument("--counts", help="JSON {emission: [[...]], transition: [[...]]}")
    args = ap.parse_args()
    tz = ZoneInfo(args.tz)
    truth = {}
    for p in sorted(glob.glob(os.path.join(args.truth, "*.csv"))):
        for e, t in truth_epochs(p, tz).items():
            truth.setdefault(e, t)
    read = [epoch_speeds(fixes(p)) for p in args.gpx]
    tracks = [sp for sp, _ in read]
    with_fix = set(e for _, present in read for e in present)
    result = {}
    if args.counts:
        c = json.load(open(args.counts))
        emit, trans = c["emission"], c["transition"]
    else:
        emit, trans = fit(tracks, truth)
        result["fitted"] = {"emission": emit, "transition": trans}
    predicted = {}
    for sp in tracks:
        predicted.update(decode(sp, emit, trans))
    result["energylab"] = score(truth, with_fix, predicted)
    if args.palms:
        labels = {}
        with open(args.palms, newline="") as f:
            for r in csv.DictReader(f):
                t = datetime.datetime.strptime(r["dateTime"][:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=tz).timestamp()
                labels[int(t // EPOCH * EPOCH)] = PALMS.get(r["tripMode"])
        result["palms"] = score(truth, with_fix, labels)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
