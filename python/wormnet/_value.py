"""Typed access to a JSON value that knows its own path (the twin of algorithms/schedule_file_reader.h).

Every check raises ScheduleError with the words the C++ reader uses, so `python3 -m wormnet
validate` and `wormnet run --schedule` print the same line for the same bad file.
"""
import json

UINT32_MAX = 0xFFFFFFFF


class ScheduleError(ValueError):
    """A malformed schedule: `FILE: JSON.PATH: what is wrong; allowed: ...`, the C++ loader's line.

    The parts stay available (`file`, `path`, `what`, `allowed`) so tools and tests can tell
    which value was refused without parsing the text. The path of the whole document is
    "(top level)", as in the C++ messages.
    """

    def __init__(self, path, what, allowed, file=None):
        self.file, self.path, self.what, self.allowed = file, path or "(top level)", what, allowed
        head = f"{file}: " if file is not None else ""
        super().__init__(printable(f"{head}{self.path}: {what}; allowed: {allowed}"))


def printable(s):
    """Control characters as \\xNN, as the C++ shows them: a message stays one line whatever the file holds."""
    return "".join(f"\\x{ord(ch):02x}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch for ch in s)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def short_dump(v):
    s = json.dumps(v, separators=(",", ":"), ensure_ascii=True)
    return s if len(s) <= 40 else s[:37] + "..."


def kind(v):
    """How an unexpected value is named in a message ("the string \"4\"", "a list", ...).

    An integer beyond 64 bits is a floating-point number to the C++ JSON parser: named as one.
    """
    if _is_int(v) and not -(1 << 63) <= v < (1 << 64):
        v = float(v)
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f"the string {short_dump(v)}"
    if isinstance(v, (int, float)):
        return f"the number {short_dump(v)}"
    return "a list" if isinstance(v, list) else "an object"


class Value:
    """One JSON value, its path and the file it came from; `fail` raises at that path."""

    def __init__(self, file, v, path=""):
        self.file, self.v, self.path = file, v, path

    def fail(self, what, allowed):
        raise ScheduleError(self.path, what, allowed, self.file)

    def object(self, known):
        """An object whose keys are all in `known` (keys starting with "x-" are the user's own)."""
        if not isinstance(self.v, dict):
            self.fail(f"{kind(self.v)} is not an object", "an object with keys " + ", ".join(known))
        for k in sorted(self.v):  # the C++ JSON object is a sorted map: the first unknown key in name order
            if not k.startswith("x-") and k not in known:
                self.at_key(k).fail(f"unknown key '{k}'",
                                    "the keys " + ", ".join(known) + " (or your own, named x-...)")
        return self

    def has(self, key):
        return key in self.v

    def at_key(self, key):
        return Value(self.file, self.v[key], key if not self.path else f"{self.path}.{key}")

    def need(self, key, allowed):
        """A required key (a missing one is reported at the object's own path)."""
        if key not in self.v:
            self.fail(f"missing key '{key}'", allowed)
        return self.at_key(key)

    def __len__(self):
        return len(self.v)

    def item(self, i):
        return Value(self.file, self.v[i], f"{self.path}[{i}]")

    def items(self):
        return [self.item(i) for i in range(len(self.v))]

    def array(self, allowed, max_items=None):
        if not isinstance(self.v, list):
            self.fail(f"{kind(self.v)} is not a list", allowed)
        if max_items is not None and len(self.v) > max_items:
            self.fail(f"{len(self.v)} items", f"at most {max_items}")
        return self

    def uint(self, lo, hi):
        allowed = f"an integer {lo}..{hi}"
        if not _is_int(self.v) or not -(1 << 63) <= self.v < (1 << 64):
            self.fail(f"{kind(self.v)} is not an integer", allowed)
        if self.v < 0:
            self.fail(f"{self.v} is negative", allowed)
        if not lo <= self.v <= hi:
            self.fail(f"{self.v} is out of range", allowed)
        return self.v

    def string(self, allowed):
        if not isinstance(self.v, str):
            self.fail(f"{kind(self.v)} is not a string", allowed)
        return self.v

    def boolean(self):
        if not isinstance(self.v, bool):
            self.fail(f"{kind(self.v)} is not true or false", "true or false")
        return self.v
