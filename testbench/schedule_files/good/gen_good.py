#!/usr/bin/env python3
"""Writes the hand-designed wormnet.schedule/1 files of this folder (python3 standard library only).

Every algorithm below is written out step by step from its textbook definition: nothing here calls
wormnet or shares code with it. The generated .json files are committed; rerun this script after
editing it (`python3 gen_good.py` in this folder) and commit its output too.

Layouts follow the `collective` table of docs/spec schedule-format.md: n ranks, w words per block.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = "wormnet.schedule/1"


def doc(name, ranks, memory_words, programs, **extra):
    d = {"schema": SCHEMA, "name": name, "ranks": ranks, "memory_words": memory_words}
    d.update(extra)
    d["programs"] = [{"rank": r, "steps": steps} for r, steps in sorted(programs.items()) if steps]
    return d


def write(filename, d):
    # One step per line: readable and diffable like a hand-written file.
    lines = ["{"]
    keys = [k for k in d if k != "programs"]
    for k in keys:
        lines.append(f"  {json.dumps(k)}: {json.dumps(d[k])},")
    lines.append('  "programs": [')
    for i, p in enumerate(d["programs"]):
        lines.append(f'    {{"rank": {p["rank"]}, "steps": [')
        for j, st in enumerate(p["steps"]):
            lines.append("      " + json.dumps(st) + ("," if j + 1 < len(p["steps"]) else ""))
        lines.append("    ]}" + ("," if i + 1 < len(d["programs"]) else ""))
    lines.append("  ]")
    lines.append("}")
    with open(os.path.join(HERE, filename), "w") as f:
        f.write("\n".join(lines) + "\n")


def progs(n):
    return {r: [] for r in range(n)}


def step_of(prog, s):
    """The step dict numbered s of one rank's program (created in increasing order)."""
    if prog and prog[-1]["step"] == s:
        return prog[-1]
    assert not prog or prog[-1]["step"] < s
    prog.append({"step": s})
    return prog[-1]


def send(p, rank, s, dst, src, **kw):
    step_of(p[rank], s).setdefault("sends", []).append(dict({"dst": dst, "src": src}, **kw))


def recv(p, rank, s, src, dst, **kw):
    step_of(p[rank], s).setdefault("recvs", []).append(dict({"src": src, "dst": dst}, **kw))


# 1. Recursive-doubling allreduce, 8 ranks, sum. Step k: exchange [0,w) with rank r xor 2^k,
#    receive into the scratch [w,2w) and add it into [0,w) after the receive.
def allreduce_rd(n=8, w=4, forget=None):
    p = progs(n)
    k = 0
    while (1 << k) < n:
        for r in range(n):
            q = r ^ (1 << k)
            send(p, r, k, q, [[0, w]])
            recv(p, r, k, q, [[w, w]])
            op = "sum"
            if forget is not None and k == 0 and r == forget:
                op = "copy"  # WRONG: overwrites its own contribution with the partner's
            step_of(p[r], k)["after"] = [{"src": [[w, w]], "dst": [[0, w]], "op": op}]
        k += 1
    return p


write("allreduce_rd_sum.json",
      doc("rd-allreduce-sum", 8, 8, allreduce_rd(),
          collective={"kind": "allreduce", "words": 4, "op": "sum"}))


# 2. Binomial-tree reduce to rank 0 with the non-commutative affine operator. At step k the ranks
#    r with r mod 2^(k+1) = 2^k send their partial x_r..x_{r+2^k-1} to r-2^k, whose own partial
#    x_{r-2^k}..x_{r-1} is the left operand: memory (left) op incoming (right), the default.
def reduce_binomial(n=8, w=4):
    p = progs(n)
    k = 0
    while (1 << k) < n:
        d = 1 << k
        for r in range(n):
            if r % (2 * d) == d:
                send(p, r, k, r - d, [[0, w]])
                recv(p, r - d, k, r, [[0, w]], op="affine")
        k += 1
    return p


write("reduce_binomial_affine.json",
      doc("binomial-reduce-affine", 8, 4, reduce_binomial(),
          collective={"kind": "reduce", "words": 4, "root": 0, "op": "affine"}))


# 2b. The mirror image: reduce to rank 7. At step k the ranks r with r mod 2^(k+1) = 2^k - 1
#     send x_{r-2^k+1}..x_r to r+2^k, whose partial covers higher ranks: the incoming word is
#     the left operand ("incoming_first": true).
def reduce_binomial_top(n=8, w=4):
    p = progs(n)
    k = 0
    while (1 << k) < n:
        d = 1 << k
        for r in range(n):
            if r % (2 * d) == d - 1:
                send(p, r, k, r + d, [[0, w]])
                recv(p, r + d, k, r, [[0, w]], op="affine", incoming_first=True)
        k += 1
    return p


write("reduce_binomial_affine_root7.json",
      doc("binomial-reduce-affine-root7", 8, 4, reduce_binomial_top(),
          collective={"kind": "reduce", "words": 4, "root": 7, "op": "affine"}))


# 3. Direct alltoall, 8 ranks: step 0 copies the own block [q*w,(q+1)*w) to [n*w+q*w, ...);
#    step s = 1..n-1 sends block j = (q+s) mod n to rank j and receives from src = (q-s) mod n
#    into [n*w + src*w, n*w + (src+1)*w).
def alltoall_direct(n=8, w=2):
    p = progs(n)
    for q in range(n):
        step_of(p[q], 0)["locals"] = [{"src": [[q * w, w]], "dst": [[n * w + q * w, w]]}]
        for s in range(1, n):
            j, src = (q + s) % n, (q - s) % n
            send(p, q, s, j, [[j * w, w]])
            recv(p, q, s, src, [[n * w + src * w, w]])
    return p


write("alltoall_direct.json",
      doc("direct-alltoall", 8, 2 * 8 * 2, alltoall_direct(),
          collective={"kind": "alltoall", "words": 2}))


# 4. Ring allgather: step s = 0..n-2, rank q sends block (q-s) mod n to q+1 and receives block
#    (q-s-1) mod n from q-1 into its place.
def allgather_ring(n=8, w=3):
    p = progs(n)
    for s in range(n - 1):
        for q in range(n):
            b_out, b_in = (q - s) % n, (q - s - 1) % n
            send(p, q, s, (q + 1) % n, [[b_out * w, w]])
            recv(p, q, s, (q - 1) % n, [[b_in * w, w]])
    return p


write("allgather_ring.json",
      doc("ring-allgather", 8, 8 * 3, allgather_ring(),
          collective={"kind": "allgather", "words": 3}))


# 5. Binomial gather to rank 0: at step k the ranks r with r mod 2^(k+1) = 2^k send the 2^k
#    blocks [r*w, (r+2^k)*w) they hold to r-2^k, which receives them in place.
def gather_binomial(n=8, w=2):
    p = progs(n)
    k = 0
    while (1 << k) < n:
        d = 1 << k
        for r in range(n):
            if r % (2 * d) == d:
                send(p, r, k, r - d, [[r * w, d * w]])
                recv(p, r - d, k, r, [[r * w, d * w]])
        k += 1
    return p


write("gather_binomial.json",
      doc("binomial-gather", 8, 8 * 2, gather_binomial(),
          collective={"kind": "gather", "words": 2, "root": 0}))


# 6. Binomial scatter from rank 0: at step k (distance d = n/2^(k+1)) the ranks r with
#    r mod 2d = 0 send blocks [(r+d)*w, (r+2d)*w) to r+d.
def scatter_binomial(n=8, w=2):
    p = progs(n)
    d, k = n // 2, 0
    while d >= 1:
        for r in range(0, n, 2 * d):
            send(p, r, k, r + d, [[(r + d) * w, d * w]])
            recv(p, r + d, k, r, [[(r + d) * w, d * w]])
        d //= 2
        k += 1
    return p


write("scatter_binomial.json",
      doc("binomial-scatter", 8, 8 * 2, scatter_binomial(),
          collective={"kind": "scatter", "words": 2, "root": 0}))


# 7. Ring reduce_scatter with sum: step s = 0..n-2, rank q sends block (q-s-1) mod n to q+1 and
#    adds block (q-s-2) mod n from q-1 into its own copy; after n-1 steps rank q holds block q.
def reduce_scatter_ring(n=8, w=2):
    p = progs(n)
    for s in range(n - 1):
        for q in range(n):
            b_out, b_in = (q - s - 1) % n, (q - s - 2) % n
            send(p, q, s, (q + 1) % n, [[b_out * w, w]])
            recv(p, q, s, (q - 1) % n, [[b_in * w, w]], op="sum")
    return p


write("reduce_scatter_ring_sum.json",
      doc("ring-reduce-scatter-sum", 8, 8 * 2, reduce_scatter_ring(),
          collective={"kind": "reduce_scatter", "words": 2, "op": "sum"}))


# 8. Broadcast from rank 0 with multi-port sends on fixed injection channels 0 and 1 (needs a
#    port model of >= 2 channels: --ports 2 or all). Step 0: 0 -> 1 (ch 0), 0 -> 2 (ch 1);
#    step 1: 0 -> 3, 0 -> 4, 1 -> 5, 1 -> 6, 2 -> 7.
def broadcast_multiport(w=8):
    p = progs(8)
    tree = {0: [(0, [1, 2])], 1: [(0, [3, 4]), (1, [5, 6]), (2, [7])]}
    for s, senders in tree.items():
        for src, dsts in senders:
            for ch, dst in enumerate(dsts):
                send(p, src, s, dst, [[0, w]], channel=ch)
                recv(p, dst, s, src, [[0, w]])
            step_of(p[src], s)["multiport_send"] = True
    return p


write("broadcast_multiport_channels.json",
      doc("multiport-broadcast", 8, 8, broadcast_multiport(),
          collective={"kind": "broadcast", "words": 8, "root": 0}))


# 9. Explicit initial and expected words, no collective: rank 0 sends [1,2,3,4] to rank 1, which
#    adds it to its [10,20,30,40]; rank 1 keeps a copy at [4,8) and sends the max of the two
#    halves of rank 2's ... (see the steps); rank 3 receives with min.
def explicit():
    p = progs(4)
    send(p, 0, 0, 1, [[0, 4]])
    recv(p, 1, 0, 0, [[0, 4]], op="sum")
    step_of(p[1], 0)["after"] = [{"src": [[0, 4]], "dst": [[4, 4]]}]
    send(p, 1, 1, 2, [[4, 4]])
    recv(p, 2, 1, 1, [[0, 4]], op="max")
    send(p, 2, 2, 3, [[0, 4]])
    recv(p, 3, 2, 2, [[0, 4]], op="min")
    return p


write("explicit_initial_expected.json",
      doc("explicit-words", 4, 8, explicit(),
          initial=[{"rank": 0, "offset": 0, "words": [1, 2, 3, 4]},
                   {"rank": 1, "offset": 0, "words": [10, 20, 30, 40]},
                   {"rank": 2, "offset": 0, "words": [5, 50, 5, 50]},
                   {"rank": 3, "offset": 0, "words": [100, 0, 100, 4294967295]}],
          expected=[{"rank": 1, "offset": 0, "words": [11, 22, 33, 44, 11, 22, 33, 44]},
                    {"rank": 2, "offset": 0, "words": [11, 50, 33, 50]},
                    {"rank": 3, "offset": 0, "words": [11, 0, 33, 50]}]))


# 10. Neither collective nor expected: the oracle is the reference execution. A ring shift of
#     [0,4) into [4,8), a local sum, and an indexed local copy (reversal, word by word).
def reference():
    n = 6
    p = progs(n)
    for r in range(n):
        send(p, r, 0, (r + 1) % n, [[0, 4]])
        recv(p, r, 0, (r - 1) % n, [[4, 4]])
        step_of(p[r], 0)["after"] = [{"src": [[4, 4]], "dst": [[0, 4]], "op": "sum"}]
        step_of(p[r], 1)["locals"] = [{"src": [[3, 1], [2, 1], [1, 1], [0, 1]], "dst": [[8, 4]],
                                       "indexed": True}]
        send(p, r, 1, (r + 3) % n, [[8, 2]], tag=100 + r)
        recv(p, r, 1, (r + 3) % n, [[12, 2]], tag=100 + (r + 3) % n)
    return p


write("reference_execution.json", doc("reference-exchange", 6, 16, reference()))


# 11. Strided ranges: the binomial gather of 5., but every message carries its blocks as their
#     even words then their odd words ([r*w, d*w/2, 2] then [r*w+1, d*w/2, 2]) and the receiver
#     scatters them back the same way: the layout survives only if strides work on both sides.
def gather_strided(n=8, w=4):
    p = progs(n)
    k = 0
    while (1 << k) < n:
        d = 1 << k
        for r in range(n):
            if r % (2 * d) == d:
                ranges = [[r * w, d * w // 2, 2], [r * w + 1, d * w // 2, 2]]
                send(p, r, k, r - d, ranges)
                recv(p, r - d, k, r, ranges)
        k += 1
    return p


write("gather_strided.json",
      doc("strided-gather", 8, 8 * 4, gather_strided(),
          collective={"kind": "gather", "words": 4, "root": 0}))


# WRONG on purpose: recursive doubling where rank 5, in step 0, copies its partner's block over
# its own instead of adding it: x_5 is lost, every rank ends with the sum minus x_5 (plus x_4).
write("wrong_allreduce_forgets_rank.json",
      doc("rd-allreduce-forgets-rank5", 8, 8, allreduce_rd(forget=5),
          collective={"kind": "allreduce", "words": 4, "op": "sum"}))


# CONFLICT on purpose (mesh:4x4, XY routing): in step 0, 0 -> 3 and 1 -> 2 both use the
# channel from router 1 to router 2 (+x). Delivery is still correct.
def conflict():
    p = progs(4)
    send(p, 0, 0, 3, [[0, 16]])
    recv(p, 3, 0, 0, [[0, 16]])
    send(p, 1, 0, 2, [[0, 16]])
    recv(p, 2, 0, 1, [[0, 16]])
    return p


write("conflict_shared_channel.json", doc("row-conflict", 4, 16, conflict()))
