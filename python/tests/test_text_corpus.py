#!/usr/bin/env python3
"""Files refused before any key is read (not JSON, too deep, a key twice, unreadable), and the C++
test suite's corpus of malformed files: Python refuses each where and as `wormnet` does."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import wormnet  # noqa: E402

WORMNET = os.environ.get("WORMNET")

# Text the JSON reader refuses before any key is looked at: (name, text, words after "(top level): ").
# The columns are nlohmann's (the C++ parser's), which Python's json module reports elsewhere.
TEXTS = [
    ("syntax error", '{\n  "schema": "wormnet.schedule/1",\n  "ranks": 4\n  "name": "x"}',
     "not valid JSON: syntax error at line 4 column 8"),
    ("bad literal", "this is not JSON", "not valid JSON: syntax error at line 1 column 2"),
    ("number grammar", '{"ranks": [1.5E+x]}', "not valid JSON: syntax error at line 1 column 17"),
    ("bad escape", '{"name": "a\\qb"}', "not valid JSON: syntax error at line 1 column 13"),
    ("empty", "", "not valid JSON: syntax error at line 1 column 1"),
    ("NaN", '{"ranks": NaN}', "not valid JSON: syntax error at line 1 column 11"),
    ("1e400", '{"ranks": 1e400}', "a number too large for 64 bits; allowed: integers 0..18446744073709551615"),
    ("deep", "[" * 33 + "]" * 33, "nested more than 32 deep at line 1 column 33"),
    ("duplicate key", '{"programs": [{"rank": 0, "steps": [], "steps": []}], "ranks": 2, "ranks": 2}',
     "the key 'steps' twice in one object; allowed: each key once per object"),
]


class TextTest(unittest.TestCase):
    def test_each_text(self):
        with tempfile.TemporaryDirectory() as tmp:
            for i, (name, text, words) in enumerate(TEXTS):
                with self.subTest(name):
                    path = os.path.join(tmp, f"t{i}.json")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(text)
                    with self.assertRaises(wormnet.ScheduleError) as e:
                        wormnet.Schedule.load(path)
                    self.assertEqual(e.exception.path, "(top level)")
                    self.assertTrue(str(e.exception).startswith(f"{path}: (top level): {words}"), str(e.exception))

    def test_control_characters_shown_as_escapes(self):
        d = {"schema": "wormnet.schedule/1", "name": "a\tb\n"}
        with self.assertRaises(wormnet.ScheduleError) as e:
            wormnet.validate(d, file="f\x7f.json")
        self.assertEqual(str(e.exception), "f\\x7f.json: name: 'a\\x09b\\x0a' is not a name; allowed: a name of 1..64 "
                                           "printable characters without quotes, commas or backslashes")

    def test_files_that_cannot_be_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(wormnet.ScheduleError) as e:
                wormnet.Schedule.load(os.path.join(tmp, "nope.json"))
            self.assertIn("(top level): cannot be read (no such file)", str(e.exception))
            with self.assertRaises(wormnet.ScheduleError) as e:
                wormnet.Schedule.load(tmp)
            self.assertEqual(str(e.exception), f"{tmp}: (top level): not a regular file; allowed: a "
                                               f"wormnet.schedule/1 JSON file")

    @unittest.skipUnless(WORMNET, "set WORMNET to compare with the C++ reader")
    def test_same_line_as_cpp(self):
        with tempfile.TemporaryDirectory() as tmp:
            for i, (name, text, _) in enumerate(TEXTS):
                with self.subTest(name):
                    path = os.path.join(tmp, f"t{i}.json")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(text)
                    with self.assertRaises(wormnet.ScheduleError) as e:
                        wormnet.Schedule.load(path)
                    r = subprocess.run([WORMNET, "run", "--topology", "mesh:2x2", "--schedule", path],
                                       capture_output=True, text=True, timeout=120)
                    self.assertEqual((r.returncode, r.stderr), (2, f"error: {e.exception}\n"))


CORPUS = os.path.join(ROOT, "testbench", "schedule_files", "bad")
# Cases of the C++ corpus refused only when a run starts (they need the network, the port model,
# the machine's memory or the run's --seed): Python accepts them.
RUN_TIME = ("62-expected-contradicts-collective.json", "64-channel-beyond-port-model.json",
            "66-ranks-larger-than-topology.json", "67-ranks-larger-than-group.json", "85-memory-words-huge.json")


def corpus_cases():
    """(file, path, wormnet args, must contain) of testbench/schedule_files/bad/cases.txt."""
    out = []
    with open(os.path.join(CORPUS, "cases.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            name, want, args, contain = (line.split("\t") + ["", ""])[:4]
            out.append((name if name.startswith("/") else os.path.join(CORPUS, name), want,
                        args or "--topology mesh:4x4", contain))
    return out


@unittest.skipUnless(os.path.exists(os.path.join(CORPUS, "cases.txt")), "no C++ bad-file corpus in this tree")
class CorpusTest(unittest.TestCase):
    """The C++ test suite's malformed files: Python refuses each at the same JSON path."""

    def test_same_path(self):
        for path, want, _, contain in corpus_cases():
            with self.subTest(os.path.basename(path)):
                if os.path.basename(path) in RUN_TIME:
                    wormnet.Schedule.load(path)
                    continue
                with self.assertRaises(wormnet.ScheduleError) as e:
                    wormnet.Schedule.load(path)
                self.assertEqual(e.exception.path, want, str(e.exception))
                self.assertIn(contain, str(e.exception))

    @unittest.skipUnless(WORMNET, "set WORMNET to compare with the C++ reader")
    def test_same_line(self):
        for path, _, args, _ in corpus_cases():
            if os.path.basename(path) in RUN_TIME:
                continue
            with self.subTest(os.path.basename(path)):
                with self.assertRaises(wormnet.ScheduleError) as e:
                    wormnet.Schedule.load(path)
                r = subprocess.run([WORMNET, "run", "--schedule", path, *args.split()], capture_output=True,
                                   text=True, timeout=120)
                self.assertEqual((r.returncode, r.stderr), (2, f"error: {e.exception}\n"))


if __name__ == "__main__":
    unittest.main()
