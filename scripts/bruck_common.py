"""Shared helpers of scripts/bruck_tables.py: loading run summaries and the paper's exact C1 / C2."""
import json
import math
import re
import sys

SP1_BETA_US, SP1_TAU_US = 29.0, 0.12  # Bruck et al. §3.5: SP-1 start-up ~29 us, 8.5 MB/s sustained (tau < 0.12 us/B)
NETS = ["cube:6", "mesh:8x8", "torus:8x8"]
PORTS = ["one", "2", "3", "all"]


def load(paths):
    recs = []
    for p in paths:
        if p.endswith(".jsonl"):
            runs = [json.loads(line) for line in open(p) if line.strip()]
        else:
            runs = json.load(open(p))["runs"]
        for d in runs:
            if not d.get("ok") or d.get("data_check") != "PASS":
                print(f"warning: {p}: failed point {d.get('params') or d.get('config')}: {d.get('error')}",
                      file=sys.stderr)
                continue
            recs.append(norm(d))
    return recs


def norm(d):
    c, p = d["config"], d["predicted"]
    f = p.get("formula", "")
    r = {
        "topology": c["topology"], "algorithm": c["algorithm"], "ports": str(c["ports"]), "bytes": int(c["bytes"]),
        "profile": c["profile"]["name"], "clock": c["profile"]["clock_ns"], "cycles": d["cycles"],
        "us": d["microseconds"], "pred": p.get("cycles"), "paper": (p.get("paper") or {}).get("cycles"),
        "c1": p.get("steps"), "cont": d["contention"], "messages": d["messages"], "k": c.get("injection_channels"),
        "steps": d.get("steps", []), "radix": None, "auto": f.startswith("--radix auto"), "c2": None,
    }
    m = re.search(r"r = (\d+), k = (\d+): C1", f)
    if m:
        r["radix"], r["k"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"C2 = (\d+) blocks", f)
    if m:
        r["c2"] = int(m.group(1))
    m = re.search(r"^k = (\d+): d = ", f)
    if m:
        r["k"] = int(m.group(1))
    return r


# Exact C1, C2 of the paper's index algorithm (k = 1 unless given), for the model's optimum over every r.
def ceil_log(r, n):
    w, p = 0, 1
    while p < n:
        p *= r
        w += 1
    return w


def c1_exact(n, r, k=1):
    w = ceil_log(r, n)
    return (w - 1) * -(-(r - 1) // k) + -(-(-(-n // r ** (w - 1)) - 1) // k)


def c2_one_port(n, r):
    tot = 0
    for j in range(1, n):
        while j:
            tot += (j % r) != 0
            j //= r
    return tot


def model_us(n, r, b, beta=SP1_BETA_US, tau=SP1_TAU_US):
    return c1_exact(n, r) * beta + c2_one_port(n, r) * b * tau


def best_radices(n, b, sp1_params):
    """Every r in 2..n of least linear-model time, exactly (integers): the SP-1's measured 29 us / 0.12 us/B
    (in units of 0.01 us), or ours, 60 cycles / 0.25 cycle per byte (in quarter cycles)."""
    cost = {r: (2900 * c1_exact(n, r) + 12 * b * c2_one_port(n, r)) if sp1_params else
            (240 * c1_exact(n, r) + b * c2_one_port(n, r)) for r in range(2, n + 1)}
    lo = min(cost.values())
    return [r for r in cost if cost[r] == lo]


def crossings(xs, ds):
    """Linear interpolation of the sign changes of d(x) between consecutive measured x."""
    out = []
    for (x0, d0), (x1, d1) in zip(zip(xs, ds), zip(xs[1:], ds[1:])):
        if d0 == 0:
            out.append(x0)
        elif d0 * d1 < 0:
            out.append(x0 + (x1 - x0) * d0 / (d0 - d1))
    if ds and ds[-1] == 0:
        out.append(xs[-1])
    return out


def fit(pts):
    n = len(pts)
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    s = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return my - s * mx, s


def kc(v):
    return f"{v / 1000:.0f}k" if v >= 10000 else f"{v:.0f}"


def cont_cells(r):
    c = r["cont"]
    return [kc(c["stepwise"]), kc(c["depth"]), kc(c["port"]), kc(c["flow"]), f"{c['delayed_messages']}/{r['messages']}"]
