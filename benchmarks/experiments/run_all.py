"""Run every experiment in turn; each writes NAME.png and NAME.txt into --out.

    PYTHONPATH=. python benchmarks/experiments/run_all.py [--quick] [--out DIR] [--only NAME ...]

Each experiment runs as its own process (so its text records its own command)
and a failure does not stop the others; the exit code is 1 if any failed.
Times of the last full run on the 2-core development machine: see
docs/experiments.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

#: In the order of the paper's figures, then accuracy and speed.
EXPERIMENTS = ("fig3_4_keyspace", "fig6_7_tolerance", "fig8_formats", "fig9_simfind_time",
               "accuracy", "speed")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smaller, faster runs")
    p.add_argument("--out", help="folder for the figures and texts (default: docs/experiments)")
    p.add_argument("--only", nargs="+", choices=EXPERIMENTS, metavar="NAME",
                   help=f"run only these ({', '.join(EXPERIMENTS)})")
    args = p.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MPLBACKEND="Agg")
    times, failed = [], []
    start = time.perf_counter()
    for name in args.only or EXPERIMENTS:
        cmd = [sys.executable, os.path.join("benchmarks", "experiments", name + ".py")]
        cmd += (["--out", os.path.abspath(args.out)] if args.out else []) \
            + (["--quick"] if args.quick else [])
        print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
        t = time.perf_counter()
        code = subprocess.run(cmd, cwd=ROOT, env=env).returncode
        times.append((name, time.perf_counter() - t, code))
        if code:
            failed.append(name)
    print("\n=== summary")
    for name, seconds, code in times:
        print(f"  {name:<20} {seconds:7.0f} s  {'ok' if code == 0 else f'FAILED (exit {code})'}")
    print(f"  {'all':<20} {time.perf_counter() - start:7.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
