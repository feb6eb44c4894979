#!/usr/bin/env python3
"""The CM-200 tables of Mathur & Johnsson against the cm200 profile (docs/papers/hypercube.md).

  scripts/cm200_tables.py [--max-dim 9] [--out DIR] [--reuse] [--wormnet build/wormnet]

Runs `wormnet run --profile cm200 --ports all --index-cycles 0` (communication
alone: the tables' AABC / Comm. columns exclude index work, reordering and, with
--combine-cycles 0 for the reductions, the arithmetic) for
the single cycle and the d cycles, broadcast and reduction, and prints the
paper's milliseconds beside wormnet's with the difference. The one entry the
profile's multi-port constant was fitted on (Table 8, d cycles, N = 16) is
marked "fitted"; every other entry is held out. Writes DIR/cm200.json.
"""
import json
import os

from script_runs import cached_report, table_parser
NODES = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
WORDS = [4, 8, 16, 32, 64, 128, 256, 512, 1024]
# (table, algorithm, what varies, fixed value, the paper's ms by the varying value)
TABLES = [
    ("Table 8, d AABC (M' = 256)", "hc-dcycles", "N", 256,
     [5.84, 9.47, 15.31, 24.97, 42.69, 74.59, 132.10, 229.20, 434.00]),
    ("Table 8, 1-cyc AABC (M' = 256)", "hc-single", "N", 256,
     [2.93, 8.80, 20.54, 44.05, 91.08, 185.10, 373.40, 750.20, 1504.00]),
    ("Table 7, d AABC (M' = 128)", "hc-dcycles", "N", 128,
     [2.95, 4.79, 7.90, 12.64, 21.64, 37.82, 69.90, 116.50, 232.40, 416.40, 738.40]),
    ("Table 4, d AABC (N = 16)", "hc-dcycles", "M'", 16, [1.00, 1.10, 1.85, 3.35, 6.41, 12.55, 24.82, 49.43, 98.49]),
    ("Table 4, 1-cyc AABC (N = 16)", "hc-single", "M'", 16,
     [1.00, 1.66, 3.03, 5.76, 11.21, 22.13, 43.97, 87.63, 175.00]),
    ("Table 13, d Comm. (N = 16)", "hc-dcycles-reduce", "M'", 16,
     [1.11, 1.22, 2.03, 3.61, 6.88, 13.48, 26.66, 53.04, 105.70]),
    ("Table 13, 1-cyc Comm. (N = 16)", "hc-single-reduce", "M'", 16,
     [1.07, 1.74, 3.10, 5.83, 11.29, 22.20, 44.03, 87.70, 175.00]),
    ("Table 14, d Comm. (M' = 256)", "hc-dcycles-reduce", "N", 256,
     [11.30, 12.81, 17.55, 26.63, 44.00, 75.65, 133.00, 229.70]),
]
FITTED = ("Table 8, d AABC (M' = 256)", 16)


def run(wormnet, algo, nodes, mprime, out, reuse):
    d = nodes.bit_length() - 1
    path = os.path.join(out, f"{algo}_cube{d}_m{mprime}.json")
    cmd = [wormnet, "run", "--topology", f"cube:{d}", "--ports", "all", "--algorithm", algo, "--profile", "cm200",
           "--index-cycles", "0", "--bytes", str(8 * mprime), "--json", path]
    if "reduce" in algo:
        cmd[-2:-2] = ["--combine-cycles", "0"]  # Comm. columns: the arithmetic is a column of its own
    return cached_report(cmd, path, reuse)["microseconds"] / 1000.0


def main():
    ap = table_parser(__doc__, "cm200_out")
    ap.add_argument("--max-dim", type=int, default=9)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for table, algo, vary, fixed, paper in TABLES:
        keys = NODES if vary == "N" else WORDS
        print(f"\n#### {table}: ms, paper | wormnet (difference)\n")
        print("| " + vary + " | " + " | ".join(str(k) for k in keys[:len(paper)]) + " |")
        print("|---|" + "---|" * len(paper))
        cells = []
        for k, p in zip(keys, paper):
            nodes, mprime = (k, fixed) if vary == "N" else (fixed, k)
            if nodes.bit_length() - 1 > a.max_dim:
                cells.append(f"{p:g} \\| not run")
                continue
            ms = run(a.wormnet, algo, nodes, mprime, a.out, a.reuse)
            diff = (ms - p) / p
            fitted = (table, k) == FITTED
            cells.append(f"{p:g} \\| {ms:.2f} ({diff:+.1%}){' fitted' if fitted else ''}")
            rows.append({"table": table, "algorithm": algo, "nodes": nodes, "mprime": mprime, "paper_ms": p,
                         "wormnet_ms": ms, "difference": diff, "fitted": fitted})
        print("| " + table.split(",")[0] + " | " + " | ".join(cells) + " |")
    held = [r for r in rows if not r["fitted"]]
    within = sum(abs(r["difference"]) <= 0.10 for r in held)
    print(f"\nheld-out entries within 10 %: {within} of {len(held)}")
    with open(os.path.join(a.out, "cm200.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
