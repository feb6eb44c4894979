"""Shared by scripts/plot.py and scripts/plot_heatmap.py: report parsing, per-step channel loads,
and the colour-scale conventions (a bar spans exactly [0, true maximum] with the maximum labelled)."""
import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import colors, ticker  # noqa: E402

LOAD_LABEL = "channel load in the step [flits]"
# Beyond this many steps a heat map would exceed matplotlib's image size limit
# (and be unreadable anyway): show the first ones and say so in the title.
MAX_HEATMAP_ROWS = 40
DPI = 110


# ----------------------------------------------------------------------------- data


def parse_topology(spec):
    """('mesh'|'torus'|'cube', radix per dimension) from e.g. 'torus:4x4x4' or 'cube:3'."""
    kind, dims = spec.split(":")
    if kind == "cube":
        return kind, [2] * int(dims)
    return kind, [int(k) for k in dims.split("x")]


def coords(node, radix):
    """Node id -> coordinates, x fastest (wormnet's lexicographic numbering)."""
    c = []
    for k in radix:
        c.append(node % k)
        node //= k
    return c


def step_loads(report):
    """{step: {(from, to): flits}} from the message log.

    A message is `packets` head flits plus its payload words packed into flits.
    """
    words_per_flit = max(1, report["config"]["profile"]["bytes_per_flit"] // 4)
    loads = {}
    for m in report["message_log"]:
        flits = m["packets"] + -(-m["words"] // words_per_flit)
        path = m["path"]
        per = loads.setdefault(m["step"], {})
        for a, b in zip(path, path[1:]):
            per[(a, b)] = per.get((a, b), 0) + flits
    return loads


def cube_dim(a, b):
    """Hypercube dimension of the channel a -> b (the differing address bit)."""
    return (a ^ b).bit_length() - 1


def grid_channel(a, b, kind, radix):
    """(dimension, +1/-1, wraps) of the mesh/torus channel a -> b.

    Torus direction follows wormnet's routing: shortest way, ties (k = 2) count
    as +; `wraps` marks the wrap-around link from coordinate k-1 to 0 or back.
    """
    ca, cb = coords(a, radix), coords(b, radix)
    dim = next(i for i in range(len(radix)) if ca[i] != cb[i])
    diff = cb[dim] - ca[dim]
    if kind == "torus":
        sign = 1 if diff % radix[dim] == 1 else -1
        return dim, sign, (diff > 0) != (sign > 0)  # k = 2: 1 -> 0 is the + wrap link
    return dim, (1 if diff > 0 else -1), False


# ----------------------------------------------------------------------------- colour scales


def load_cmap():
    """inferno_r without its near-white end, so lightly loaded channels stay
    visible on the white background (heavier = darker)."""
    base = plt.get_cmap("inferno_r")
    cmap = colors.ListedColormap([base(0.12 + 0.88 * i / 255) for i in range(256)], name="load")
    cmap.set_bad("0.94")  # matrix cells without traffic (NaN): light grey, off the scale
    return cmap


def range_ticks(vmin, vmax, integer=True):
    """Round ticks inside [vmin, vmax] plus both ends, so the bar shows the exact
    extremes of the data; ticks crowding an end are dropped so labels never overlap."""
    if vmax <= vmin:
        return [vmin]
    inner = ticker.MaxNLocator(nbins=5, integer=integer).tick_values(vmin, vmax)
    gap = 0.12 * (vmax - vmin)
    return [vmin] + [t for t in inner if vmin + gap < t < vmax - gap] + [vmax]


def add_colorbar(fig, mappable, axes, vmin, vmax, label, **kw):
    """Colour bar beside `axes` whose range is exactly [vmin, vmax] (the data's
    true extremes) with both labelled, and a label that states the unit."""
    cb = fig.colorbar(mappable, ax=axes, ticks=range_ticks(vmin, vmax), **kw)
    cb.set_label(label)
    return cb


# ----------------------------------------------------------------------------- heat maps


