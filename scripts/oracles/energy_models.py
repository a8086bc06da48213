#!/usr/bin/env python3
"""Independent figures for the models of issue 46 items 3-6, written from
the published equations (not from EnergyLab's code):

- `osgnach`: metabolic power of accelerated running (di Prampero et al.
  2005, J Exp Biol 208:2809-2816; Osgnach et al. 2010, Med Sci Sports
  Exerc 42:170-178): ES = a/g, EM = sqrt(ES^2 + 1),
  C = (155.4 ES^5 - 30.4 ES^4 - 43.3 ES^3 + 46.3 ES^2 + 19.5 ES + 3.6) EM KT,
  P = C v, plus rest (3.5 mL/kg/min at 5 kcal/L) as EnergyLab reports
  gross energy; beyond ES +-0.45 the cost keeps the vertical efficiency
  g i / C(i) of the fit's end (Minetti et al. 2002).
- `shuttle`: the same over a made-up 1 Hz shuttle run (speeds below),
  a = (v_k - v_{k-1}) / dt with v_{-1} = 0.
- `minetti`: Minetti et al. 2002 costs and the vertical-efficiency
  extension at chosen gradients.
- `swain`: heart-rate reserve as VO2 reserve (Swain & Leutholtz 1997
  identity; Swain et al. 1998 treadmill line %HRR = 1.03 %VO2R + 1.5).
- `power-fit FILE --mass KG`: energy of a FIT ride from its power records
  on the ACSM leg-ergometry line (kcal/min = 1.8 x 6.12 x P x 5 / 1000 +
  7 x M x 5 / 1000 for P > 0, rest at 0 W), over steps between consecutive
  records with a position and a time, each step's power the mean of its
  two records' (needs fitdecode).

Run: python3 scripts/oracles/energy_models.py osgnach
     python3 -m venv /tmp/v && /tmp/v/bin/pip install fitdecode
     /tmp/v/bin/python scripts/oracles/energy_models.py power-fit FILE --mass 70
"""
import argparse
import math

G = 9.80665
KCAL_J = 4184.0
REST_W_KG = 3.5 / 1000 * 5 * KCAL_J / 60  # 3.5 mL/kg/min as W/kg


def minetti_run(i):
    return 155.4 * i**5 - 30.4 * i**4 - 43.3 * i**3 + 46.3 * i**2 + 19.5 * i + 3.6


def minetti_walk(i):
    return 280.5 * i**5 - 58.7 * i**4 - 76.8 * i**3 + 51.9 * i**2 + 19.6 * i + 2.5


def extended(poly, i):
    if -0.45 <= i <= 0.45:
        return poly(i)
    end = 0.45 if i > 0 else -0.45
    efficiency = G * end / poly(end)  # held beyond the fit
    return G * i / efficiency


def osgnach_w_kg(v, v0, dt, kt=1.29):
    a = (v - v0) / dt if dt > 0 else 0.0
    es = a / G
    em = math.sqrt(es * es + 1)
    return extended(minetti_run, es) * em * kt * v + REST_W_KG


def kcal_min(w_kg, mass):
    return w_kg * mass * 60 / KCAL_J


SHUTTLE = [0.0, 1.5, 3.0, 4.2, 5.0, 5.0, 3.5, 1.5, 0.5, 1.8, 3.4, 4.6, 5.2, 4.0, 2.0, 0.6, 0.0, 0.0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["osgnach", "shuttle", "minetti", "swain", "power-fit"])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--mass", type=float, default=70.0)
    args = parser.parse_args()
    if args.what == "osgnach":
        for v, v0, dt, kt in [(4, 4, 1, 1.29), (4, 2, 1, 1.29), (3, 5, 1, 1.29), (6, 0, 1, 1.29), (4, 2, 1, 1.0)]:
            w = osgnach_w_kg(v, v0, dt, kt)
            print(f"v={v} v0={v0} dt={dt} KT={kt}: {w:.6f} W/kg, {kcal_min(w, args.mass):.6f} kcal/min")
    elif args.what == "shuttle":
        total = 0.0
        previous = 0.0
        for v in SHUTTLE:
            total += kcal_min(osgnach_w_kg(v, previous, 1.0), args.mass) / 60
            previous = v
        print(f"shuttle of {len(SHUTTLE)} 1 s steps, {args.mass} kg: {total:.6f} kcal")
    elif args.what == "minetti":
        for i in [0.45, 0.6, -0.45, -0.6]:
            print(
                f"i={i}: walk {minetti_walk(i):.6f} -> {extended(minetti_walk, i):.6f}, "
                f"run {minetti_run(i):.6f} -> {extended(minetti_run, i):.6f} J/kg/m"
            )
    elif args.what == "swain":
        for hr, rest, hrmax, vo2max in [(140, 60, 187, 50), (140, 60, 190, 50), (55, 60, 187, 50)]:
            share = (hr - rest) / (hrmax - rest)
            identity = 3.5 + share * (vo2max - 3.5)
            treadmill = 3.5 + (100 * share - 1.5) / 1.03 / 100 * (vo2max - 3.5)
            print(f"HR {hr} rest {rest} max {hrmax} VO2max {vo2max}: 1997 {identity:.6f}, 1998 {treadmill:.6f} mL/kg/min")
    else:
        import fitdecode

        records = []
        with fitdecode.FitReader(args.file, check_crc=fitdecode.CrcCheck.DISABLED) as reader:
            for frame in reader:
                if not isinstance(frame, fitdecode.FitDataMessage) or frame.name != "record":
                    continue
                def value(name):
                    return frame.get_value(name) if frame.has_field(name) else None
                t = value("timestamp")
                lat = value("position_lat")
                if t is None or lat is None:
                    continue
                records.append((t.timestamp(), value("power")))
        line = 0.0
        constant = 0.0
        rest = 3.5 * args.mass / 1000 * 5
        steps = 0
        for (t0, p0), (t1, p1) in zip(records, records[1:]):
            dt = t1 - t0
            if dt <= 0 or p0 is None or p1 is None:
                continue
            steps += 1
            p = (p0 + p1) / 2
            rate = 1.8 * 6.12 * p * 5 / 1000 + 7 * args.mass * 5 / 1000 if p > 0 else 0.0
            line += max(rate, rest) * dt / 60
            constant += max(p * 60 / KCAL_J / 0.198, rest) * dt / 60
        print(f"{steps} steps with power; line {line:.2f} kcal; constant GE 0.198 {constant:.2f} kcal")


if __name__ == "__main__":
    main()
