#!/usr/bin/env python3
"""`python3 -m wormnet validate FILE...`: check schedule files without the simulator.

Same contract as `wormnet run --schedule` on a bad file: one line on stderr with the file, the
JSON path and what is allowed, exit 2; so a script or a Makefile can check a hand-edited file
on a machine without the build.
"""
import argparse
import sys

from .schedule import Schedule
from ._value import ScheduleError
from .validate import OPERATORS


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m wormnet", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    v = sub.add_parser("validate", help="check wormnet.schedule/1 files (exit 2 on the first bad one)")
    v.add_argument("files", nargs="+")
    v.add_argument("--op", action="append", default=[], help="an operator registered in your C++ build")
    args = ap.parse_args(argv)
    for path in args.files:
        try:
            s = Schedule.load(path, operators=OPERATORS + tuple(args.op))
        except (ScheduleError, OSError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"{path}: ok: {s.name}, {s.ranks} ranks, {s.steps()} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
