#!/usr/bin/env python3
"""wormnet.load on the three report shapes: hand-made files always, real ones when $WORMNET is set."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import wormnet  # noqa: E402

WORMNET = os.environ.get("WORMNET")
RUN = {"schema": "wormnet.run/2", "config": {"topology": "mesh:4x4", "algorithm": "rd-broadcast", "bytes": 32,
                                             "group": [], "profile": {"name": "ideal", "alpha": 0}},
       "ok": True, "data_check": "PASS", "cycles": 62, "latency": {"maximum_cycles": 62},
       "steps": [{"step": 0, "start": 0}], "message_log": [{"src": 0}], "wormnet": {"version": "0.9.0"}}


class LoadTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_flatten(self):
        row = wormnet.flatten(RUN)
        self.assertEqual(row["topology"], "mesh:4x4")          # config unprefixed
        self.assertEqual(row["profile.name"], "ideal")         # nested config keeps its own prefix
        self.assertEqual(row["latency.maximum_cycles"], 62)
        self.assertEqual(row["wormnet.version"], "0.9.0")
        self.assertEqual(row["group"], [])                     # a list of plain values stays
        self.assertNotIn("steps", row)                          # per-step detail does not fit a row
        self.assertNotIn("message_log", row)

    def test_run_report(self):
        rows = wormnet.load(self.write("r.json", json.dumps(RUN, indent=2)))
        self.assertEqual(len(rows), 1)
        self.assertEqual((rows[0]["algorithm"], rows[0]["cycles"], rows[0]["data_check"]),
                         ("rd-broadcast", 62, "PASS"))

    def test_compare_report(self):
        other = json.loads(json.dumps(RUN))
        other["config"]["algorithm"], other["cycles"] = "direct-alltoall", 350
        doc = {"schema": "wormnet.compare/3", "runs": [RUN, other], "summary": [{"x": 1}], "wormnet": {"git": "abc"}}
        rows = wormnet.load(self.write("c.json", json.dumps(doc)))
        self.assertEqual([(r["run"], r["algorithm"], r["cycles"]) for r in rows],
                         [(0, "rd-broadcast", 62), (1, "direct-alltoall", 350)])
        self.assertEqual(rows[1]["wormnet.git"], "abc")
        self.assertEqual(rows[1]["schema"], "wormnet.run/2")
        self.assertNotIn("x", rows[0])

    def test_tau_report(self):
        fit = {"variant": "rd-broadcast", "ports": "3", "profile": {"name": "t3d"}, "points": [{"bytes": 64}],
               "fit": {"T_s_cycles": 696.0, "T_n_cycles": 1.5, "tau": 0.0021}}
        doc = {"schema": "wormnet.tau/1", "f": "linear", "fits": [fit, dict(fit, variant="edn-broadcast")],
               "crossovers": [{"a": "x"}], "wormnet": {"git": "abc"}}
        rows = wormnet.load(self.write("t.json", json.dumps(doc)))
        self.assertEqual([(r["fit_index"], r["variant"], r["fit.T_n_cycles"]) for r in rows],
                         [(0, "rd-broadcast", 1.5), (1, "edn-broadcast", 1.5)])
        self.assertEqual((rows[0]["f"], rows[0]["profile.name"], rows[0]["wormnet.git"]), ("linear", "t3d", "abc"))
        self.assertNotIn("points", rows[0])

    def test_sweep_lines_by_point(self):
        lines = []
        for point in (2, 0, 1):  # completion order
            line = dict(RUN, key=f"k{point}", command="run", params={"bytes": str(32 << point)}, point=point)
            line["cycles"] = 100 + point
            lines.append(json.dumps(line))
        failed = {"key": "k3", "command": "run", "params": {"bytes": "-4"}, "point": 3, "ok": False, "error": "boom"}
        path = self.write("s.jsonl", "\n".join(lines + [json.dumps(failed)]) + "\n\n")
        rows = wormnet.load(path)
        self.assertEqual([(r["point"], r["params.bytes"], r.get("cycles")) for r in rows],
                         [(0, "32", 100), (1, "64", 101), (2, "128", 102), (3, "-4", None)])
        self.assertEqual((rows[3]["ok"], rows[3]["error"]), (False, "boom"))

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, r"s.jsonl:2: not JSON"):
            wormnet.load(self.write("s.jsonl", '{"a": 1}\n{"a": \n'))
        with self.assertRaisesRegex(ValueError, "is a schedule, not a report"):
            wormnet.load(self.write("sched.json", '{"schema": "wormnet.schedule/1"}'))
        with self.assertRaisesRegex(ValueError, "not a wormnet report"):
            wormnet.load(self.write("list.json", "[1, 2]"))

    def test_load_frame_without_pandas(self):
        path = self.write("r.json", json.dumps(RUN))
        with mock.patch.dict(sys.modules, {"pandas": None}):
            with self.assertRaisesRegex(ImportError, "load_frame needs pandas"):
                wormnet.load_frame(path)

    def test_load_frame(self):
        if importlib.util.find_spec("pandas") is None:
            self.skipTest("pandas is not installed")
        frame = wormnet.load_frame(self.write("r.json", json.dumps(RUN)))
        self.assertEqual(list(frame["cycles"]), [62])


@unittest.skipUnless(WORMNET, "set WORMNET to the wormnet binary to read real reports")
class RealReportsTest(unittest.TestCase):
    """The loaders on files the binary writes now (the keys a script relies on must be there)."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def wormnet(self, *args):
        r = subprocess.run([WORMNET, *args], capture_output=True, text=True, timeout=600, cwd=self.dir.name)
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr)

    def test_run(self):
        self.wormnet("run", "--topology", "mesh:4x4", "--algorithm", "rd-broadcast", "--bytes", "32",
                     "--json", self.path("r.json"))
        [row] = wormnet.load(self.path("r.json"))
        self.assertEqual((row["topology"], row["algorithm"], row["bytes"], row["data_check"], row["ok"]),
                         ("mesh:4x4", "rd-broadcast", 32, "PASS", True))
        self.assertGreater(row["cycles"], 0)
        self.assertIn("latency.maximum_cycles", row)
        self.assertIn("contention.stepwise", row)

    def test_compare(self):
        self.wormnet("compare", "--topology", "mesh:4x4", "--algorithm", "rd-broadcast,direct-alltoall",
                     "--bytes", "32", "--json", self.path("c.json"))
        rows = wormnet.load(self.path("c.json"))
        self.assertEqual([(r["algorithm"], r["ports"]) for r in rows],
                         [("rd-broadcast", "one"), ("rd-broadcast", "all"),
                          ("direct-alltoall", "one"), ("direct-alltoall", "all")])
        self.assertEqual([r["run"] for r in rows], [0, 1, 2, 3])
        self.assertTrue(all(r["data_check"] == "PASS" and r["cycles"] > 0 for r in rows))

    def test_sweep(self):
        spec = self.path("s.yaml")
        with open(spec, "w") as f:
            f.write("command: run\ntopology: mesh:4x4\nalgorithm: [rd-broadcast, direct-alltoall]\n"
                    "bytes: [32, 64]\nsource: 0\n")
        self.wormnet("sweep", spec, "-j", "2", "--out", self.path("s.jsonl"))
        rows = wormnet.load(self.path("s.jsonl"))
        self.assertEqual([(r["point"], r["algorithm"], r["bytes"]) for r in rows],
                         [(0, "rd-broadcast", 32), (1, "rd-broadcast", 64),
                          (2, "direct-alltoall", 32), (3, "direct-alltoall", 64)])
        self.assertEqual([r["params.bytes"] for r in rows], [32, 64, 32, 64])  # numbers as numbers
        self.assertTrue(all(r["ok"] and r["command"] == "run" and r["key"] for r in rows))
        # a bigger message takes longer
        self.assertLess(rows[0]["cycles"], rows[1]["cycles"])


if __name__ == "__main__":
    unittest.main()
