#!/usr/bin/env python3
"""Engines of several builds against the raw SQLite program, in rounds: each round runs every given
`iapsim-bench` (engine, 500 cycles) and then bench/engine.c's program once, and each engine is taken as a share of
its own round's raw run. A run on a disk moves by a tenth from the next; the rounds' own ratios let that drift move
both sides alike. Prints, for each build, the median share and its quartiles, then the raw program's median.

usage: bench/engine-rounds.py ROUNDS IAPSIM_BENCH... [--dir DIR] [--plain]
  DIR: where both write (default .build-bench); --plain: one line per build, "ENGINE RAW SHARE LOW HIGH" (medians of
  cycles/s, the share and its quartiles in percent), as scripts/bench reads it.
Needs DIR/engine-sqlite, as scripts/bench builds it (cc -O2 -o DIR/engine-sqlite bench/engine.c -lsqlite3)."""
import argparse
import os
import statistics
import subprocess
import sys


def run(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"iapsim: {command[0]} cannot run ({error.strerror}): give the path of a built iapsim-bench")
    if done.returncode != 0:
        sys.exit(f"iapsim: {command[0]} failed ({done.returncode}): {done.stderr.strip()[:200]}")
    return float(done.stdout.split()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds")
    parser.add_argument("benches", nargs="+")
    parser.add_argument("--dir", default=".build-bench")
    parser.add_argument("--plain", action="store_true")
    args = parser.parse_args()
    if not args.rounds.isdigit() or int(args.rounds) < 1:
        sys.exit(f"iapsim: {args.rounds!r} is not a number of rounds: give a whole number, 1 or more")
    rounds = int(args.rounds)
    raw_program = os.path.join(args.dir, "engine-sqlite")
    if not os.access(raw_program, os.X_OK):
        sys.exit(f"iapsim: {raw_program} is missing: build it with cc -O2 -o {raw_program} bench/engine.c -lsqlite3")
    os.makedirs(os.path.join(args.dir, "engine-raw"), exist_ok=True)
    engines = {bench: [] for bench in args.benches}
    raws = []
    for _ in range(rounds):
        for bench, cycles in engines.items():
            cycles.append(run([bench, "engine", "--cycles", "500", "--data-dir", os.path.join(args.dir, "engine-rounds")]))
        raws.append(run([raw_program, os.path.join(args.dir, "engine-raw"), "500"]))
    shares = {bench: [engine / raw for engine, raw in zip(cycles, raws)] for bench, cycles in engines.items()}
    for bench, values in shares.items():
        q = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
        if args.plain:
            print(f"{statistics.median(engines[bench]):.1f} {statistics.median(raws):.1f} {100 * statistics.median(values):.0f}"
                  f" {100 * q[0]:.0f} {100 * q[2]:.0f}")
        else:
            print(f"{bench}: {100 * statistics.median(values):.1f}% of raw (quartiles {100 * q[0]:.1f}–{100 * q[2]:.1f}%)")
    if not args.plain:
        print(f"raw SQLite: {statistics.median(raws):.1f} cycles/s (median of {len(raws)})")


if __name__ == "__main__":
    main()
