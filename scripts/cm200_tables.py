#!/usr/bin/env python3
"""The CM-200 tables of Mathur & Johnsson against the cm200 profile (docs/papers/hypercube.md).

  scripts/cm200_tables.py [--max-dim 8] [--jobs 2] [--out DIR] [--reuse] [--wormnet build/wormnet]
                          [--set FLAG=VALUE ...]

Runs `wormnet run --profile cm200 --ports all` for the single cycle and the d
cycles, broadcast and reduction, and prints the paper's milliseconds beside
wormnet's with the difference. A column is measured as the paper measured it:
communication alone (AABC, Comm.) with the local work switched off
(the index computation and --reorder-cycles 0, and --combine-cycles 0 for the
reductions); a local column (Indir., Comp., Move, Arith.) as what switching that work on
adds; totals with the profile as it is. Entries a cm200 constant was fitted on
are marked "fitted"; every other entry is held out. Writes DIR/cm200.json.
--set bytes-per-flit=4 --set clock-ns=5690 ... runs every column with those `wormnet run` flags on
top of the cm200 profile (a column's own local-work switches still win): a re-fit tried without
a new profile; the "fitted" marks stay the shipped profile's.
"""
import argparse
import json
import os
from concurrent.futures import ThreadPoolExecutor

from script_runs import cached_report, table_parser

NODES = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
WORDS = [4, 8, 16, 32, 64, 128, 256, 512, 1024]
# The index computation off: its per-word, per-operation and set-up parts (all but the first are 0 in
# cm200; --set may give them).
NO_INDEX = ("--index-cycles", "0", "--index-op-cycles", "0", "--index-setup-cycles", "0")
NO_LOCAL = NO_INDEX + ("--reorder-cycles", "0")
# A measurement: (algorithm, extra options); a column: (run, run subtracted or None).
COMM = {"d": (("hc-dcycles", NO_LOCAL), None), "1": (("hc-single", NO_LOCAL), None)}
COLUMNS = {
    "d AABC": COMM["d"],
    "1-cyc AABC": COMM["1"],
    "d Indir.": (("hc-dcycles", NO_INDEX), COMM["d"][0]),
    "1-cyc Indir.": (("hc-single", ()), COMM["1"][0]),
    "Comp.": (("hc-dcycles", ("--reorder-cycles", "0")), COMM["d"][0]),
    "Move": (("hc-dcycles", NO_LOCAL + ("--indices", "moved")), COMM["d"][0]),
    "Comp Total": (("hc-dcycles", ()), None),
    "Move Total": (("hc-dcycles", ("--indices", "moved")), None),
    "1-cyc Total": (("hc-single", ()), None),
    "d Comm.": (("hc-dcycles-reduce", NO_LOCAL + ("--combine-cycles", "0")), None),
    "1-cyc Comm.": (("hc-single-reduce", NO_LOCAL + ("--combine-cycles", "0")), None),
}
COLUMNS["d Arith."] = (("hc-dcycles-reduce", NO_LOCAL), COLUMNS["d Comm."][0])
COLUMNS["1-cyc Arith."] = (("hc-single-reduce", NO_LOCAL), COLUMNS["1-cyc Comm."][0])
# Table 18's rates: MB/s per node received, M'·8·(N − 1) bytes / T / 2^20, T the time of a column.
RATES = {"one cycle (no index/reorder)": "1-cyc AABC", "d cycles (no index/reorder)": "d AABC",
         "one cycle (index+reorder)": "1-cyc Total", "d cycles (index+reorder)": "Comp Total",
         "move index": "Move Total"}
COLUMNS.update({rate: COLUMNS[column] for rate, column in RATES.items()})
# (table, column, what varies, fixed value, the paper's ms by the varying value, fitted keys)
TABLES = [
    ("Table 8", "d AABC", "N", 256, [5.84, 9.47, 15.31, 24.97, 42.69, 74.59, 132.10, 229.20, 434.00], [16]),
    ("Table 8", "1-cyc AABC", "N", 256, [2.93, 8.80, 20.54, 44.05, 91.08, 185.10, 373.40, 750.20, 1504.00], []),
    ("Table 8", "d Indir.", "N", 256, [0.69, 1.38, 2.76, 5.52, 11.06, 22.11, 44.22, 88.41, 177.00], [16]),
    ("Table 8", "1-cyc Indir.", "N", 256, [0.54, 1.09, 2.18, 4.37, 8.75, 17.49, 34.98, 69.98, 140.00], []),
    ("Table 8", "Comp.", "N", 256, [2.54, 3.31, 5.74, 8.59, 21.58, 41.98, 88.37, 140.30, 369.70], [64, 128, 256, 512]),
    ("Table 8", "Move", "N", 256, [3.96, 5.79, 8.73, 13.60, 22.60, 38.79, 68.05, 117.10, 222.00], []),
    ("Table 8", "Comp Total", "N", 256, [9.07, 14.16, 23.81, 39.08, 75.33, 138.68, 264.69, 457.91, 980.70], []),
    ("Table 8", "Move Total", "N", 256, [10.49, 16.64, 26.80, 44.09, 76.35, 135.49, 244.37, 434.71, 833.00], []),
    ("Table 8", "1-cyc Total", "N", 256, [3.47, 9.89, 22.72, 48.42, 99.83, 202.59, 408.38, 820.18, 1644.00], []),
    ("Table 7", "d AABC", "N", 128,
     [2.95, 4.79, 7.90, 12.64, 21.64, 37.82, 69.90, 116.50, 232.40, 416.40, 738.40], []),
    ("Table 7", "d Indir.", "N", 128, [0.36, 0.72, 1.44, 2.88, 5.75, 11.50, 23.01, 46.01, 92.05, 184.10, 370.30], []),
    ("Table 7", "Comp.", "N", 128, [1.39, 1.85, 3.43, 5.30, 16.83, 35.56, 60.10, 119.50, 280.20, 727.80, 1973.00], []),
    ("Table 7", "Move", "N", 128, [2.05, 2.97, 4.56, 6.96, 11.60, 19.93, 36.49, 60.37, 120.80, 216.90, 386.00], []),
    ("Table 7", "Comp Total", "N", 128,
     [4.70, 7.36, 12.77, 20.82, 44.22, 84.88, 153.01, 282.01, 604.65, 1328.30, 3081.70], []),
    ("Table 7", "Move Total", "N", 128,
     [5.36, 8.48, 13.90, 22.48, 38.99, 69.25, 129.40, 222.88, 445.25, 817.40, 1494.70], []),
    ("Table 5", "d AABC", "N", 256, [5.70, 9.33, 15.16, 24.82, 42.51, 74.38, 131.80, 228.80], []),
    ("Table 5", "1-cyc AABC", "N", 256, [2.93, 8.79, 20.51, 43.97, 90.91, 184.80, 372.80, 748.80], []),
    ("Table 5", "1-cyc Indir.", "N", 256, [0.63, 1.24, 2.45, 4.88, 9.75, 19.47, 38.92, 77.80], []),
    ("Table 4", "d AABC", "M'", 16, [1.00, 1.10, 1.85, 3.35, 6.41, 12.55, 24.82, 49.43, 98.49], []),
    ("Table 4", "1-cyc AABC", "M'", 16, [1.00, 1.66, 3.03, 5.76, 11.21, 22.13, 43.97, 87.63, 175.00], []),
    ("Table 4", "d Indir.", "M'", 16, [0.57, 0.62, 0.73, 0.89, 1.55, 2.87, 5.52, 10.80, 21.38], []),
    ("Table 4", "1-cyc Indir.", "M'", 16, [1.17, 1.21, 1.31, 1.56, 2.03, 2.98, 4.88, 8.68, 16.27], []),
    ("Table 4", "Comp.", "M'", 16, [1.84, 3.52, 3.36, 3.39, 4.14, 5.24, 8.57, 15.44, 29.07], []),
    ("Table 13", "d Comm.", "M'", 16, [1.11, 1.22, 2.03, 3.61, 6.88, 13.48, 26.66, 53.04, 105.70], []),
    ("Table 13", "1-cyc Comm.", "M'", 16, [1.07, 1.74, 3.10, 5.83, 11.29, 22.20, 44.03, 87.70, 175.00], []),
    ("Table 13", "1-cyc Arith.", "M'", 16, [0.26, 0.30, 0.38, 0.51, 0.87, 1.60, 3.04, 5.96, 11.74], [256]),
    ("Table 13", "d Arith.", "M'", 16, [0.26, 0.30, 0.38, 0.51, 0.87, 1.61, 3.06, 5.97, 11.78], []),
    ("Table 14", "d Comm.", "N", 256, [11.30, 12.81, 17.55, 26.63, 44.00, 75.65, 133.00, 229.70], []),
    ("Table 14", "1-cyc Arith.", "N", 256, [0.20, 0.61, 1.43, 3.07, 6.33, 12.87, 25.94, 52.10], []),
    ("Table 17", "d Arith.", "N", 256, [0.22, 0.61, 1.43, 3.07, 6.35, 12.91, 26.03, 52.27], []),
    ("Table 18", "one cycle (no index/reorder)", "N", 128, [0.66] * 11, []),
    ("Table 18", "d cycles (no index/reorder)", "N", 128,
     [0.33, 0.61, 0.86, 1.16, 1.40, 1.62, 1.77, 2.13, 2.14, 2.40, 2.70], []),
    ("Table 18", "one cycle (index+reorder)", "N", 128, [0.52, 0.57, 0.59] + [0.60] * 8, []),
    ("Table 18", "d cycles (index+reorder)", "N", 128,
     [0.20, 0.39, 0.52, 0.68, 0.66, 0.70, 0.78, 0.85, 0.79, 0.73, 0.63], []),
    ("Table 18", "move index", "N", 128, [0.18, 0.34, 0.48, 0.63, 0.75, 0.85, 0.92, 1.07, 1.07, 1.16, 1.27], []),
]


def report_path(out, key, nodes, mprime, sets):
    algo, extra = key
    flags = [x for name, value in sorted(sets.items()) for x in (name, value)] + list(extra)
    tag = "_".join(x.strip("-").replace("-", "") for x in flags) or "profile"
    return os.path.join(out, f"{algo}_cube{nodes.bit_length() - 1}_m{mprime}_{tag}.json")


def command(wormnet, key, nodes, mprime, path, sets):
    algo, extra = key
    own = set(extra[0::2])  # a column's own switches win over --set
    profile = [x for name, value in sorted(sets.items()) if "--" + name not in own for x in ("--" + name, value)]
    return [wormnet, "run", "--topology", f"cube:{nodes.bit_length() - 1}", "--ports", "all", "--algorithm", algo,
            "--profile", "cm200", "--bytes", str(8 * mprime), *profile, *extra, "--json", path]


def parse_set(text):
    name, eq, value = text.partition("=")
    if not eq or not name or not value or name.startswith("-"):
        raise argparse.ArgumentTypeError(f"--set: '{text}' is not FLAG=VALUE (a wormnet run flag without its dashes)")
    return name, value


def main():
    ap = table_parser(__doc__, "cm200_out")
    ap.add_argument("--max-dim", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", type=parse_set, action="append", default=[], metavar="FLAG=VALUE",
                    help="a wormnet run flag for every run, e.g. bytes-per-flit=4 (repeatable)")
    a = ap.parse_args()
    sets = dict(a.set)
    os.makedirs(a.out, exist_ok=True)
    cells = []  # (table index, key, nodes, mprime, paper)
    for t, (_, _, vary, fixed, paper, _) in enumerate(TABLES):
        for k, p in zip(NODES if vary == "N" else WORDS, paper):
            nodes, mprime = (k, fixed) if vary == "N" else (fixed, k)
            cells.append((t, k, nodes, mprime, p))
    wanted = {}
    for t, _, nodes, mprime, _ in cells:
        if nodes.bit_length() - 1 > a.max_dim:
            continue
        for key in COLUMNS[TABLES[t][1]]:
            if key:
                path = report_path(a.out, key, nodes, mprime, sets)
                wanted[path] = command(a.wormnet, key, nodes, mprime, path, sets)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        reports = dict(zip(wanted, pool.map(lambda p: cached_report(wanted[p], p, a.reuse, ("microseconds",)),
                                            wanted)))

    def ms(key, nodes, mprime):
        return reports[report_path(a.out, key, nodes, mprime, sets)]["microseconds"] / 1000.0 if key else 0.0

    rows = []
    for t, (table, column, vary, fixed, paper, fitted_keys) in enumerate(TABLES):
        keys = (NODES if vary == "N" else WORDS)[:len(paper)]
        fixed_name = "M'" if vary == "N" else "N"
        unit = "MB/s per node" if column in RATES else "ms"
        print(f"\n#### {table}, {column} ({fixed_name} = {fixed}): {unit}, paper | wormnet (difference)\n")
        print("| " + vary + " | " + " | ".join(str(k) for k in keys) + " |")
        print("|---|" + "---|" * len(keys))
        line = []
        for tt, k, nodes, mprime, p in cells:
            if tt != t:
                continue
            if nodes.bit_length() - 1 > a.max_dim:
                line.append(f"{p:g} \\| not run")
                continue
            run, minus = COLUMNS[column]
            value = ms(run, nodes, mprime) - ms(minus, nodes, mprime)
            if column in RATES:
                value = mprime * 8 * (nodes - 1) / (value / 1000) / 2**20
            diff = (value - p) / p
            fitted = k in fitted_keys
            line.append(f"{p:g} \\| {value:.2f} ({diff:+.1%}){' fitted' if fitted else ''}")
            rows.append({"table": table, "column": column, "nodes": nodes, "mprime": mprime, "unit": unit,
                         "paper": p, "wormnet": value, "difference": diff, "fitted": fitted})
        print("| " + table + " | " + " | ".join(line) + " |")
    held = [r for r in rows if not r["fitted"]]
    times = [r for r in held if r["table"] != "Table 18"]
    within = sum(abs(r["difference"]) <= 0.10 for r in times)
    print(f"\nheld-out entries within 10 % (times; Table 18 restates Tables 7 and 8): {within} of {len(times)}")
    for name, comm in (("communication", True), ("local work and totals", False)):
        sel = [r for r in held if r["table"] != "Table 18"
               and ("AABC" in r["column"] or "Comm." in r["column"]) == comm]
        print(f"  {name}: {sum(abs(r['difference']) <= 0.10 for r in sel)} of {len(sel)}")
    with open(os.path.join(a.out, "cm200.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
