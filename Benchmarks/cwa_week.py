#!/usr/bin/env python3
"""A 7-day 100 Hz Axivity CWA file made of the real blocks of a short one.

The shipped `ax3_testfile.cwa` (Axivity AX3, 100 Hz, ±8 g, 145 data blocks
of 120 packed samples, 176 s) is written again and again after its own
1024-byte header until the copies span `days`. Every copy keeps the
samples, fractions of a second and sample offsets of the real blocks; only
three fields change, as the CWA structs (OpenMovement `cwa.h`) lay them out:

- @10 sequenceId (uint32): the block's index in the new file;
- @14 timestamp (packed YYYYYYMM MMDDDDDh hhhhmmmm mmssssss, year + 2000):
  the real stamp moved on by `copy * period` whole seconds, where `period`
  is the copy's span (first block stamp to last block stamp plus one
  block) rounded up to a whole second, so copies follow each other without
  overlapping (the seam adds at most one second and one sample interval);
- @510 checksum: set again so that the block's 256 little-endian 16-bit
  words sum to 0 (mod 2^16).

Usage: python3 Benchmarks/cwa_week.py SOURCE.cwa OUT.cwa [DAYS]
(importable: `make_week(source, out, days)` returns the copies and blocks).
"""
import datetime
import math
import os
import struct
import sys

HEADER = 1024
BLOCK = 512


def unpack_time(v):
    """The packed CWA date-time as a naive datetime (the device's clock)."""
    return datetime.datetime(
        ((v >> 26) & 0x3F) + 2000, (v >> 22) & 0x0F, (v >> 17) & 0x1F, (v >> 12) & 0x1F, (v >> 6) & 0x3F, v & 0x3F
    )


def pack_time(t):
    return (
        (t.year - 2000) << 26 | t.month << 22 | t.day << 17 | t.hour << 12 | t.minute << 6 | t.second
    )


def stamp_seconds(block):
    """The block's stamp, s since the year 2000 of the device's clock, with
    its 15-bit fraction when the top bit of deviceFractional is set."""
    fractional = struct.unpack_from("<H", block, 4)[0]
    whole = unpack_time(struct.unpack_from("<I", block, 14)[0])
    fraction = (fractional & 0x7FFF) / 32768 if fractional & 0x8000 else 0.0
    return (whole - datetime.datetime(2000, 1, 1)).total_seconds() + fraction


def with_checksum(block):
    """The block with its last word set so that all its words sum to 0."""
    words = struct.unpack("<255H", bytes(block[:510]))
    return bytes(block[:510]) + struct.pack("<H", (-sum(words)) & 0xFFFF)


def make_week(source, out, days=7.0):
    with open(source, "rb") as f:
        data = f.read()
    header, body = data[:HEADER], data[HEADER:]
    blocks = [body[i : i + BLOCK] for i in range(0, len(body) - BLOCK + 1, BLOCK)]
    for i, b in enumerate(blocks):
        if b[:2] != b"AX" or sum(struct.unpack("<256H", b)) & 0xFFFF:
            sys.exit(f"{source}: block {i} is not a valid data block")
    first, last = stamp_seconds(blocks[0]), stamp_seconds(blocks[-1])
    per_block = (last - first) / (len(blocks) - 1)
    period = math.ceil(last - first + per_block)
    copies = math.ceil(days * 86400 / period)
    stamps = [unpack_time(struct.unpack_from("<I", b, 14)[0]) for b in blocks]
    index = 0
    with open(out + ".tmp", "wb") as f:
        f.write(header)
        for copy in range(copies):
            shift = datetime.timedelta(seconds=copy * period)
            chunk = bytearray()
            for b, stamp in zip(blocks, stamps):
                block = bytearray(b)
                struct.pack_into("<I", block, 10, index)
                struct.pack_into("<I", block, 14, pack_time(stamp + shift))
                chunk += with_checksum(block)
                index += 1
            f.write(chunk)
    os.replace(out + ".tmp", out)
    return copies, index, period


if __name__ == "__main__":
    days = float(sys.argv[3]) if len(sys.argv) > 3 else 7.0
    copies, blocks, period = make_week(sys.argv[1], sys.argv[2], days)
    print(f"{sys.argv[2]}: {copies} copies of {period} s, {blocks} blocks")
