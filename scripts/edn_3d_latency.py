#!/usr/bin/env python3
"""EDN vs RD broadcast on 3D meshes (Tsai's thesis, Ch 3, Figs 3.24-3.25: T3D, 300 MB/s, startup
1.5 us and 0.15 us, 32-2048 bytes, 4x4x4 and 8x8x4; the thesis: EDN 27 % / 30 % better at 1.5 us,
32 % / 36 % at 0.15 us).

  scripts/edn_3d_latency.py [SIZE ...]     (default: 4x4x4 8x8x4)
  WORMNET=path/to/wormnet (default build/wormnet), JOBS=N (default 2)

Every source, model backend, 4 ports, every word checked; the maximum latency (first send to the
last node's receive) averaged over the sources. Startup 1.5 us is the t3d profile (alpha = gamma = 53
cycles of 13.33 ns, plus the router's 6 cycles at one hop); 0.15 us is --alpha 3 --gamma 3 (0.16 us).
"""
import json
import os
import subprocess
import sys
import tempfile

BYTES = "32,64,128,256,512,1024,2048"
STARTUPS = [("1.5 us", []), ("0.16 us", ["--alpha", "3", "--gamma", "3"])]


def main():
    wormnet = os.environ.get("WORMNET", "build/wormnet")
    sizes = sys.argv[1:] or ["4x4x4", "8x8x4"]
    print("| mesh | startup | bytes | EDN steps | RD steps | EDN max latency (us) | RD max latency (us) | EDN better by |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            for label, extra in STARTUPS:
                path = os.path.join(tmp, "c.json")
                subprocess.run([wormnet, "compare", "--topology", f"mesh:{size}", "--algorithm",
                                "edn-broadcast,rd-broadcast", "--ports", "4", "--profile", "t3d", "--bytes", BYTES,
                                "--sources", "all", "-j", os.environ.get("JOBS", "2"), "--json", path] + extra,
                               check=True, stdout=subprocess.DEVNULL)
                with open(path) as f:
                    rep = json.load(f)
                bad = [r for r in rep["runs"] if not r["ok"]]
                if bad:
                    sys.exit(f"mesh:{size}: {len(bad)} runs failed")
                steps = {}
                for r in rep["runs"]:
                    steps.setdefault(r["config"]["algorithm"], set()).add(len(r["steps"]))
                ns = rep["runs"][0]["microseconds"] / rep["runs"][0]["cycles"]
                by = {(g["algorithm"], g["bytes"]): g["latency_cycles"]["mean_maximum"] * ns for g in rep["summary"]}
                for b in BYTES.split(","):
                    e, r = by[("edn-broadcast", int(b))], by[("rd-broadcast", int(b))]
                    fmt = lambda s: "..".join(str(x) for x in sorted(s)[:: max(1, len(s) - 1)])
                    print(f"| {size} | {label} | {b} | {fmt(steps['edn-broadcast'])} | {fmt(steps['rd-broadcast'])} | "
                          f"{e:.2f} | {r:.2f} | {100 * (1 - e / r):.1f} % |", flush=True)


if __name__ == "__main__":
    main()
