#!/usr/bin/env python3
"""Export -> run round trip for every built-in algorithm of every family.

For each algorithm of `wormnet list`, on the first small network it runs on, with one port
and with all ports: `wormnet export` writes its schedule as a wormnet.schedule/1 file, then
`wormnet run --algorithm A` and `wormnet run --schedule FILE` must agree on everything the
network measured -- cycles, steps, every message's timing and delay view, every channel,
every node's step spans -- byte for byte, and both must pass their data check (the file's
oracle is its collective claim where the family declares one, else its ideal execution).
A failure names the algorithm and the first field that differs.

usage: export_roundtrip.py WORMNET WORKDIR [--large]
  --large: also the algorithms that need torus:32x32 or torus:64x64 (torus-t1.2, torus-t1.3; a
  million messages and more), compared on the run's summary lines instead of the JSON detail.
"""
import json
import os
import subprocess
import sys

# Networks tried in turn; the first the algorithm accepts is used.
NETWORKS = ["mesh:4x4", "torus:4x4", "cube:4", "mesh:8x8", "torus:8x8", "cube:3", "torus:16x16"]
LARGE = ["torus:32x32", "torus:64x64"]
# What the network measured (compared byte for byte); config, prediction and oracle text may differ.
MEASURED = ["cycles", "cycles_simulated", "steps", "messages", "words_sent", "packets", "flits_injected",
            "flit_hops", "latency", "contention", "resource_blocked", "message_log", "channels", "node_steps"]


def algorithms(wormnet):
    out = subprocess.run([wormnet, "list"], capture_output=True, text=True, check=True).stdout
    names, in_families = [], False
    for line in out.splitlines():
        if line.startswith("algorithm families"):
            in_families = True
        elif line and not line.startswith(" "):
            in_families = False
        elif in_families and line.startswith("    ") and not line.startswith("     "):
            word = line.split()[0]
            if not word.startswith("--") and word != "topologies:":
                names.append(word)
    return names


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def measured_lines(stdout):
    """The summary without the lines that name the algorithm or its prediction."""
    skip = ("seed", "  predicted", "  measured / predicted", "  efficiency", "  paper", "  data check")
    return [l for l in stdout.splitlines()[2:] if not l.startswith(skip)]


def main():
    wormnet, work = sys.argv[1], sys.argv[2]
    large = "--large" in sys.argv[3:]
    networks = NETWORKS + (LARGE if large else [])
    os.makedirs(work, exist_ok=True)
    names = algorithms(wormnet)
    if len(names) < 40:
        print(f"only {len(names)} algorithms listed: the list format changed")
        return 1
    passed, failed, claims = 0, [], 0
    for name in names:
        for ports in ["one", "all"]:
            rooted = ["--source", "5"]
            exported, net = None, None
            for topo in networks:
                # 32 B blocks; 4 B on the large tori, whose complete exchanges grow as N^2 blocks.
                common = ["--algorithm", name, "--ports", ports, "--bytes", "4" if topo in LARGE else "32"]
                path = os.path.join(work, f"{name}-{ports}.json")
                for extra in (rooted, []):
                    r = run([wormnet, "export", "--topology", topo, *common, *extra, "--out", path])
                    if r.returncode == 0:
                        exported, net, args = path, topo, common + extra
                        break
                if exported:
                    break
            if not exported:
                if not large and ("torus:32x32" in r.stderr or "torus:64x64" in r.stderr):
                    print(f"skipped {name} ports={ports}: needs a network of 1024 nodes or more (--large)")
                    continue
                if large and "memory" in r.stderr and "a third of this machine's RAM" in r.stderr:
                    print(f"skipped {name} ports={ports}: no network it runs on fits this machine: {r.stderr.strip()}")
                    continue
                failed.append(f"{name} ports={ports}: no network of {networks} exports it: {r.stderr.strip()}")
                continue
            claims += " claim -> " in r.stdout
            a_json = os.path.join(work, f"{name}-{ports}.builtin.json")
            b_json = os.path.join(work, f"{name}-{ports}.file.json")
            big = net in LARGE
            ra = run([wormnet, "run", "--topology", net, *args, *([] if big else ["--json", a_json])])
            rb = run([wormnet, "run", "--topology", net, "--ports", ports, "--schedule", exported,
                      *([] if big else ["--json", b_json])])
            label = f"{name} on {net} ports={ports}"
            if big and ra.returncode == 0 and rb.returncode == 0:
                same = measured_lines(ra.stdout) == measured_lines(rb.stdout)
                ok = "data check    PASS" in ra.stdout and "data check    PASS" in rb.stdout
                if same and ok:
                    passed += 1
                else:
                    failed.append(f"{label}: summaries differ or data FAIL")
                continue
            if ra.returncode != 0 or rb.returncode != 0:
                failed.append(f"{label}: exit {ra.returncode} / {rb.returncode}: {ra.stderr.strip()} {rb.stderr.strip()}")
                continue
            a, b = json.load(open(a_json)), json.load(open(b_json))
            diff = [k for k in MEASURED if json.dumps(a.get(k), sort_keys=True) != json.dumps(b.get(k), sort_keys=True)]
            if diff or a["data_check"] != "PASS" or b["data_check"] != "PASS" or b["config"]["algorithm"] != name:
                failed.append(f"{label}: differs in {diff or 'data check / name'}")
                continue
            passed += 1
    for f in failed:
        print("FAIL", f)
    print(f"round trip: {len(names)} algorithms x 2 port models, {claims} exported files with a collective claim (the rest: the ideal-execution oracle)")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
