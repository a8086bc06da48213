#!/usr/bin/env python3
"""A generated study: N week-long Axivity CWA recordings made of the real
blocks of the shipped `ax3_testfile.cwa`, with varied wear, non-wear,
sampling rate and length, and a few corrupt, truncated or broken files.

Each recording is written block by block as the CWA structs (OpenMovement
`cwa.h`) lay them out; what is taken from the real file and what is set:

- the 1024-byte header is the real one, with the rate code @36 set to the
  recording's rate;
- a worn block is one of the real file's 145 data blocks, in turn: its
  packed samples (a wrist in motion), light and temperature as recorded;
- a not-worn block is a real block whose 120 packed samples are all one
  word, x = y = 0, z = +1 g (256 in 1/256 g): a device lying still;
- every block is timed afresh: block i starts at t_i = start + 120 i / rate;
  @14 holds the next whole second T_i = ceil(t_i), @26 (timestampOffset)
  the sample index at T_i, (T_i - t_i) * rate, a whole number because
  120 / rate is a multiple of 1/rate, and @4 (deviceFractional) is 0 (no
  fraction), so a reader times sample k at T_i + (k - offset) / rate;
- @10 sequenceId is i, @24 the rate code, and @510 the checksum, set so
  that the block's 256 little-endian words sum to 0 (mod 2^16).

What varies, drawn per recording from a seeded generator (`--seed`):
- length: 7 days, or 5 to 8 days for one in five;
- start: a random day in 2023 and a random hour;
- rate: 100 Hz, or 50 Hz for about one in seven (the header and every
  block say which);
- non-wear: taken off every night 23:00-07:00 (one in three), one to three
  spans of 1 to 12 h at random times, and, for one in ten, no wear after
  day 3;
- damage, by position so that every study of 40 or more has each kind:
  recording 13 of every 40 has five blocks with a wrong checksum (read,
  those blocks skipped and counted); recording 27 of every 40 is cut off
  two thirds of the way, in the middle of a block (read up to there, with
  a warning); recording 71 of every 100 has its header's "MD" overwritten
  (no CWA file: it fails alone).

A 7-day 100 Hz recording is 504,000 blocks, 258 MB; a study of N averages
about 0.24 GB per recording.

Usage: python3 Benchmarks/study_gen.py OUT_DIR N [--seed S]
(importable: `generate(out_dir, n, seed)` returns the recordings' plans).
Needs numpy.
"""
import argparse
import datetime
import json
import os
import random
import sys

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.exit("study_gen.py needs numpy (pip install numpy)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "Datasets", "device-files", "ax3_testfile.cwa")
HEADER = 1024
BLOCK = 512
SAMPLES = 120
RATE_CODES = {100: 10, 50: 9}  # Hz = 3200 / 2^(15 - code)
STILL_WORD = 256 << 20  # packed: exponent 0, z = 256 (1 g), y = x = 0


def source_blocks(path=SOURCE):
    with open(path, "rb") as f:
        data = f.read()
    header = bytearray(data[:HEADER])
    body = np.frombuffer(data[HEADER:], dtype=np.uint8)
    count = len(body) // BLOCK
    blocks = body[: count * BLOCK].reshape(count, BLOCK).copy()
    if not all(bytes(b[:2]) == b"AX" for b in blocks):
        sys.exit(f"{path}: not all data blocks")
    return header, blocks


def packed_stamps(seconds):
    """Packed CWA date-times (YYYYYYMM MMDDDDDh hhhhmmmm mmssssss, year -
    2000) of whole seconds since 1970, vectorised."""
    t = np.asarray(seconds, dtype="int64").astype("datetime64[s]")
    years = t.astype("datetime64[Y]").astype(np.int64) + 1970
    months = t.astype("datetime64[M]").astype(np.int64) % 12 + 1
    days = (t - t.astype("datetime64[M]")).astype("timedelta64[D]").astype(np.int64) + 1
    of_day = (t - t.astype("datetime64[D]")).astype(np.int64)
    hours, minutes, secs = of_day // 3600, of_day // 60 % 60, of_day % 60
    return ((years - 2000) << 26 | months << 22 | days << 17 | hours << 12 | minutes << 6 | secs).astype(np.uint32)


def plan(index, rng, scale=1.0):
    """What recording `index` is: its length, start, rate, non-wear spans
    (s from the start) and damage. `scale` shortens every length (a quick
    trial of the pipeline, never a benchmark)."""
    days = (7.0 if rng.random() >= 0.2 else rng.choice([5.0, 6.0, 8.0])) * scale
    start = datetime.datetime(2023, 1, 1) + datetime.timedelta(days=rng.randrange(365), hours=rng.randrange(24))
    rate = 50 if rng.random() < 1 / 7 else 100
    length = days * 86400
    spans = []
    if rng.random() < 1 / 3:
        night = start.replace(hour=23, minute=0, second=0)
        while (night - start).total_seconds() < length:
            a = (night - start).total_seconds()
            spans.append((max(0.0, a), min(length, a + 8 * 3600)))
            night += datetime.timedelta(days=1)
    for _ in range(rng.randint(1, 3)):
        a = rng.uniform(0, length)
        spans.append((a, min(length, a + rng.uniform(1, 12) * 3600)))
    if rng.random() < 0.1:
        spans.append((3 * 86400.0, length))
    damage = None
    if index % 40 == 13:
        damage = "checksums"
    elif index % 40 == 27:
        damage = "truncated"
    elif index % 100 == 71:
        damage = "header"
    return {
        "file": f"P{index:05d}/wrist.cwa", "days": days, "start": start.isoformat(), "rate_hz": rate,
        "non_wear_s": sorted(spans), "damage": damage,
    }


def write(out, p, header, blocks, rng):
    rate = p["rate_hz"]
    per_block = SAMPLES / rate
    n = int(p["days"] * 86400 / per_block)
    start = datetime.datetime.fromisoformat(p["start"]).replace(tzinfo=datetime.timezone.utc).timestamp()
    out_blocks = blocks[np.arange(n) % len(blocks)]
    # Block starts in whole samples from the start, then seconds.
    starts_in_samples = np.arange(n, dtype=np.int64) * SAMPLES
    t = start + starts_in_samples / rate
    whole = np.ceil(t).astype(np.int64)
    offsets = np.rint((whole - t) * rate).astype(np.int64)
    relative = starts_in_samples / rate
    still = np.zeros(n, dtype=bool)
    for a, b in p["non_wear_s"]:
        still |= (relative >= a) & (relative < b)
    words = out_blocks[:, 30:510].view("<u4")
    words[still] = STILL_WORD
    view16 = out_blocks.view("<u2")
    out_blocks[:, 4:6] = 0
    out_blocks[:, 10:14] = np.arange(n, dtype="<u4").view(np.uint8).reshape(n, 4)
    out_blocks[:, 14:18] = packed_stamps(whole).astype("<u4").view(np.uint8).reshape(n, 4)
    out_blocks[:, 24] = (out_blocks[:, 24] & 0xF0) | RATE_CODES[rate]
    out_blocks[:, 26:28] = offsets.astype("<i2").view(np.uint8).reshape(n, 2)
    view16[:, 255] = 0
    view16[:, 255] = (-view16[:, :255].sum(axis=1, dtype=np.int64)) & 0xFFFF
    if p["damage"] == "checksums":
        for k in rng.sample(range(n), 5):
            view16[k, 255] ^= 0x5A5A
    head = bytearray(header)
    head[36] = (head[36] & 0xF0) | RATE_CODES[rate]
    if p["damage"] == "header":
        head[0:2] = b"XX"
    data = out_blocks.tobytes()
    if p["damage"] == "truncated":
        data = data[: (2 * n // 3) * BLOCK + BLOCK // 2]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out + ".tmp", "wb") as f:
        f.write(head)
        f.write(data)
    os.replace(out + ".tmp", out)
    return n


def generate(out_dir, n, seed=1, scale=1.0):
    header, blocks = source_blocks()
    rng = random.Random(seed)
    plans = []
    for index in range(n):
        p = plan(index, rng, scale)
        p["blocks"] = write(os.path.join(out_dir, p["file"]), p, header, blocks, rng)
        plans.append(p)
    with open(os.path.join(out_dir, "study-plan.json"), "w") as f:
        json.dump({"seed": seed, "scale": scale, "source": os.path.relpath(SOURCE, ROOT), "recordings": plans}, f, indent=1)
    return plans


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0, help="shorten every recording (trials only)")
    args = parser.parse_args()
    started = datetime.datetime.now()
    plans = generate(args.out_dir, args.n, args.seed, args.scale)
    size = sum(os.path.getsize(os.path.join(args.out_dir, p["file"])) for p in plans)
    print(f"{args.out_dir}: {len(plans)} recordings, {size / 1e9:.1f} GB in "
          f"{(datetime.datetime.now() - started).total_seconds():.0f} s")
