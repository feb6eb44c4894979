#!/usr/bin/env python3
"""Row-then-column recursive-doubling (RD) broadcast over an R x C rank grid, as a wormnet.schedule/1 file.

    python3 row_col_broadcast.py ROWS COLS WORDS ROOT OUT.json
    wormnet run --topology mesh:COLSxROWS --schedule OUT.json --json r.json

First the root's row broadcasts by recursive doubling (the thesis's RD / U-mesh: the holders
double each step by halving the range of positions, the same split as algorithms/halving.h and
rd-broadcast), then every column does the same from the root's row. In each step
every message stays inside one row or one column and the halves never overlap, so under
dimension-order routing no two messages of a step share a channel.

Rank numbering: rank r = row * COLS + col. wormnet's mesh node ids number the first dimension
fastest (Topology::coords in systemc/topology/topology.cpp: c[0] = node % k0, c[1] = node / k0
for mesh:k0xk1), so on `mesh:COLSxROWS` (COLS first) rank r is node r at x = col, y = row: a
grid row is a mesh row (X links, routed first) and a grid column a mesh column (Y links).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import wormnet  # noqa: E402  (the package next to this folder, when not pip-installed)


def halving(n, holder):
    """The sends of a recursive-halving broadcast over positions 0..n-1: (from, to, step).

    The holder of [left, right] splits at floor((left + right) / 2) and sends to the first
    position of the other half, which then covers that half (ceil(log2 n) steps).
    """
    out = []

    def rd(left, right, h, step):
        while left < right:
            c = (left + right) // 2
            if h <= c:
                dest, lo, hi, right = c + 1, c + 1, right, c
            else:
                dest, lo, hi, left = c, left, c, c + 1
            out.append((h, dest, step))
            rd(lo, hi, dest, step + 1)
            step += 1

    rd(0, n - 1, holder, 0)
    return out


def ceil_log2(n):
    return (n - 1).bit_length()


def build(rows, cols, words, root, conflict=False):
    """The schedule: row phase in steps 0..ceil(log2 cols)-1, then the column phase.

    conflict: broken on purpose for the tutorial (docs/own-schedule.md): in the row phase's last
    step the root itself serves the first receiver another holder should serve, so its message
    runs along the root's own message's channel in the same step (stepwise contention; the data
    still arrive)."""
    if rows * cols < 2 or not 0 <= root < rows * cols or words < 1:
        raise ValueError("need rows * cols >= 2, 0 <= root < rows * cols and words >= 1")
    s = wormnet.Schedule("row-col", rows * cols, words,
                         wormnet.collective("broadcast", words, root=root))
    root_row, root_col = divmod(root, cols)
    data = (0, words)
    row = halving(cols, root_col)
    if conflict:
        last = max(step for _, _, step in row)
        i = next((i for i, (a, _, step) in enumerate(row) if step == last and a != root_col), None)
        if i is None:
            raise ValueError("no message to move: the row phase needs at least 4 columns")
        row[i] = (root_col, row[i][1], last)
    for a, b, step in row:
        s.send(step, root_row * cols + a, root_row * cols + b, data)
    first = ceil_log2(cols)
    for col in range(cols):
        for a, b, step in halving(rows, root_row):
            s.send(first + step, a * cols + col, b * cols + col, data)
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", type=int)
    ap.add_argument("cols", type=int)
    ap.add_argument("words", type=int, help="32-bit words broadcast from the root")
    ap.add_argument("root", type=int, help="root rank (row * cols + col)")
    ap.add_argument("out", help="schedule file to write")
    ap.add_argument("--conflict", action="store_true",
                    help="broken on purpose: two messages of one step share a channel (the tutorial's)")
    a = ap.parse_args(argv)
    try:
        s = build(a.rows, a.cols, a.words, a.root, a.conflict)
        s.save(a.out)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{a.out}: {s.name}, {s.ranks} ranks, {s.steps()} steps; run with "
          f"wormnet run --topology mesh:{a.cols}x{a.rows} --schedule {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
