#!/usr/bin/env python3
"""The search that found kBase of algorithms/families/edn/transpose_plan.cpp (edn-transpose).

A 4x4 grid, the item at (x,y) bound for (y,x), diagonal empty. Each item goes to a relay in
step 1 and on to its destination in step 2, or moves directly in one of the two steps. The search
looks for a relay per item with XY paths that are channel-disjoint in each step, and with at most
3 sends and 3 receives per node and step. This must hold under each of the 9 interleavings
(sx < dx, sx > dx or sx = dx, and likewise for y) in which the recursion places sources,
destinations and relays. The first solution found, in depth-first order with shortest relays
first, is the table.
Usage: scripts/transpose_base_search.py   (prints the table as C++ rows {x, y, rx, ry})
"""


def path(a, b):
    (x, y), (tx, ty) = a, b
    edges = []
    while x != tx:
        nx = x + (1 if tx > x else -1)
        edges.append(((x, y), (nx, y)))
        x = nx
    while y != ty:
        ny = y + (1 if ty > y else -1)
        edges.append(((x, y), (x, ny)))
        y = ny
    return edges


def dist(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def mirror(p):
    return (p[1], p[0])


# Line maps at half resolution: source s = 2a + so, destination d = 2a + do, relay = (dx, sy).
COMBOS = [(0, 0), (0, 1), (1, 0)]
MODELS = [(xs, xd, ys, yd) for (xs, xd) in COMBOS for (ys, yd) in COMBOS]
ITEMS = sorted(((x, y) for y in range(4) for x in range(4) if x != y), key=lambda d: -dist(d, mirror(d)))
NODES = [(x, y) for y in range(4) for x in range(4)]


def legs(model, d, r):
    xs, xd, ys, yd = model
    t = mirror(d)
    src, dst = (2 * d[0] + xs, 2 * d[1] + ys), (2 * t[0] + xd, 2 * t[1] + yd)
    relay = src if r == d else dst if r == t else (2 * r[0] + xd, 2 * r[1] + ys)
    return [(src, relay), (relay, dst)]


def search(i, state, table):
    if i == len(ITEMS):
        return dict(table)
    d = ITEMS[i]
    for r in sorted(NODES, key=lambda r: dist(d, r) + dist(r, mirror(d))):
        new = []
        for m, model in enumerate(MODELS):
            steps = []
            for s, (a, b) in enumerate(legs(model, d, r)):
                used, sends, recvs = state[m][s]
                if a == b:
                    steps.append(state[m][s])
                    continue
                p = set(path(a, b))
                if p & used or sends.get(a, 0) >= 3 or recvs.get(b, 0) >= 3:
                    break
                steps.append((used | p, {**sends, a: sends.get(a, 0) + 1}, {**recvs, b: recvs.get(b, 0) + 1}))
            if len(steps) < 2:
                break
            new.append(steps)
        if len(new) < len(MODELS):
            continue
        table[d] = r
        found = search(i + 1, new, table)
        if found:
            return found
        del table[d]
    return None


if __name__ == "__main__":
    empty = [[(set(), {}, {}), (set(), {}, {})] for _ in MODELS]
    for d, r in search(0, empty, {}).items():
        print(f"{{{d[0]}, {d[1]}, {r[0]}, {r[1]}}},")
