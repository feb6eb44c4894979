#!/usr/bin/env python3
"""What scripts/demo_takeaways.py computes its sentences from: reading the demo's reports, the
numbers' words (ratios, loads), the networks' sizes and bisections, sweep points and summaries."""
import json
import os
import textwrap

SATURATED = 0.95  # a port model is past saturation at a load where it accepts less than this share of it
SAME = 0.005  # ratios within this of 1 count as equal (they print as 1.00x)


def load(d, name):
    path = os.path.join(d, name)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"demo_takeaways: cannot read {path}: {e}")


def say(text):
    """One takeaway: a bullet, wrapped like the demo's tables (100 columns)."""
    print(textwrap.fill(" ".join(text.split()), width=100, initial_indent="* ", subsequent_indent="  ",
                        break_on_hyphens=False))


def ratio_words(r, faster="faster", slower="slower"):
    """'1.74x faster' / '1.04x slower' / 'equally fast' for a speed-up r (old time / new time)."""
    if abs(r - 1) < SAME:
        return "equally fast"
    return f"{r:.2f}x {faster}" if r > 1 else f"{1 / r:.2f}x {slower}"


def fmt_rates(rates):
    return ", ".join(f"{r:g}" for r in rates)


def nodes(topology):
    kind, _, dims = topology.partition(":")
    if kind == "cube":
        return 2 ** int(dims)
    n = 1
    for k in dims.split("x"):
        n *= int(k)
    return n


def pretty(topology):
    """'8x8 mesh', '4x4 torus', '6-cube'."""
    kind, _, dims = topology.partition(":")
    return f"{dims}-cube" if kind == "cube" else f"{dims} {kind}"


def bisection_channels(topology):
    """Channels one way across the halving cut: a d-cube n/2, a mesh cut across its longest dimension
    (n / that radix). None for a torus or an odd radix (not needed by the demo)."""
    kind, _, dims = topology.partition(":")
    n = nodes(topology)
    if kind == "cube":
        return n // 2
    radix = [int(k) for k in dims.split("x")]
    if kind != "mesh" or max(radix) % 2:
        return None
    return n // max(radix)


# ----------------------------------------------------------------------------- traffic sweeps


def sweep_points(sweep):
    """{port model: [point, ...] sorted by offered load} of a `wormnet sweep --json` report."""
    by = {}
    for p in sweep["points"]:
        if not p.get("ok"):
            raise SystemExit(f"demo_takeaways: a sweep point failed: {p.get('config')}")
        by.setdefault(str(p["config"]["ports"]), []).append(p)
    for pts in by.values():
        pts.sort(key=lambda p: p["config"]["rate"])
    return by


def saturated(p):
    return p["throughput"]["accepted"] < SATURATED * p["config"]["rate"]


def mean(xs):
    return sum(xs) / len(xs)


def compare_count(pairs, less):
    """'at every one of them' / 'at k of m of them' / None (at none) for the pairs (a, b) where a < b is `less`."""
    k = sum(1 for a, b in pairs if (a < b) == less)
    if k == len(pairs):
        return "at every one of them" if len(pairs) > 1 else "there"
    return f"at {k} of {len(pairs)} of them" if k else None


def summary(rep):
    """{(algorithm, ports, bytes): summary row} of a `wormnet compare --json` report."""
    return {(s["algorithm"], str(s["ports"]), s["bytes"]): s for s in rep["summary"]}
