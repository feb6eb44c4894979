"""Builder for `wormnet.schedule/1` files: a collective written in Python, run by `wormnet run --schedule`.

The builder keeps the file's own shape (per rank, per step: locals, sends, receives, after), so
what a script adds is exactly what the simulator will execute; `send()` also adds the matching
receive because an unmatched pair is the commonest mistake when writing schedules by hand.
Files are written in the text `wormnet export` writes (one step per line), so a Python-built
schedule and an exported built-in one diff line by line.
"""
import json

from . import _jsontext
from .validate import COLLECTIVES, SCHEMA, validate

_STEP_LISTS = ("locals", "sends", "recvs", "after")


def collective(kind, words, root=None, op=None):
    """The `collective` claim as a dict (root and op only where given), e.g. collective("broadcast", 4, root=0).

    The kind is checked here so a typo fails where it is written; the rest is checked by validate().
    """
    if kind not in COLLECTIVES:
        raise ValueError(f"unknown collective '{kind}'; allowed: {', '.join(COLLECTIVES)}")
    d = {"kind": kind, "words": words}
    if root is not None:
        d["root"] = root
    if op is not None:
        d["op"] = op
    return d


def normalize_ranges(spec):
    """`(offset, count)`, `(offset, count, stride)` or a list of them, as the file's list of lists.

    A stride of 1 is written in the two-element form, as a person (and `wormnet export`) writes it.
    """
    def one(r):
        if not isinstance(r, (list, tuple)) or len(r) not in (2, 3) or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in r):
            raise ValueError(f"{r!r} is not a range; allowed: (offset, count) or (offset, count, stride)")
        return list(r[:2]) if len(r) == 3 and r[2] == 1 else list(r)
    if not isinstance(spec, (list, tuple)):
        raise ValueError(f"{spec!r} is not a range or a list of ranges")
    if spec and isinstance(spec[0], int):
        return [one(spec)]
    return [one(r) for r in spec]


class Schedule:
    """A schedule under construction: per rank, per step number, the step's lists.

    Steps may be added in any order; to_dict() and save() write them sorted (the format requires
    increasing step numbers per rank) and ranks sorted, so the output is deterministic.
    `meta` (free-form facts of the tool that wrote the file) and `synth` are kept as given.
    """

    def __init__(self, name, ranks, memory_words, collective=None):
        self.name, self.ranks, self.memory_words = name, ranks, memory_words
        self.collective = dict(collective) if collective is not None else None
        self.meta = self.synth = None
        self._programs = {}  # rank -> step -> {"multiport_send": bool, "locals": [...], ...}
        self._initial, self._expected = [], []

    def _step(self, step, rank):
        return self._programs.setdefault(rank, {}).setdefault(
            step, {"multiport_send": False, "locals": [], "sends": [], "recvs": [], "after": []})

    def send(self, step, src_rank, dst_rank, ranges, tag=None, recv_ranges=None, op="copy", channel=None,
             incoming_first=False, recv=True):
        """Adds a send on src_rank's step and, unless recv=False, its receive on dst_rank's same step.

        `op` and `incoming_first` describe how the receiver merges the message; `recv_ranges`
        scatters it elsewhere than the source ranges. Returns self, so calls can chain.
        """
        m = {"dst": dst_rank, "src": normalize_ranges(ranges)}
        if tag is not None and tag != step:  # the tag defaults to the step number
            m["tag"] = tag
        if channel is not None:
            m["channel"] = channel
        self._step(step, src_rank)["sends"].append(m)
        if recv:
            self.recv(step, dst_rank, src_rank, ranges if recv_ranges is None else recv_ranges, tag=tag, op=op,
                      incoming_first=incoming_first)
        return self

    def recv(self, step, rank, src_rank, ranges, tag=None, op="copy", incoming_first=False):
        """Adds a receive alone (its send written separately, e.g. at another step with an explicit tag)."""
        r = {"src": src_rank, "dst": normalize_ranges(ranges)}
        if tag is not None and tag != step:
            r["tag"] = tag
        if op != "copy":
            r["op"] = op
        if incoming_first:
            r["incoming_first"] = True
        self._step(step, rank)["recvs"].append(r)
        return self

    def local(self, step, rank, src, dst, op="copy", indexed=False, after=False):
        """Adds a local memory operation, before the sends or (after=True) after the receives."""
        lo = {"src": normalize_ranges(src), "dst": normalize_ranges(dst)}
        if op != "copy":
            lo["op"] = op
        if indexed:
            lo["indexed"] = True
        self._step(step, rank)["after" if after else "locals"].append(lo)
        return self

    def multiport(self, step, rank, on=True):
        """Marks the step's sends as one multi-port send operation (one startup per group of sends)."""
        self._step(step, rank)["multiport_send"] = bool(on)
        return self

    def initial(self, rank, offset, words):
        """Explicit initial memory; words not given keep the seeded pattern."""
        self._initial.append({"rank": rank, "offset": offset, "words": list(words)})
        return self

    def expect(self, rank, offset, words):
        """An explicit final-memory check, added to the collective's oracle."""
        self._expected.append({"rank": rank, "offset": offset, "words": list(words)})
        return self

    def steps(self):
        """The number of global steps (largest step number + 1; 0 when empty)."""
        return 1 + max((s for prog in self._programs.values() for s in prog), default=-1)

    def to_dict(self):
        """The file's JSON object; default-valued keys (empty lists, false flags, tag = step) left out."""
        d = {"schema": SCHEMA, "name": self.name, "ranks": self.ranks, "memory_words": self.memory_words}
        if self.collective is not None:
            d["collective"] = dict(self.collective)
        if self._initial:
            d["initial"] = [dict(e) for e in self._initial]
        if self._expected:
            d["expected"] = [dict(e) for e in self._expected]
        for key in ("synth", "meta"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        programs = []
        for rank in sorted(self._programs):
            steps = []
            for number in sorted(self._programs[rank]):
                st = self._programs[rank][number]
                out = {"step": number}
                for key in _STEP_LISTS:
                    if st[key]:
                        out[key] = [dict(x) for x in st[key]]
                if st["multiport_send"]:
                    out["multiport_send"] = True
                steps.append(out)
            programs.append({"rank": rank, "steps": steps})
        d["programs"] = programs
        return d

    def validate(self, **kwargs):
        """Raises ScheduleError if the file this schedule writes would be refused (see wormnet.validate)."""
        validate(self.to_dict(), **kwargs)
        return self

    def dumps(self):
        """The file's text, as save() writes it."""
        return dumps(self.to_dict())

    def save(self, path, check=True, **kwargs):
        """Writes the JSON file (validated first unless check=False, so no invalid file is left behind)."""
        d = self.to_dict()
        if check:
            validate(d, file=str(path), **kwargs)
        with open(path, "w", encoding="utf-8") as f:
            f.write(dumps(d))
        return path

    @classmethod
    def from_dict(cls, doc, file=None, **kwargs):
        """Builds a Schedule from a document, validated first (the user's own x-... keys are not kept)."""
        validate(doc, file=file, **kwargs)
        s = cls(doc["name"], doc["ranks"], doc["memory_words"], doc.get("collective"))
        s.synth, s.meta = doc.get("synth"), doc.get("meta")
        for e in doc.get("initial", []):
            s.initial(e["rank"], e["offset"], e["words"])
        for e in doc.get("expected", []):
            s.expect(e["rank"], e["offset"], e["words"])
        for prog in doc["programs"]:
            rank = prog["rank"]
            for st in prog["steps"]:
                n = st["step"]
                s._step(n, rank)["multiport_send"] = st.get("multiport_send", False)
                for after in (False, True):
                    for lo in st.get("after" if after else "locals", []):
                        s.local(n, rank, lo["src"], lo["dst"], op=lo.get("op", "copy"),
                                indexed=lo.get("indexed", False), after=after)
                for m in st.get("sends", []):
                    s.send(n, rank, m["dst"], m["src"], tag=m.get("tag"), channel=m.get("channel"), recv=False)
                for r in st.get("recvs", []):
                    s.recv(n, rank, r["src"], r["dst"], tag=r.get("tag"), op=r.get("op", "copy"),
                           incoming_first=r.get("incoming_first", False))
        return s

    @classmethod
    def load(cls, path, **kwargs):
        """Reads and validates a schedule file, refusing what `wormnet run --schedule` refuses (a missing
        file, bad JSON, a key twice, ...); YAML with the same keys if the name ends in .yaml and
        PyYAML is installed (wormnet itself reads JSON only)."""
        if str(path).endswith((".yaml", ".yml")):
            try:
                import yaml
            except ImportError as e:
                raise ImportError("reading a YAML schedule needs PyYAML (Debian: python3-yaml); "
                                  "or write the schedule as JSON") from e
            with open(path, encoding="utf-8") as f:
                doc = yaml.safe_load(f)
        else:
            doc = _jsontext.read(path)
        return cls.from_dict(doc, file=str(path), **kwargs)


# The key order algorithms/schedule_file_write.cpp builds each object in (nlohmann::ordered_json).
_ORDER = {"step": ("step", "locals", "sends", "recvs", "after", "multiport_send"),
          "send": ("dst", "src", "tag", "channel"),
          "recv": ("src", "dst", "tag", "op", "incoming_first"),
          "local": ("src", "dst", "op", "incoming_first", "indexed"),
          "collective": ("kind", "words", "root", "op"),
          "words": ("rank", "offset", "words")}


def _ordered(obj, kind):
    out = {k: obj[k] for k in _ORDER[kind] if k in obj}
    if kind == "step":
        for key, item in (("locals", "local"), ("after", "local"), ("sends", "send"), ("recvs", "recv")):
            if key in out:
                out[key] = [_ordered(x, item) for x in out[key]]
    return out


def _compact(v, sort_keys=False):
    # nlohmann's dump(): no spaces; `meta` and `synth` are plain (sorted) JSON objects in C++.
    return json.dumps(v, separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=False)


def dumps(doc):
    """The text algorithms/schedule_file_write.cpp writes for the same document, byte for byte.

    One top-level key per line and one step per line: as readable as a hand-written file, a
    diff shows which steps changed, and `wormnet export` output reads back to the same text.
    `doc` is a document as Schedule.to_dict() makes it (default values left out).
    """
    lines = ["{"]
    for key in ("schema", "name", "ranks", "memory_words", "collective", "initial", "expected", "synth", "meta"):
        if key in doc:
            v = doc[key]
            if key == "collective":
                v = _ordered(v, "collective")
            elif key in ("initial", "expected"):
                v = [_ordered(e, "words") for e in v]
            lines.append(f'  "{key}": {_compact(v, sort_keys=key in ("synth", "meta"))},')
    text = "\n".join(lines) + '\n  "programs": ['
    programs = [p for p in sorted(doc["programs"], key=lambda p: p["rank"]) if p["steps"]]
    for i, p in enumerate(programs):
        steps = ",".join(f"\n      {_compact(_ordered(st, 'step'))}"
                         for st in sorted(p["steps"], key=lambda st: st["step"]))
        text += f'{"," if i else ""}\n    {{"rank": {p["rank"]}, "steps": [{steps}\n    ]}}'
    return text + ("\n  ]\n}\n" if programs else "]\n}\n")
