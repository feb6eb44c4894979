#!/usr/bin/env python3
"""The builder writes exactly the file the format defines, and a saved file loads back unchanged."""
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


def small():
    s = wormnet.Schedule("demo", 4, 16, wormnet.collective("allreduce", 4, op="sum"))
    s.send(0, 0, 1, (0, 4), op="sum")
    s.send(0, 1, 0, [(0, 2), (2, 2)], tag=7, recv_ranges=(8, 4), channel=1)
    s.recv(2, 3, 2, (4, 8, 1), tag=0)
    s.send(0, 2, 3, (0, 8), recv=False)
    s.local(1, 0, (8, 4), (0, 4), op="affine", indexed=True)
    s.local(0, 0, (0, 4, 2), (12, 4), after=True)
    s.multiport(0, 1)
    s.initial(0, 0, [1, 2, 3])
    s.expect(1, 4, [0xFFFFFFFF])
    return s


class BuilderTest(unittest.TestCase):
    def test_to_dict_layout(self):
        d = small().to_dict()
        self.assertEqual(d["schema"], "wormnet.schedule/1")
        self.assertEqual(d["collective"], {"kind": "allreduce", "words": 4, "op": "sum"})
        self.assertEqual([p["rank"] for p in d["programs"]], [0, 1, 2, 3])
        r0 = d["programs"][0]["steps"]
        self.assertEqual([st["step"] for st in r0], [0, 1])  # added as 0, 0, 0, 1, 0: sorted, merged
        self.assertEqual(r0[0]["sends"], [{"dst": 1, "src": [[0, 4]]}])
        self.assertEqual(r0[0]["recvs"], [{"src": 1, "dst": [[8, 4]], "tag": 7}])
        self.assertEqual(r0[0]["after"], [{"src": [[0, 4, 2]], "dst": [[12, 4]]}])
        self.assertEqual(r0[1], {"step": 1, "locals": [{"src": [[8, 4]], "dst": [[0, 4]], "op": "affine",
                                                        "indexed": True}]})
        r1 = d["programs"][1]["steps"][0]
        self.assertTrue(r1["multiport_send"])
        self.assertEqual(r1["sends"], [{"dst": 0, "src": [[0, 2], [2, 2]], "tag": 7, "channel": 1}])
        self.assertEqual(r1["recvs"], [{"src": 0, "dst": [[0, 4]], "op": "sum"}])
        # recv=False: the send alone on rank 2; the receive written separately on rank 3 at step 2.
        self.assertNotIn("recvs", d["programs"][2]["steps"][0])
        self.assertEqual(d["programs"][3]["steps"], [{"step": 2, "recvs": [{"src": 2, "dst": [[4, 8]], "tag": 0}]}])
        self.assertEqual(d["initial"], [{"rank": 0, "offset": 0, "words": [1, 2, 3]}])
        self.assertEqual(d["expected"], [{"rank": 1, "offset": 4, "words": [4294967295]}])
        wormnet.validate(d)

    def test_steps_and_chaining(self):
        s = wormnet.Schedule("x", 2, 4).send(5, 0, 1, (0, 1)).send(2, 1, 0, (1, 1))
        self.assertEqual(s.steps(), 6)
        self.assertEqual([st["step"] for st in s.to_dict()["programs"][0]["steps"]], [2, 5])
        self.assertNotIn("collective", s.to_dict())

    def test_ranges_forms(self):
        self.assertEqual(wormnet.normalize_ranges((3, 4)), [[3, 4]])
        self.assertEqual(wormnet.normalize_ranges((3, 4, 1)), [[3, 4]])
        self.assertEqual(wormnet.normalize_ranges([(0, 2, 3), [8, 1]]), [[0, 2, 3], [8, 1]])
        for bad in [(1,), (1, 2, 3, 4), (1.0, 2), [(0, 1), (True, 2)]]:
            with self.assertRaises(ValueError, msg=repr(bad)):
                wormnet.normalize_ranges(bad)

    def test_collective_helper(self):
        self.assertEqual(wormnet.collective("reduce", 8, root=3, op="max"),
                         {"kind": "reduce", "words": 8, "root": 3, "op": "max"})
        with self.assertRaisesRegex(ValueError, "allowed: broadcast, reduce"):
            wormnet.collective("bcast", 4)

    def test_tag_equal_to_step_is_left_out(self):
        d = wormnet.Schedule("x", 2, 4).send(3, 0, 1, (0, 1), tag=3).send(4, 0, 1, (1, 1), tag=0).to_dict()
        self.assertEqual(d["programs"][0]["steps"], [{"step": 3, "sends": [{"dst": 1, "src": [[0, 1]]}]},
                                                     {"step": 4, "sends": [{"dst": 1, "src": [[1, 1]], "tag": 0}]}])

    def test_text_is_what_cpp_writes(self):
        """algorithms/schedule_file_write.cpp: compact JSON in the writer's key order (meta sorted), a step a line."""
        s = wormnet.Schedule("x", 3, 4, wormnet.collective("broadcast", 4, root=0))
        s.send(0, 0, 2, (0, 4)).send(1, 2, 1, (0, 4), op="max").multiport(1, 2)
        s.meta = {"n": 1, "by": "test"}
        self.assertEqual(s.dumps(), """{
  "schema": "wormnet.schedule/1",
  "name": "x",
  "ranks": 3,
  "memory_words": 4,
  "collective": {"kind":"broadcast","words":4,"root":0},
  "meta": {"by":"test","n":1},
  "programs": [
    {"rank": 0, "steps": [
      {"step":0,"sends":[{"dst":2,"src":[[0,4]]}]}
    ]},
    {"rank": 1, "steps": [
      {"step":1,"recvs":[{"src":2,"dst":[[0,4]],"op":"max"}]}
    ]},
    {"rank": 2, "steps": [
      {"step":0,"recvs":[{"src":0,"dst":[[0,4]]}]},
      {"step":1,"sends":[{"dst":1,"src":[[0,4]]}],"multiport_send":true}
    ]}
  ]
}
""")
        self.assertEqual(json.loads(s.dumps()), s.to_dict())
        self.assertTrue(wormnet.dumps({"schema": "wormnet.schedule/1", "name": "e", "ranks": 2, "memory_words": 1,
                                       "programs": []}).endswith('  "memory_words": 1,\n  "programs": []\n}\n'))


class SaveLoadTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "s.json")

    def tearDown(self):
        self.dir.cleanup()

    def test_round_trip(self):
        s = small()
        s.save(self.path)
        back = wormnet.Schedule.load(self.path)
        self.assertEqual(back.to_dict(), s.to_dict())
        with open(self.path) as f:
            self.assertEqual(f.read(), s.dumps())

    def test_load_fills_defaults_and_keeps_meaning(self):
        doc = {"schema": "wormnet.schedule/1", "name": "hand", "ranks": 2, "memory_words": 4, "programs": [
            {"rank": 1, "steps": [{"step": 0, "locals": [], "sends": [], "recvs": [{"src": 0, "dst": [[0, 4, 1]],
                                                                                  "op": "copy"}],
                                   "after": [], "multiport_send": False}]},
            {"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 4]], "tag": 0}]}]}]}
        with open(self.path, "w") as f:
            json.dump(doc, f)
        d = wormnet.Schedule.load(self.path).to_dict()
        self.assertEqual(d["programs"], [
            {"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 4]]}]}]},
            {"rank": 1, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 4]]}]}]}])

    def test_save_refuses_invalid(self):
        s = wormnet.Schedule("bad", 2, 4).send(0, 0, 1, (0, 4), recv=False)
        with self.assertRaises(wormnet.ScheduleError) as e:
            s.save(self.path)
        self.assertEqual(e.exception.path, "programs[0].steps[0].sends[0]")
        self.assertTrue(str(e.exception).startswith(self.path + ": programs[0].steps[0].sends[0]: "))
        self.assertFalse(os.path.exists(self.path))
        s.save(self.path, check=False)
        self.assertTrue(os.path.exists(self.path))

    def test_load_not_json(self):
        with open(self.path, "w") as f:
            f.write('{"schema": ')
        with self.assertRaises(wormnet.ScheduleError) as e:
            wormnet.Schedule.load(self.path)
        self.assertEqual(e.exception.path, "(top level)")
        self.assertEqual(str(e.exception), f"{self.path}: (top level): not valid JSON: syntax error at line 1 "
                                           f"column 12; allowed: a JSON document (wormnet.schedule/1)")

    def test_cli_validate(self):
        wormnet.Schedule("ok", 2, 4).send(0, 0, 1, (0, 4)).save(self.path)
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, ".."))
        ok = subprocess.run([sys.executable, "-m", "wormnet", "validate", self.path], env=env,
                            capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertIn("ok: ok, 2 ranks, 1 steps", ok.stdout)
        bad = os.path.join(self.dir.name, "bad.json")
        wormnet.Schedule("bad", 2, 4).send(0, 0, 1, (2, 4)).save(bad, check=False)
        r = subprocess.run([sys.executable, "-m", "wormnet", "validate", self.path, bad], env=env,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.count("\n"), 1)
        self.assertTrue(r.stderr.startswith(f"error: {bad}: programs[0].steps[0].sends[0].src[0]: "), r.stderr)


class RowColBroadcastTest(unittest.TestCase):
    """The tutorial's example: every rank ends up with the data, each step uses one dimension."""

    def holders_after(self, s):
        d, have = s.to_dict(), {s.collective["root"]}
        for step in range(s.steps()):
            new = set()
            for prog in d["programs"]:
                for st in prog["steps"]:
                    if st["step"] == step:
                        for m in st.get("sends", []):
                            self.assertIn(prog["rank"], have, f"rank {prog['rank']} sends before it has the data")
                            new.add(m["dst"])
            have |= new
        return have

    def test_every_rank_reached_in_log_steps(self):
        for rows, cols in [(4, 4), (3, 5), (1, 6), (7, 1), (2, 3)]:
            for root in range(rows * cols):
                s = row_col_broadcast.build(rows, cols, 3, root)
                wormnet.validate(s)
                self.assertEqual(self.holders_after(s), set(range(rows * cols)))
                self.assertLessEqual(s.steps(), (cols - 1).bit_length() + (rows - 1).bit_length())
                self.assertEqual(sum(len(st.get("sends", [])) for p in s.to_dict()["programs"]
                                     for st in p["steps"]), rows * cols - 1)

    def test_sends_stay_in_row_then_column(self):
        s = row_col_broadcast.build(4, 4, 2, 6)
        for prog in s.to_dict()["programs"]:
            for st in prog["steps"]:
                for m in st.get("sends", []):
                    a, b = divmod(prog["rank"], 4), divmod(m["dst"], 4)
                    if st["step"] < 2:
                        self.assertEqual(a[0], b[0])  # same row: 6 // 4 = 1
                        self.assertEqual(a[0], 1)
                    else:
                        self.assertEqual(a[1], b[1])  # same column

    def test_script_writes_valid_file(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "rc.json")
            r = subprocess.run([sys.executable, os.path.join(HERE, "..", "examples", "row_col_broadcast.py"),
                                "2", "3", "5", "4", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            s = wormnet.Schedule.load(out)
            self.assertEqual((s.ranks, s.memory_words, s.collective), (6, 5, {"kind": "broadcast", "words": 5,
                                                                               "root": 4}))
            r = subprocess.run([sys.executable, os.path.join(HERE, "..", "examples", "row_col_broadcast.py"),
                                "2", "3", "5", "6", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
