"""Which parameters of a set of points vary, and the series (lines, bars) they make, for the
sweep and compare plots: every combination of the varying parameters, other than the x axis
and the ones averaged over, is its own series, so two patterns (or VCs, or buffer depths, or
anything else a spec lists) are never joined into one zig-zag line or merged into one bar.
Also the figure titles (what is the same for every point) and the CSV of the data drawn."""
import csv
import math
import os

import matplotlib.pyplot as plt

# Legend labels and titles list keys in this order: the network and workload first.
ORDER = ["topology", "pattern", "algorithm", "variant", "schedule", "ports", "vcs", "buf", "packet_flits",
         "bytes", "rate", "profile", "backend", "sync", "sends", "op"]
# How a constant (or varying, listed) parameter reads in a title; others read "name value".
TITLE = {"topology": "{}", "pattern": "{} traffic", "vcs": "{} VCs", "buf": "{}-flit buffers per VC",
         "packet_flits": "{}-flit packets", "backend": "backend {}", "profile": "profile {}", "sync": "sync {}",
         "bytes": "{} bytes", "cycles": "{}-cycle window", "warmup": "{} warm-up cycles", "seed": "seed {}",
         "ports": "{}-port", "hotspot_fraction": "hotspot share {}", "hotspot_node": "hotspot node {}"}
# Bookkeeping of a results line, never a parameter of the point.
NOT_PARAMS = {"key", "point", "command", "schema", "ok", "error", "errors"}


def number(v):
    """'0.1' -> 0.1, '32' -> 32; anything else unchanged. Sweep results lines carry `params` as
    the spec's text, so without this 32 < 256 would sort as '256' < '32'."""
    if not isinstance(v, str):
        return v
    for kind in (int, float):
        try:
            x = kind(v)
        except ValueError:
            continue
        return x if math.isfinite(x) else v
    return v


def value(point, key):
    """A point's parameter: its config's (typed by the tool) when there, else its params' as a
    number where it reads as one; None when the point has neither."""
    c = point.get("config", {})
    if key == "profile" and isinstance(c.get("profile"), dict):
        return c["profile"].get("name")
    if key in c and not isinstance(c[key], (dict, list)):
        return c[key]
    if key in c and isinstance(c[key], list):
        return ",".join(str(x) for x in c[key])
    return number(point.get("params", {}).get(key))


def keys(points):
    """Every parameter name a point has, in ORDER first."""
    seen = {}
    for p in points:
        for k, v in p.get("params", {}).items():
            seen.setdefault(k, None)
        for k, v in p.get("config", {}).items():
            if not isinstance(v, dict) or k == "profile":
                seen.setdefault(k, None)
    names = [k for k in seen if k not in NOT_PARAMS]
    return sorted(names, key=lambda k: (ORDER.index(k) if k in ORDER else len(ORDER), names.index(k)))


def values(points, key):
    """The distinct values of `key`, sorted (numbers numerically), None left out."""
    vs = {value(p, key) for p in points} - {None}
    return sorted(vs, key=lambda v: (isinstance(v, str), v if not isinstance(v, str) else 0, str(v)))


def _determined(points, key, by):
    seen = {}
    for p in points:
        k = tuple(value(p, b) for b in by)
        if seen.setdefault(k, value(p, key)) != value(p, key):
            return False
    return True


def series_keys(points, x=None, pooled=()):
    """The parameters that tell the series apart: those that vary, other than `x` and the
    `pooled` ones (averaged over, e.g. the source), and that the others do not already fix
    (injection_channels follows ports; a seed paired with each pattern adds nothing)."""
    pinned = [k for k in [x, *pooled] if k]
    cand = [k for k in keys(points) if k not in pinned and len({value(p, k) for p in points}) > 1]
    kept = list(cand)
    for k in reversed(cand):  # the least telling first, so of two that fix each other ORDER's first stays
        if _determined(points, k, [c for c in kept if c != k] + pinned):
            kept.remove(k)
    return kept


def text(key, v):
    if key == "ports":
        return f"{v}-port"
    if key in ("topology", "pattern", "algorithm", "variant", "schedule", "profile"):
        return str(v)
    return f"{key}={v:g}" if isinstance(v, float) else f"{key}={v}"


def label(point, skeys, empty="all points"):
    """The series' name: the values that differ (a key the point lacks is left out)."""
    vs = [(k, value(point, k)) for k in skeys]
    return ", ".join(text(k, v) for k, v in vs if v is not None) or empty


def group(points, skeys):
    """{series label: its points}, in the order of the first point of each."""
    out = {}
    for p in points:
        out.setdefault(label(p, skeys), []).append(p)
    return out


def describe(points, skip=(), what="", want=("topology", "pattern", "vcs", "buf", "packet_flits", "backend",
                                             "profile", "sync", "bytes", "cycles", "warmup", "seed")):
    """What the title says: each of `want` the points have, one value or the list of them (the
    keys in `skip`, the axes' and the legend's, are left to those), then on a line of its own
    `what` the figure shows."""
    parts = []
    for k in want:
        if k in skip:
            continue
        vs = values(points, k)
        if not vs:
            continue
        shown = "/".join(f"{v:g}" if isinstance(v, float) else str(v) for v in vs)
        parts.append(TITLE.get(k, k + " {}").format(shown))
    shared = ", ".join(parts)
    return f"{shared}:\n{what}" if shared and what else shared or what


def style(i):
    """Colour and line style of series i: ten colours, then the next line style."""
    return {"color": plt.get_cmap("tab10")(i % 10), "linestyle": ["-", "--", ":", "-."][(i // 10) % 4]}


def mean(xs):
    return sum(xs) / len(xs)


def by_x(points, x, y):
    """{x: [y of each point there]} in x order; y(point) -> number or None (left out)."""
    out = {}
    for p in points:
        v = y(p)
        if v is not None:
            out.setdefault(value(p, x), []).append(v)
    return dict(sorted(out.items()))


def write_csv(outdir, name, header, rows):
    """NAME.csv beside the figure: the numbers drawn, one row per point, each column's name
    ending in its unit (bytes, cycles, flits_per_node_cycle, ...) or naming a count or ratio."""
    path = os.path.join(outdir, f"{name}.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow(["" if v is None else (f"{v:.6g}" if isinstance(v, float) else v) for v in r])
    return path
