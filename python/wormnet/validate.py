"""Static validation of a `wormnet.schedule/1` document (docs/schedule-format.md).

Mirrors what `wormnet run --schedule FILE` refuses before simulating (algorithms/schedule_file.cpp
and schedule_file_steps.cpp; the IR rules of wn::alg::validate in schedule.cpp): the same checks
in the same order, the same JSON paths and the same words, so a script finds a bad schedule
without the simulator and reads the message `wormnet` would print. Left to the C++ side, as they
need the run: `ranks` larger than the topology or the group, a channel beyond the port model,
memory beyond the machine, and `expected` words that contradict the collective for the run's
--seed (the seeded data pattern is C++'s).
"""
from . import _programs
from ._value import UINT32_MAX, ScheduleError, Value

SCHEMA = "wormnet.schedule/1"
MAX_RANKS = 1 << 20
# The built-in operators of algorithms/combine_op.cpp (`wormnet list`); copy only stores.
OPERATORS = ("copy", "sum", "max", "min", "affine")
# kind -> (has a root, is a reduction, words of memory per rank for n ranks of w-word blocks)
COLLECTIVES = {
    "broadcast": (True, False, lambda n, w: w),
    "reduce": (True, True, lambda n, w: w),
    "allreduce": (False, True, lambda n, w: w),
    "gather": (True, False, lambda n, w: n * w),
    "scatter": (True, False, lambda n, w: n * w),
    "allgather": (False, False, lambda n, w: n * w),
    "alltoall": (False, False, lambda n, w: 2 * n * w),
    "reduce_scatter": (False, True, lambda n, w: n * w),
}
TOP_KEYS = ("schema", "name", "ranks", "memory_words", "collective", "initial", "expected", "programs", "synth",
            "meta")
NAME_RULE = "a name of 1..64 printable characters without quotes, commas or backslashes"


def validate(doc, file=None, operators=OPERATORS):
    """Checks a schedule (a dict, or anything with `to_dict()`) and returns it as a dict.

    Raises ScheduleError at the first problem, worded as the C++ reader words it. `operators`
    lists the operator names the target build knows (add the ones your C++ registers with
    register_combine_op). Keys the format does not define are refused unless they start with
    "x-" (your own), as in C++: a typo such as "recv" must not be silently ignored.
    """
    if hasattr(doc, "to_dict"):
        doc = doc.to_dict()
    operators = tuple(operators)
    top = Value(file, doc).object(TOP_KEYS)
    schema_rule = f'"schema": "{SCHEMA}"'
    schema = top.need("schema", schema_rule)
    if schema.string(schema_rule) != SCHEMA:
        schema.fail(f"'{schema.v}' is not this format", schema_rule)
    name = top.need("name", "\"name\": the algorithm's name in reports")
    text = name.string(NAME_RULE)
    if not 1 <= len(text) <= 64 or any(not " " <= ch <= "~" or ch in '",\\' for ch in text):
        name.fail(f"'{text if len(text) <= 64 else text[:61] + '...'}' is not a name", NAME_RULE)
    ranks = top.need("ranks", '"ranks": the number of ranks (>= 2)').uint(2, MAX_RANKS)
    memory = top.need("memory_words", '"memory_words": 32-bit words per rank').uint(1, UINT32_MAX)
    if top.has("collective"):
        _collective(top.at_key("collective"), ranks, memory, operators)
    for key in ("initial", "expected"):
        if top.has(key):
            _memory_words(top.at_key(key), ranks, memory)
    programs = top.need("programs", '"programs": [{"rank": r, "steps": [...]}, ...]')
    programs.array('a list of {"rank": r, "steps": [...]}')
    seen, sends, recvs = {}, [], []
    for p in programs.items():
        p.object(("rank", "steps"))
        shape = 'a program {"rank": r, "steps": [...]}'
        rv = p.need("rank", shape)
        r = rv.uint(0, ranks - 1)
        if r in seen:
            rv.fail(f"rank {r} has a program already ({seen[r]})", "one program per rank")
        seen[r] = p.path
        _programs.program(p.need("steps", shape), r, ranks, memory, operators, sends, recvs)

    def fail(path, what, allowed):
        raise ScheduleError(path, what, allowed, file)

    _programs.match(fail, sends, recvs)
    return doc


def _collective(v, ranks, memory, operators):
    v.object(("kind", "words", "root", "op"))
    kinds = ", ".join(COLLECTIVES)
    kind_v = v.need("kind", 'a collective {"kind": K, "words": w, ...}')
    k = kind_v.string("one of " + kinds)
    if k not in COLLECTIVES:
        kind_v.fail(f"unknown kind '{k}'", "one of " + kinds)
    rooted, reduces, need = COLLECTIVES[k]
    words_v = v.need("words", 'the block size in words, "words": w')
    w = words_v.uint(1, memory)
    if need(ranks, w) > memory:
        words_v.fail(f"a {k} of {w} words over {ranks} ranks needs {need(ranks, w)} words of memory, memory_words "
                     f"is {memory}", f"words <= {memory // max(1, need(ranks, w) // w)}")
    if rooted:
        v.need("root", f'"root": a rank (the {k} has one)').uint(0, ranks - 1)
    elif v.has("root"):
        v.at_key("root").fail(f"a {k} has no root", f"no root key for {k}")
    reducing = ", ".join(o for o in operators if o != "copy")
    if reduces:
        op = v.need("op", f'"op": the reduction operator ({reducing})')
        name = op.string("one of " + reducing)
        if name == "copy" or name not in operators:
            op.fail(f"unknown reduction operator '{name}'", "one of " + reducing)
    elif v.has("op"):
        v.at_key("op").fail(f"a {k} reduces nothing", f"no op key for {k}")


def _memory_words(v, ranks, memory):
    shape = 'a list of {"rank": r, "offset": o, "words": [w0, w1, ...]}'
    for e in v.array(shape).items():
        e.object(("rank", "offset", "words"))
        e.need("rank", shape).uint(0, ranks - 1)
        offset = e.need("offset", shape).uint(0, memory - 1)
        words = e.need("words", shape).array("a list of 32-bit words", memory - offset)
        for w in words.items():
            w.uint(0, UINT32_MAX)


__all__ = ["validate", "ScheduleError", "SCHEMA", "OPERATORS", "COLLECTIVES"]
