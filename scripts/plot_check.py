#!/usr/bin/env python3
"""Checks the data CSV that scripts/plot.py writes beside a sweep or compare figure (ctest).

  scripts/plot_check.py FIG.csv [--rows N] [--series N] [--increasing COLUMN [--line A,B,...]]
                         [--columns A,B,...]

--rows: the file holds exactly N data rows (one per point, bar or summary row drawn);
--series: exactly N distinct values in the `series` column (lines or bars a legend tells apart);
--increasing: along every line COLUMN rises strictly, row by row (a line drawn in x order that
never turns back, and no two points of one line at the same x: what two patterns or two VC
counts joined into one line would break); a line is the rows with the same values in the --line
columns (default: series; with one row of panels per network, e.g. topology,profile,series);
--columns: the header has each of these columns.
Prints one line per failed check and exits 1 if any failed. Standard library only.
"""
import argparse
import csv
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--rows", type=int)
    ap.add_argument("--series", type=int)
    ap.add_argument("--increasing")
    ap.add_argument("--line", default="series")
    ap.add_argument("--columns", default="")
    a = ap.parse_args()
    try:
        with open(a.csv, newline="") as f:
            rows = list(csv.DictReader(f))
            header = rows[0].keys() if rows else []
    except OSError as e:
        sys.exit(f"FAIL {a.csv}: {e}")
    bad = []
    line = a.line.split(",")
    for c in [c for c in a.columns.split(",") if c] + ([a.increasing] + line if a.increasing else []):
        if c not in header:
            bad.append(f"no column {c} (columns: {', '.join(header)})")
    if a.rows is not None and len(rows) != a.rows:
        bad.append(f"{len(rows)} rows, expected {a.rows}")
    series = list(dict.fromkeys(r.get("series") for r in rows))
    if a.series is not None and len(series) != a.series:
        bad.append(f"{len(series)} series, expected {a.series}: {series}")
    if a.increasing and all(c in header for c in [a.increasing] + line):
        last = {}
        for r in rows:
            x = float(r[a.increasing])
            s = ", ".join(r[c] for c in line)
            if s in last and not x > last[s]:
                bad.append(f"line '{s}': {a.increasing} {x:g} after {last[s]:g}")
            last[s] = x
    for b in bad:
        print(f"FAIL {a.csv}: {b}")
    if not bad:
        print(f"ok {a.csv}: {len(rows)} rows, {len(series)} series")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
