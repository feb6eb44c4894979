"""A schedule file's text to JSON, refused where and as the C++ reader refuses it (parse_json in
algorithms/schedule_file.cpp): nesting deeper than 32, a syntax error (line and column), a
number beyond 64 bits, a key twice in one object. Python's json module alone would accept the
last three (NaN, 1e400 as infinity, the later of two keys).
"""
import json
import math
import os
import re

from ._value import ScheduleError

SCHEMA = "wormnet.schedule/1"
MAX_DEPTH = 32
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_KEYS = re.compile(r'("(?:[^"\\]|\\.)*")(\s*:)?|[\[\]{}]')
_CONSTANTS = re.compile(r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN')


class _TooLarge(Exception):
    pass


class _Constant(Exception):
    pass


def _line_col(text, pos):
    """1-based line and byte column of character `pos` (the C++ counts bytes)."""
    start = text.rfind("\n", 0, pos) + 1
    return text.count("\n", 0, pos) + 1, len(text[start:pos].encode("utf-8")) + 1


def _float(s):
    v = float(s)
    if math.isinf(v):
        raise _TooLarge()
    return v


def _constant(s):
    raise _Constant()


def _first_duplicate(text):
    """The first key, in document order, that repeats within its object (None if none)."""
    stack = []
    for m in _KEYS.finditer(text):
        tok = m.group()
        if tok in "{[":
            stack.append(set() if tok == "{" else None)
        elif tok in "}]":
            stack.pop()
        elif m.group(2):  # a string followed by ':' is a key
            key = json.loads(m.group(1))
            if key in stack[-1]:
                return key
            stack[-1].add(key)
    return None


_LITERALS = {"t": "true", "f": "false", "n": "null"}
_HEX = "0123456789abcdefABCDEF"


def _number_end(text, i):
    """nlohmann's number lexer from i: the last character of the number, or where it fails."""
    n = len(text)

    def digit(k):
        return k < n and text[k].isdigit()

    if text[i] == "-":
        i += 1
    if not digit(i):
        return i
    if text[i] == "0":
        i += 1
    else:
        while digit(i):
            i += 1
    if i < n and text[i] == ".":
        i += 1
        if not digit(i):
            return i
        while digit(i):
            i += 1
    if i < n and text[i] in "eE":
        i += 1
        if i < n and text[i] in "+-":
            i += 1
        if not digit(i):
            return i
        while digit(i):
            i += 1
    return i - 1


def _token_end(text, p):
    """Where nlohmann stops on the token starting at p: its last character when the token is well
    formed (the parser then refuses it), else the character its lexer refuses (len(text): end)."""
    n = len(text)
    if p >= n or text[p] in "{}[],:":
        return p
    c = text[p]
    if c == '"':
        i = p + 1
        while i < n and text[i] != '"':
            if text[i] == "\\":
                bad = _escape_end(text, i)
                if bad is not None:
                    return bad
                i += 6 if text[i + 1] == "u" else 2
                continue
            if ord(text[i]) < 0x20:
                return i
            i += 1
        return i
    if c in _LITERALS:
        lit = _LITERALS[c]
        return next((p + k for k in range(len(lit)) if p + k >= n or text[p + k] != lit[k]), p + len(lit) - 1)
    if c == "-" or c.isdigit():
        return _number_end(text, p)
    return p


def _error_pos(text, p, msg):
    """The character nlohmann's parser reports for the error Python's json found at p."""
    if msg.startswith("Invalid control character"):
        return p
    if msg.startswith("Invalid \\"):  # a bad escape (Python points at its backslash or the u)
        bad = _escape_end(text, p if text[p] == "\\" else p - 1)
        return p if bad is None else bad
    if msg.startswith("Unterminated string"):
        return _token_end(text, p)
    if p < len(text) and text[p] in ".eE" and p > 0 and text[p - 1].isdigit():
        start = p
        while start > 0 and text[start - 1] in "0123456789.eE+-":
            start -= 1
        end = _number_end(text, start)
        if end >= p:
            return end
    return _token_end(text, p)


def _escape_end(text, b):
    """The character nlohmann refuses in the escape at backslash b, or None if it is well formed."""
    n = len(text)
    if b + 1 < n and text[b + 1] == "u":
        return next((k for k in range(b + 2, b + 6) if k >= n or text[k] not in _HEX), None)
    if b + 1 >= n or text[b + 1] not in '"\\/bfnrt':
        return min(b + 1, n)
    return None


def parse(text, file):
    """The document of `text` (a str), or ScheduleError at "(top level)" as the C++ words it."""
    def refuse(what, allowed):
        raise ScheduleError("", what, allowed, file)

    depth = 0
    for m in _TOKENS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line, col = _line_col(text, m.start())
                refuse(f"nested more than {MAX_DEPTH} deep at line {line} column {col}",
                       f"the format's own nesting ({SCHEMA})")
        elif tok in "]}":
            depth -= 1
    bom = 1 if text.startswith("\ufeff") else 0  # skipped by nlohmann, still counted in columns
    syntax = f"a JSON document ({SCHEMA})"
    try:
        doc = json.loads(text[bom:], parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as e:
        line, col = _line_col(text, bom + _error_pos(text[bom:], e.pos, e.msg))
        refuse(f"not valid JSON: syntax error at line {line} column {col}", syntax)
    except _TooLarge:
        refuse("a number too large for 64 bits", "integers 0..18446744073709551615")
    except _Constant:  # NaN, Infinity: not JSON
        at = next(m.start() for m in _CONSTANTS.finditer(text) if m.group()[0] != '"')
        line, col = _line_col(text, _token_end(text, at))
        refuse(f"not valid JSON: syntax error at line {line} column {col}", syntax)
    duplicate = _first_duplicate(text)
    if duplicate is not None:
        refuse(f"the key '{duplicate}' twice in one object", "each key once per object")
    return doc


def read(path):
    """The document of a schedule file; a missing, unreadable or non-regular file is refused too."""
    file = str(path)
    if not os.path.exists(path):
        raise ScheduleError("", "cannot be read (no such file)", f"a {SCHEMA} JSON file", file)
    if not os.path.isfile(path):
        raise ScheduleError("", "not a regular file", f"a {SCHEMA} JSON file", file)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except PermissionError:
        raise ScheduleError("", "cannot be read (permission denied)", f"a readable {SCHEMA} file", file) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        text = data[:e.start].decode("utf-8")
        line, col = _line_col(text, len(text))
        raise ScheduleError("", f"not valid JSON: syntax error at line {line} column {col}",
                            f"a JSON document ({SCHEMA})", file) from None
    return parse(text, file)
