#!/usr/bin/env python3
"""The hypercube comparison of Mathur & Johnsson's Tables 4-8, from wormnet.

  scripts/hypercube_table.py [--dims 2-8] [--mprime 8,64,256] [--profile cm200]
                             [--ports all] [--out DIR] [--reuse]

Runs `wormnet compare` on cube:d for every d and M' (elements of 8 bytes, the
paper's 64-bit words, so --bytes = 8*M'), prints markdown tables of
milliseconds (and efficiency vs the all-port lower bound), and writes
DIR/hypercube.json and DIR/hypercube.png (time vs d, one line per algorithm).
A size wormnet refuses (exit 2, e.g. the node-memory guard) becomes a "—" cell
with the reason below the table. --reuse takes DIR/cubeD_mM.json from an
earlier run (same options) instead of running it again: big cubes take minutes.
"""
import argparse
import json
import os
import subprocess
import sys

from debian_python import prefer_python_with

HERE = os.path.dirname(os.path.abspath(__file__))
BROADCAST = ["hc-single", "hc-dcycles", "butterfly", "nesbt", "send-spread"]
REDUCTION = ["hc-single-reduce", "hc-dcycles-reduce", "reduce-spread"]


def dims(spec):
    if "-" in spec:
        a, b = spec.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in spec.split(",")]


def run(wormnet, d, mprime, algos, profile, ports, outdir, reuse):
    """The compare runs of cube:d at M', or the reason wormnet refused them."""
    path = os.path.join(outdir, f"cube{d}_m{mprime}.json")
    cmd = [wormnet, "compare", "--topology", f"cube:{d}", "--algorithm", ",".join(algos), "--bytes",
           str(8 * mprime), "--profile", profile, "--ports", ports, "--json", path]
    if not (reuse and os.path.exists(path)):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode == 2:
            return [], (r.stderr.strip().splitlines() or ["refused"])[-1]
        if r.returncode not in (0, 1):
            sys.exit(f"error: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    with open(path) as f:
        runs = json.load(f)["runs"]
    for r in runs:
        c = r["config"]
        if c["profile"]["name"] != profile or c["ports"] != ports or c["bytes"] != 8 * mprime:
            sys.exit(f"error: {path} was made with other options; drop --reuse or the file")
    return runs, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dims", default="2-8")
    ap.add_argument("--mprime", default="8,64,256")
    ap.add_argument("--profile", default="cm200")
    ap.add_argument("--ports", default="all")
    ap.add_argument("--out", default="build/hypercube")
    ap.add_argument("--wormnet", default=os.path.join(HERE, "..", "build", "wormnet"))
    ap.add_argument("--reuse", action="store_true", help="take existing DIR/cubeD_mM.json instead of rerunning")
    a = ap.parse_args()
    prefer_python_with("matplotlib")  # the tables need none; the plot does
    os.makedirs(a.out, exist_ok=True)
    results, refused = {}, {}
    for m in [int(x) for x in a.mprime.split(",")]:
        for d in dims(a.dims):
            runs, why = run(a.wormnet, d, m, BROADCAST + REDUCTION, a.profile, a.ports, a.out, a.reuse)
            if why:
                refused[(d, m)] = why
                print(f"cube:{d} M'={m}: {why}", file=sys.stderr)
            for r in runs:
                results[(r["config"]["algorithm"], d, m)] = r
    with open(os.path.join(a.out, "hypercube.json"), "w") as f:
        json.dump([{"algorithm": k[0], "d": k[1], "mprime": k[2], "cycles": v["cycles"], "ms": v["microseconds"] / 1000,
                    "efficiency": v.get("efficiency", 0), "data_check": v["data_check"],
                    "contention": v["contention"]} for k, v in sorted(results.items())], f, indent=1)
    ds = dims(a.dims)
    for m in [int(x) for x in a.mprime.split(",")]:
        print(f"\n### M' = {m} (64-bit words per node), profile {a.profile}, {a.ports}-port: time in ms (efficiency)\n")
        print("| algorithm | " + " | ".join(f"N={2**d}" for d in ds) + " |")
        print("|---|" + "---|" * len(ds))
        for alg in BROADCAST + REDUCTION:
            cells = []
            for d in ds:
                r = results.get((alg, d, m))
                if not r:
                    cells.append("—")
                    continue
                bad = "" if r["data_check"] == "PASS" else " FAIL"
                cells.append(f"{r['microseconds'] / 1000:.3f} ({r.get('efficiency', 0):.2f}){bad}")
            print(f"| {alg} | " + " | ".join(cells) + " |")
        for (d, mm), why in sorted(refused.items()):
            if mm == m:
                print(f"\nN={2**d}: not run: {why}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        m = [int(x) for x in a.mprime.split(",")][len(a.mprime.split(",")) // 2]
        fig, ax = plt.subplots(figsize=(8.5, 4.5))
        for alg in BROADCAST + REDUCTION:
            pts = [(2 ** d, results[(alg, d, m)]["microseconds"] / 1000) for d in ds if (alg, d, m) in results]
            if pts:
                ax.plot(*zip(*pts), marker="o", label=alg, linestyle="-" if alg in BROADCAST else "--")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("nodes N = 2^d")
        ax.set_ylabel("ms")
        ax.set_title(f"all-to-all on cube:d, M' = {m}, profile {a.profile}, {a.ports}-port")
        # Outside the axes, so no line or label is covered.
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        fig.savefig(os.path.join(a.out, "hypercube.png"), dpi=110, bbox_inches="tight")
        print(f"\nplot: {os.path.join(a.out, 'hypercube.png')}")
    except ImportError:
        print("(no matplotlib: no plot)")


if __name__ == "__main__":
    main()
