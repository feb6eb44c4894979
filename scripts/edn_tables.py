#!/usr/bin/env python3
"""Markdown tables of the EDN trend experiments (docs/papers/edn.md).

  scripts/edn_tables.py mesh PROFILE W...   EDN vs RD mean max latency per size, measured (the thesis's Ch-3 formula)
  scripts/edn_tables.py torus               EDN vs U-torus, measured (Eq 4.1 / 4.2 evaluated)
  scripts/edn_tables.py ports               one / 3 / all ports on mesh:16x16

Reads the tables scripts/edn_trends.sh wrote to docs/papers/edn/NAME.txt.
"""
import os
import sys

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "papers", "edn")
SIZES = [32, 64, 128, 256, 512, 1024, 2048]
# Tsai's thesis: the thesis's formulas evaluated (us), alpha = gamma = 85 us / 0.75 us, beta = 0.45 / 0.0033 us/B.
MESH = {
    "ncube2": {("edn", 8): [1162.6, 1220.2, 1335.4, 1565.8, 2026.6, 2948.2, 4791.4],
               ("rd", 8): [1106.4, 1192.8, 1365.6, 1711.2, 2402.4, 3784.8, 6549.6],
               ("edn", 32): [1871.4, 1957.8, 2130.6, 2476.2, 3167.4, 4549.8, 7314.6],
               ("rd", 32): [1844.0, 1988.0, 2276.0, 2852.0, 4004.0, 6308.0, 10916.0]},
    "t3d": {("edn", 8): [10.17, 10.59, 11.44, 13.13, 16.51, 23.27, 36.78],
            ("rd", 8): [9.63, 10.27, 11.53, 14.07, 19.14, 29.28, 49.55],
            ("edn", 32): [16.38, 17.02, 18.28, 20.82, 25.89, 36.03, 56.30],
            ("rd", 32): [16.06, 17.11, 19.22, 23.45, 31.90, 48.79, 82.58]},
}
TORUS = {("4", 0): ([130, 258, 514, 1026, 2050], [259, 515, 1027, 2051, 4099]),
         ("32", 0): ([341, 661, 1301, 2581, 5141], [671, 1311, 2591, 5151, 10271]),
         ("4", 50): ([930, 1058, 1314, 1826, 2850], [1059, 1315, 1827, 2851, 4899]),
         ("32", 50): ([2341, 2661, 3301, 4581, 7141], [2671, 3311, 4591, 7151, 12271])}


def load(name):
    """(algorithm, ports, bytes) -> the compare row's means."""
    rows = {}
    with open(os.path.join(DIR, name + ".txt")) as f:
        for line in f:
            c = line.split()
            if len(c) >= 14 and c[0].endswith(("broadcast", "transpose")):
                rows[(c[0], c[1], int(c[2]))] = {"avg": float(c[4]), "max": float(c[5]), "depth": float(c[10]),
                                                 "port": float(c[11])}
    return rows


def mesh(profile, widths):
    f = (lambda v: f"{v:.1f}") if profile == "ncube2" else (lambda v: f"{v:.2f}")
    print("| L (B) |" + "".join(f" EDN {w}×{w} max | RD {w}×{w} max | avg EDN / RD |" for w in widths))
    print("|---" * (1 + 3 * len(widths)) + "|")
    for i, size in enumerate(SIZES):
        cells = []
        for w in widths:
            r = load(f"mesh{w}_{profile}")
            e, d = r.get(("edn-broadcast", "3", size)), r.get(("rd-broadcast", "3", size))
            te, tr = MESH[profile][("edn", w)][i], MESH[profile][("rd", w)][i]
            cells += [f"{f(e['max'])} ({f(te)})", f"{f(d['max'])} ({f(tr)})", f"{f(e['avg'])} / {f(d['avg'])}"]
        print(f"| {size} | " + " | ".join(cells) + " |")


def torus():
    print("| torus | α = γ | L (B) | EDN max µs (Eq 4.1) | U-torus max µs (Eq 4.2) | U-torus / EDN | EDN depth delay |")
    print("|---|---|---|---|---|---|---|")
    for w in ["4", "32"]:
        for a in [0, 50]:
            r = load(f"torus{w}_a{a}")
            for i, size in enumerate([128, 256, 512, 1024, 2048]):
                e, u = r[("edn-broadcast", "all", size)], r[("rd-broadcast", "all", size)]
                print(f"| {w}×{w} | {2 * a} µs | {size} | {e['max']:.0f} ({TORUS[(w, a)][0][i]}) | "
                      f"{u['max']:.0f} ({TORUS[(w, a)][1][i]}) | {u['max'] / e['max']:.2f} | {e['depth']:.0f} |")


def ports():
    r = load("ports16")
    print("| algorithm | ports | L (B) | mean max latency µs | mean avg latency µs | mean port delay (cycles) |")
    print("|---|---|---|---|---|---|")
    for a in ["edn-broadcast", "rd-broadcast"]:
        for p in ["one", "3", "all"]:
            for size in [256, 2048]:
                x = r[(a, p, size)]
                print(f"| {a} | {p} | {size} | {x['max']:.1f} | {x['avg']:.1f} | {x['port']:.1f} |")


if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else ""
    if kind == "mesh":
        mesh(sys.argv[2], [int(w) for w in sys.argv[3:]])
    elif kind == "torus":
        torus()
    elif kind == "ports":
        ports()
    else:
        sys.exit(__doc__)
