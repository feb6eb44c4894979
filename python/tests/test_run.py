#!/usr/bin/env python3
"""Schedules built in Python, run by the simulator (`wormnet run/check --schedule`), and the
files `wormnet export` writes read back by Python. Skipped without $WORMNET."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
import wormnet  # noqa: E402
import row_col_broadcast  # noqa: E402

WORMNET = os.environ.get("WORMNET")


@unittest.skipUnless(WORMNET, "set WORMNET to the wormnet binary to run schedules")
class RunScheduleTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def wormnet(self, *args):
        return subprocess.run([WORMNET, *args], capture_output=True, text=True, timeout=600, cwd=self.dir.name)

    def test_row_col_broadcast_on_rtl(self):
        """The tutorial's example: 4x4 ranks on mesh:4x4, the verilated routers, data checked by the oracle."""
        s = row_col_broadcast.build(4, 4, 8, 5)
        s.save(self.path("rc.json"))
        r = self.wormnet("run", "--topology", "mesh:4x4", "--backend", "rtl", "--schedule", self.path("rc.json"),
                         "--json", self.path("out.json"))
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)
        with open(self.path("out.json")) as f:
            j = json.load(f)
        self.assertEqual(j["data_check"], "PASS", j["data_error"])
        self.assertTrue(j["ok"])
        self.assertEqual((j["config"]["algorithm"], j["config"]["backend"]), (s.name, "rtl"))
        self.assertEqual(j["messages"], 15)
        self.assertEqual(j["words_sent"], 15 * 8)
        [row] = wormnet.load(self.path("out.json"))
        self.assertEqual((row["algorithm"], row["data_check"]), (s.name, "PASS"))

    def test_row_col_broadcast_is_contention_free(self):
        """Each step's messages stay in one row or one column: no two share a channel (static check)."""
        for rows, cols, root in [(4, 4, 0), (4, 4, 10), (2, 4, 7), (3, 2, 1)]:
            with self.subTest(rows=rows, cols=cols, root=root):
                row_col_broadcast.build(rows, cols, 4, root).save(self.path("rc.json"))
                r = self.wormnet("check", "--topology", f"mesh:{cols}x{rows}", "--schedule", self.path("rc.json"),
                                 "--json", self.path("check.json"))
                self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)
                with open(self.path("check.json")) as f:
                    j = json.load(f)
                self.assertTrue(j["contention_free"], j["conflicts_listed"])
                self.assertEqual((j["delivery_problems"], j["messages"]), ([], rows * cols - 1))

    def test_wrong_broadcast_fails_the_data_check(self):
        """A well-formed schedule that forgets one column: the file is accepted, the oracle refuses it."""
        good = row_col_broadcast.build(4, 4, 4, 0).to_dict()
        s = wormnet.Schedule("forgets-column-3", 16, 4, wormnet.collective("broadcast", 4, root=0))
        for prog in good["programs"]:
            for st in prog["steps"]:
                for m in st.get("sends", []):
                    if not (st["step"] >= 2 and prog["rank"] % 4 == 3):  # column phase of column 3
                        s.send(st["step"], prog["rank"], m["dst"], m["src"])
        s.save(self.path("wrong.json"))
        r = self.wormnet("run", "--topology", "mesh:4x4", "--schedule", self.path("wrong.json"),
                         "--json", self.path("out.json"))
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        with open(self.path("out.json")) as f:
            j = json.load(f)
        self.assertEqual(j["data_check"], "FAIL")
        self.assertRegex(j["data_error"], r"node (7|11|15) ")

    def test_schedule_rejected_before_simulation(self):
        """A range past memory: both readers print the same line, wormnet exits 2."""
        s = wormnet.Schedule("bad", 4, 4).send(0, 1, 2, (2, 4))
        s.save(self.path("bad.json"), check=False)
        with self.assertRaises(wormnet.ScheduleError) as e:
            wormnet.Schedule.load(self.path("bad.json"))
        self.assertEqual(e.exception.path, "programs[0].steps[0].sends[0].src[0]")
        r = self.wormnet("run", "--topology", "mesh:2x2", "--schedule", self.path("bad.json"))
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, f"error: {e.exception}\n")

    def test_exported_schedules_read_back_to_the_same_text(self):
        """Every schedule wormnet writes is valid for Python, and Python writes it back byte for byte."""
        for topology, algorithm, extra in [("mesh:4x4", "rd-broadcast", []), ("mesh:4x4", "bruck-index", []),
                                           ("mesh:4x4", "ccl-combine", ["--op", "affine"]),
                                           ("mesh:4x4", "edn-broadcast", ["--ports", "3"]),
                                           ("cube:3", "hc-dcycles", []), ("torus:4x4", "ring-reduce-scatter", [])]:
            with self.subTest(algorithm):
                out = self.path(f"{algorithm}.json")
                r = self.wormnet("export", "--topology", topology, "--algorithm", algorithm, "--bytes", "32",
                                 *extra, "--out", out)
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
                with open(out) as f:
                    text = f.read()
                s = wormnet.Schedule.load(out)
                self.assertEqual(s.dumps(), text)
                self.assertEqual(s.meta["algorithm"], algorithm)


if __name__ == "__main__":
    unittest.main()
