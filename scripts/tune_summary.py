#!/usr/bin/env python3
"""The headline of tuning tables (`wormnet tune --json`): per table, the winner's size ranges,
how often the analytic pick (--ccl-alg auto) lost and by how much, as a Markdown table.

  scripts/tune_summary.py docs/tuning/*.json
"""
import json
import sys


def ranges(table):
    """Each range serves the sizes above the previous bound up to its own."""
    if len(table) == 1:
        return f"{table[0]['choice']} at every size"
    return "; ".join(f"{r['choice']} ≤ {size(r['max_bytes'])}" if r["max_bytes"] is not None
                     else f"{r['choice']} above" for r in table)


def size(b):
    for unit, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= f and b % f == 0:
            return f"{b // f} {unit}"
    return f"{b} B"


def nodes_of(topology):
    """Nodes of a topology word: cube:d has 2^d, mesh:AxB and torus:AxBxC the product of the sides."""
    kind, dims = topology.split(":", 1)
    if kind == "cube":
        return 2 ** int(dims)
    n = 1
    for side in dims.split("x"):
        n *= int(side)
    return n


def main(paths):
    print("| network | ports | profile | measured best by size | auto lost | worst auto/best |")
    print("|---|---|---|---|---|---|")
    for p in sorted(paths):
        with open(p) as f:
            t = json.load(f)
        sc, a = t["scope"], t["analytic_pick"]
        worst = f"{a['worst_over_best']:.2f}×" if a["lost_at"] else "–"
        if a["lost_at"]:
            at = max(t["sizes"], key=lambda s: s.get("auto_over_best", 0))
            worst += f" ({size(at['bytes'])}: {at['auto']} vs {at['best']['choice']})"
        ports = t["network"].get("ports", sc["ports"])
        net = sc["topology"]
        if sc["nodes"] != nodes_of(net):  # a group of the network's nodes
            net += f" ({sc['nodes']} ranks)"
        print(f"| {net} | {ports} | {t['profile']} | {ranges(t['table'])} | "
              f"{a['lost_at']} of {a['sizes']} | {worst} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/tune_summary.py TABLE.json ...")
    main(sys.argv[1:])
