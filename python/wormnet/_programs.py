"""The per-rank programs of a schedule: steps, ranges, and the send/receive matching.

The twin of algorithms/schedule_file_steps.cpp: same order of checks, same paths, same words,
so the first problem Python reports is the one `wormnet run --schedule` would report.
"""
MAX_STEP = (1 << 20) - 1
MAX_MESSAGE_WORDS = (64 << 20) // 4  # one message, as --bytes allows
MAX_CHANNEL = 63
K_RANGE = "a range [offset, count] or [offset, count, stride] (words)"
SEND_SHAPE = 'a send {"dst": rank, "src": [ranges]}'
RECV_SHAPE = 'a receive {"src": rank, "dst": [ranges]}'
LOCAL_SHAPE = 'a local op {"src": [ranges], "dst": [ranges]}'


def ranges(v, memory):
    """A non-empty list of ranges inside memory; returns its total word count."""
    v.array("a list of ranges [[offset, count], ...]")
    if len(v) == 0:
        v.fail("an empty list", "at least one range [offset, count]")
    words = 0
    for r in v.items():
        r.array(K_RANGE)
        if len(r) not in (2, 3):
            r.fail(f"a list of {len(r)} numbers", K_RANGE)
        offset = r.item(0).uint(0, memory - 1)
        count = r.item(1).uint(1, memory)
        stride = r.item(2).uint(1, memory) if len(r) == 3 else 1
        end = offset + (count - 1) * stride + 1
        if end > memory:
            shown = f"{offset}, {count}" + (f", {stride}" if len(r) == 3 else "")
            r.fail(f"[{shown}] ends at word {end}, past memory_words {memory}",
                   f"ranges inside words 0..{memory - 1}")
        words += count
        if words > MAX_MESSAGE_WORDS:
            v.fail(f"{words} words or more", f"at most {MAX_MESSAGE_WORDS} words (64 MiB)")
    return words


def combine(obj, operators):
    if obj.has("op"):
        op = obj.at_key("op")
        allowed = "an operator: " + ", ".join(operators)
        name = op.string(allowed)
        if name not in operators:
            op.fail(f"unknown operator '{name}'", allowed)
    if obj.has("incoming_first"):
        obj.at_key("incoming_first").boolean()


def rank_value(v, ranks, me, what):
    r = v.uint(0, ranks - 1)
    if r == me:
        v.fail(f"rank {me} {what} itself", "another rank")
    return r


def local_ops(step, key, memory, operators):
    if not step.has(key):
        return
    for lo in step.at_key(key).array("a list of local ops").items():
        lo.object(("src", "dst", "op", "indexed", "incoming_first"))
        n_src = ranges(lo.need("src", LOCAL_SHAPE), memory)
        n_dst = ranges(lo.need("dst", LOCAL_SHAPE), memory)
        combine(lo, operators)
        if lo.has("indexed"):
            lo.at_key("indexed").boolean()
        if n_src != n_dst:
            lo.at_key("dst").fail(f"{n_dst} words, src has {n_src}", "as many words as src")


def program(steps, rank, ranks, memory, operators, sends, recvs):
    """Checks rank's steps; appends (src, dst, tag, words, step, path) of its sends and receives."""
    last = None
    for st in steps.array("a list of steps").items():
        st.object(("step", "locals", "sends", "recvs", "after", "multiport_send"))
        num = st.need("step", 'a step {"step": n, ...}')
        number = num.uint(0, MAX_STEP)
        if last is not None and number <= last:
            num.fail(f"step {number} after step {last}", "the steps of a rank in increasing order, each once")
        last = number
        local_ops(st, "locals", memory, operators)
        local_ops(st, "after", memory, operators)
        if st.has("multiport_send"):
            st.at_key("multiport_send").boolean()
        if st.has("sends"):
            for s in st.at_key("sends").array("a list of sends").items():
                s.object(("dst", "src", "tag", "channel"))
                dst = rank_value(s.need("dst", SEND_SHAPE), ranks, rank, "sends to")
                words = ranges(s.need("src", SEND_SHAPE), memory)
                tag = s.at_key("tag").uint(0, 0xFFFFFFFF) if s.has("tag") else number
                if s.has("channel"):
                    s.at_key("channel").uint(0, MAX_CHANNEL)
                sends.append((rank, dst, tag, words, number, s.path))
        if st.has("recvs"):
            for r in st.at_key("recvs").array("a list of receives").items():
                r.object(("src", "dst", "tag", "op", "incoming_first"))
                src = rank_value(r.need("src", RECV_SHAPE), ranks, rank, "receives from")
                words = ranges(r.need("dst", RECV_SHAPE), memory)
                tag = r.at_key("tag").uint(0, 0xFFFFFFFF) if r.has("tag") else number
                combine(r, operators)
                recvs.append((src, rank, tag, words, number, r.path))


def match(fail, sends, recvs):
    """Every send has one receive and the reverse, k-th to k-th per (src, dst, tag), same length,
    the receive in the send's step or later (so no file can deadlock on its receives).

    Keys are visited in sorted order and, within a key, in program order (a receive matches the
    oldest unmatched message), so the first mismatch is the C++ reader's first mismatch.
    """
    by_key = {}
    for e in sends:
        by_key.setdefault(e[:3], ([], []))[0].append(e)
    for e in recvs:
        by_key.setdefault(e[:3], ([], []))[1].append(e)
    send_rule = "every send matched by one receive (same ranks, same tag, same length)"
    recv_rule = "every receive matched by one send (same ranks, same tag, same length)"
    for (src, dst, tag), (ss, rs) in sorted(by_key.items()):
        if not rs:
            fail(ss[0][5], f"rank {src} sends to rank {dst} with tag {tag}, and rank {dst} has no receive from "
                           f"{src} with tag {tag}", send_rule)
        if not ss:
            fail(rs[0][5], f"rank {dst} receives from rank {src} with tag {tag}, and rank {src} never sends to "
                           f"{dst} with tag {tag}", recv_rule)
        for s, r in zip(ss, rs):
            if r[4] < s[4]:
                fail(r[5], f"receives in step {r[4]} the message rank {src} sends in step {s[4]} ({s[5]})",
                     "a receive in its send's step or a later one")
            if s[3] != r[3]:
                fail(r[5], f"receives {r[3]} words, and the matching send ({s[5]}) sends {s[3]}",
                     "a receive as long as its send")
        if len(ss) > len(rs):
            fail(ss[len(rs)][5], f"rank {src} sends {len(ss)} messages to rank {dst} with tag {tag}, rank {dst} "
                                 f"receives {len(rs)}", send_rule)
        if len(rs) > len(ss):
            fail(rs[len(ss)][5], f"rank {dst} receives {len(rs)} messages from rank {src} with tag {tag}, rank "
                                 f"{src} sends {len(ss)}", recv_rule)
