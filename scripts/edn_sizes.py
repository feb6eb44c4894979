#!/usr/bin/env python3
"""EDN on the meshes of sides 5, 6, 7 * 2^k (Tsai's thesis, Tables 3.2-3.4 and 3.7) from every source.

  scripts/edn_sizes.py [SIZE ...]      (default: 5x5 6x6 7x7 10x10 12x12 14x14 20x20 24x24 28x28)
  WORMNET=path/to/wormnet (default build/wormnet), JOBS=N (default 2)

Runs `wormnet compare --sources all` (model backend, 3 ports, 64 bytes, profile ncube2, every word
checked) with edn-broadcast, rd-broadcast and edn-reduce, and prints one row per size: the thesis's
step counts, ours (fewest..most over the sources), the counting bound ceil(log4 N), the average
hops per message of EDN and RD, the mean of the maximum latency, and the reduction's steps.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

DEFAULT = ["5x5", "6x6", "7x7", "10x10", "12x12", "14x14", "20x20", "24x24", "28x28"]


def thesis_steps(w, h):
    """Tables 3.1-3.4 (square n x n): min and max total steps; None off the tables."""
    if w != h:
        return None
    k = 0
    n = w
    while n >= 8 and n % 2 == 0:
        n //= 2
        k += 1
    if n == 4:
        return (k + 3, k + 3)
    if n in (5, 6, 7):
        return (k + 3, k + 4)
    return None


def run(wormnet, size, alg, path):
    cmd = [wormnet, "compare", "--topology", f"mesh:{size}", "--algorithm", alg, "--ports", "3",
           "--bytes", "64", "--profile", "ncube2", "--sources", "all", "-j", os.environ.get("JOBS", "2"),
           "--json", path]
    if alg == "edn-reduce":
        cmd += ["--op", "sum"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        runs = json.load(f)["runs"]
    bad = [r for r in runs if not r["ok"] or r["contention"]["stepwise"] != 0]
    if bad:
        sys.exit(f"{alg} on mesh:{size}: {len(bad)} runs failed or contended")
    steps = [len(r["steps"]) for r in runs]
    hops = [r["flit_hops"] / r["flits_injected"] - 1 for r in runs]  # flit_hops counts the ejection hop
    latency = [r["cycles"] for r in runs]
    return min(steps), max(steps), sum(hops) / len(hops), sum(latency) / len(latency)


def main():
    wormnet = os.environ.get("WORMNET", "build/wormnet")
    sizes = sys.argv[1:] or DEFAULT
    print("| mesh | N | thesis steps (min/max) | wormnet steps (min..max over sources) | bound ceil(log4 N) "
          "| EDN hops/message | RD hops/message | EDN / RD cycles (mean over sources) | edn-reduce steps |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            m = re.fullmatch(r"(\d+)x(\d+)", size)
            if not m:
                sys.exit(f"size: {size!r} is not WxH")
            w, h = int(m.group(1)), int(m.group(2))
            n = w * h
            e = run(wormnet, size, "edn-broadcast", os.path.join(tmp, "e.json"))
            r = run(wormnet, size, "rd-broadcast", os.path.join(tmp, "r.json"))
            red = run(wormnet, size, "edn-reduce", os.path.join(tmp, "d.json"))
            t = thesis_steps(w, h)
            print(f"| {w}×{h} | {n} | {f'{t[0]}/{t[1]}' if t else '–'} | {e[0]}..{e[1]} | "
                  f"{math.ceil(math.log(n, 4) - 1e-9)} | {e[2]:.4f} | {r[2]:.4f} | {e[3]:.0f} / {r[3]:.0f} | "
                  f"{red[0]}..{red[1]} |", flush=True)


if __name__ == "__main__":
    main()
