#!/usr/bin/env python3
"""Every rule of the format's Errors section, with the exact JSON path; with $WORMNET also the
same broken files through `wormnet run --schedule`, which must print the same line."""
import json
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


def base():
    """4 ranks on a 2x2 mesh: 0 -> 1 at step 0, then 0 -> 2 and 1 -> 3 at step 1 (a broadcast)."""
    return wormnet.Schedule("bcast4", 4, 8, wormnet.collective("broadcast", 4, root=0)) \
        .send(0, 0, 1, (0, 4)).send(1, 0, 2, (0, 4)).send(1, 1, 3, (0, 4)).to_dict()


def step(d, rank, i=0):
    return next(p for p in d["programs"] if p["rank"] == rank)["steps"][i]


def mutate(fn):
    d = base()
    fn(d)
    return d


def setitem(path, value):
    def fn(d):
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return fn


def delitem(path):
    def fn(d):
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        del obj[path[-1]]
    return fn


SEND0 = ["programs", 0, "steps", 0, "sends", 0]  # rank 0, step 0: send to 1
RECV1 = ["programs", 1, "steps", 0, "recvs", 0]  # rank 1, step 0: receive from 0
P = "programs[0].steps[0].sends[0]"
R = "programs[1].steps[0].recvs[0]"



def receive_too_early(d):
    """Rank 2 receives at step 0 the message rank 0 sends at step 1 (tag 1 written out)."""
    d["programs"][2]["steps"] = [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 4]], "tag": 1}]}]


# (name, mutation (None: the document is a list), JSON path (None: valid), words the message must contain)
CASES = [
    ("not an object", None, "(top level)", "a list is not an object"),
    ("unknown top key", setitem(["programz"], []), "programz", "unknown key 'programz'"),
    ("own x- key ok", setitem(["x-note"], {"by": "me"}), None, None),
    ("missing schema", delitem(["schema"]), "(top level)", "missing key 'schema'"),
    ("wrong schema", setitem(["schema"], "wormnet.schedule/2"), "schema", "is not this format"),
    ("name with comma", setitem(["name"], "a,b"), "name", "'a,b' is not a name"),
    ("name not string", setitem(["name"], 7), "name", "the number 7 is not a string"),
    ("ranks string", setitem(["ranks"], "4"), "ranks", 'the string "4" is not an integer'),
    ("ranks 1", setitem(["ranks"], 1), "ranks", "1 is out of range; allowed: an integer 2..1048576"),
    ("ranks bool", setitem(["ranks"], True), "ranks", "true is not an integer"),
    ("memory 0", setitem(["memory_words"], 0), "memory_words", "0 is out of range"),
    ("memory float", setitem(["memory_words"], 8.0), "memory_words", "the number 8.0 is not an integer"),
    ("collective kind", setitem(["collective", "kind"], "bcast"), "collective.kind", "unknown kind 'bcast'"),
    ("collective no words", delitem(["collective", "words"]), "collective", "missing key 'words'"),
    ("collective no root", delitem(["collective", "root"]), "collective", "missing key 'root'"),
    ("collective root range", setitem(["collective", "root"], 4), "collective.root", "4 is out of range"),
    ("collective needless root", setitem(["collective"], {"kind": "allgather", "words": 2, "root": 0}),
     "collective.root", "a allgather has no root"),
    ("collective too big", setitem(["collective"], {"kind": "allgather", "words": 4}), "collective.words",
     "a allgather of 4 words over 4 ranks needs 16 words of memory, memory_words is 8; allowed: words <= 2"),
    ("alltoall too big", setitem(["collective"], {"kind": "alltoall", "words": 2}), "collective.words",
     "needs 16 words of memory"),
    ("reduce without op", setitem(["collective"], {"kind": "reduce", "words": 4, "root": 0}), "collective",
     "missing key 'op'"),
    ("allreduce copy", setitem(["collective"], {"kind": "allreduce", "words": 4, "op": "copy"}), "collective.op",
     "unknown reduction operator 'copy'; allowed: one of sum, max, min, affine"),
    ("broadcast with op", setitem(["collective", "op"], "sum"), "collective.op", "a broadcast reduces nothing"),
    ("initial rank", setitem(["initial"], [{"rank": 4, "offset": 0, "words": [1]}]), "initial[0].rank",
     "4 is out of range"),
    ("initial past memory", setitem(["initial"], [{"rank": 0, "offset": 6, "words": [1, 2, 3]}]),
     "initial[0].words", "3 items; allowed: at most 2"),
    ("expected word", setitem(["expected"], [{"rank": 0, "offset": 0, "words": [1, -2]}]), "expected[0].words[1]",
     "-2 is negative"),
    ("programs missing", delitem(["programs"]), "(top level)", "missing key 'programs'"),
    ("programs object", setitem(["programs"], {}), "programs", "an object is not a list"),
    ("program rank range", setitem(["programs", 3, "rank"], 4), "programs[3].rank", "4 is out of range"),
    ("duplicate program", setitem(["programs", 3, "rank"], 2), "programs[3].rank",
     "rank 2 has a program already (programs[2])"),
    ("steps missing", delitem(["programs", 2, "steps"]), "programs[2]", "missing key 'steps'"),
    ("step missing", delitem(["programs", 0, "steps", 1, "step"]), "programs[0].steps[1]", "missing key 'step'"),
    ("steps out of order", setitem(["programs", 0, "steps", 1, "step"], 0), "programs[0].steps[1].step",
     "step 0 after step 0; allowed: the steps of a rank in increasing order, each once"),
    ("step too large", setitem(["programs", 0, "steps", 1, "step"], 1 << 20), "programs[0].steps[1].step",
     "1048576 is out of range"),
    ("multiport not bool", setitem(["programs", 0, "steps", 0, "multiport_send"], 1),
     "programs[0].steps[0].multiport_send", "the number 1 is not true or false"),
    ("typo recv", setitem(["programs", 1, "steps", 0, "recv"], []), "programs[1].steps[0].recv",
     "unknown key 'recv'"),
    ("send to self", setitem(SEND0 + ["dst"], 0), P + ".dst", "rank 0 sends to itself"),
    ("send dst range", setitem(SEND0 + ["dst"], 9), P + ".dst", "9 is out of range; allowed: an integer 0..3"),
    ("send no src", delitem(SEND0 + ["src"]), P, "missing key 'src'"),
    ("range not a list", setitem(SEND0 + ["src"], [5]), P + ".src[0]", "the number 5 is not a list"),
    ("range arity", setitem(SEND0 + ["src"], [[0, 1, 1, 1]]), P + ".src[0]", "a list of 4 numbers"),
    ("range count 0", setitem(SEND0 + ["src"], [[0, 0]]), P + ".src[0][1]", "0 is out of range"),
    ("range stride 0", setitem(SEND0 + ["src"], [[0, 2, 0]]), P + ".src[0][2]", "0 is out of range"),
    ("range past memory", setitem(SEND0 + ["src"], [[0, 2], [6, 4]]), P + ".src[1]",
     "[6, 4] ends at word 10, past memory_words 8; allowed: ranges inside words 0..7"),
    ("strided past memory", setitem(SEND0 + ["src"], [[2, 4, 2]]), P + ".src[0]",
     "[2, 4, 2] ends at word 9, past memory_words 8"),
    ("empty ranges", setitem(SEND0 + ["src"], []), P + ".src", "an empty list"),
    ("tag negative", setitem(SEND0 + ["tag"], -1), P + ".tag", "-1 is negative"),
    ("channel", setitem(SEND0 + ["channel"], 64), P + ".channel", "64 is out of range; allowed: an integer 0..63"),
    ("unknown op", setitem(RECV1 + ["op"], "prod"), R + ".op",
     "unknown operator 'prod'; allowed: an operator: copy, sum, max, min, affine"),
    ("incoming_first", setitem(RECV1 + ["incoming_first"], "yes"), R + ".incoming_first",
     'the string "yes" is not true or false'),
    ("recv from self", setitem(RECV1 + ["src"], 1), R + ".src", "rank 1 receives from itself"),
    ("local lengths", setitem(["programs", 0, "steps", 0, "locals"], [{"src": [[0, 4]], "dst": [[4, 2]]}]),
     "programs[0].steps[0].locals[0].dst", "2 words, src has 4; allowed: as many words as src"),
    ("after range", setitem(["programs", 0, "steps", 0, "after"], [{"src": [[0, 4]], "dst": [[7, 4]]}]),
     "programs[0].steps[0].after[0].dst[0]", "past memory_words 8"),
    ("send without receive", delitem(["programs", 1, "steps", 0]), P,
     "rank 0 sends to rank 1 with tag 0, and rank 1 has no receive from 0 with tag 0"),
    ("receive without send", delitem(["programs", 0, "steps", 0]), R,
     "rank 1 receives from rank 0 with tag 0, and rank 0 never sends to 1 with tag 0"),
    ("tag mismatch", setitem(SEND0 + ["tag"], 5), R, "rank 1 receives from rank 0 with tag 0"),
    ("length mismatch", setitem(RECV1 + ["dst"], [[0, 2]]), R,
     f"receives 2 words, and the matching send ({P}) sends 4; allowed: a receive as long as its send"),
    ("two sends one receive", lambda d: d["programs"][0]["steps"][0]["sends"].append(
        {"dst": 1, "src": [[4, 4]]}), "programs[0].steps[0].sends[1]",
     "rank 0 sends 2 messages to rank 1 with tag 0, rank 1 receives 1"),
    ("receive before its send's step", receive_too_early, "programs[2].steps[0].recvs[0]",
     "receives in step 0 the message rank 0 sends in step 1 (programs[0].steps[1].sends[0]); allowed: a receive "
     "in its send's step or a later one"),
]


def doc_of(case):
    return [] if case[1] is None else mutate(case[1])


class ValidateTest(unittest.TestCase):
    def test_base_is_valid(self):
        self.assertEqual(wormnet.validate(base()), base())
        wormnet.validate(wormnet.Schedule("b", 2, 4).send(0, 0, 1, (0, 4)))  # a Schedule, not a dict

    def test_each_rule(self):
        for case in CASES:
            name, _, path, words = case
            with self.subTest(name):
                if path is None:
                    wormnet.validate(doc_of(case))
                    continue
                with self.assertRaises(wormnet.ScheduleError) as e:
                    wormnet.validate(doc_of(case), file="f.json")
                self.assertEqual(e.exception.path, path, str(e.exception))
                self.assertIn(words, str(e.exception))
                self.assertTrue(str(e.exception).startswith(f"f.json: {path}: "), str(e.exception))
                self.assertIn("; allowed: ", str(e.exception))
                self.assertEqual(str(e.exception).count("\n"), 0)

    def test_message_parts(self):
        with self.assertRaises(wormnet.ScheduleError) as e:
            wormnet.validate(mutate(setitem(["ranks"], 0)))
        self.assertEqual((e.exception.file, e.exception.path, e.exception.what, e.exception.allowed),
                         (None, "ranks", "0 is out of range", "an integer 2..1048576"))
        self.assertEqual(str(e.exception), "ranks: 0 is out of range; allowed: an integer 2..1048576")

    def test_tag_defaults_to_step(self):
        d = base()
        # the receive moves to step 1 with the send's default tag (0) written out: still matched
        d["programs"][1]["steps"] = [{"step": 1, "recvs": [{"src": 0, "dst": [[0, 4]], "tag": 0}],
                                      "sends": [{"dst": 3, "src": [[0, 4]]}]}]
        wormnet.validate(d)
        d["programs"][1]["steps"][0]["recvs"][0].pop("tag")  # now tag 1: unmatched
        with self.assertRaises(wormnet.ScheduleError) as e:
            wormnet.validate(d)
        self.assertEqual(e.exception.path, P)

    def test_registered_operator(self):
        d = mutate(setitem(RECV1 + ["op"], "xor"))
        with self.assertRaises(wormnet.ScheduleError):
            wormnet.validate(d)
        wormnet.validate(d, operators=wormnet.OPERATORS + ("xor",))

    def test_receive_in_a_later_step_than_its_send(self):
        """Later is fine (the message waits in the buffer); earlier is what no barrier could run."""
        s = wormnet.Schedule("late", 3, 4).send(0, 0, 2, (0, 1), recv=False).recv(5, 2, 0, (0, 1), tag=0)
        wormnet.validate(s)
        s = wormnet.Schedule("early", 3, 4).send(5, 0, 2, (0, 1), tag=3, recv=False).recv(0, 2, 0, (0, 1), tag=3)
        with self.assertRaises(wormnet.ScheduleError) as e:
            wormnet.validate(s)
        self.assertEqual(e.exception.path, "programs[1].steps[0].recvs[0]")


@unittest.skipUnless(WORMNET, "set WORMNET to the wormnet binary to compare with the C++ reader")
class SameAsCppTest(unittest.TestCase):
    """The C++ reader and this one must print the same line for the same file."""

    def test_same_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            for i, case in enumerate(CASES):
                with self.subTest(case[0]):
                    path = os.path.join(tmp, f"case{i}.json")
                    with open(path, "w") as f:
                        json.dump(doc_of(case), f)
                    r = subprocess.run([WORMNET, "run", "--topology", "mesh:2x2", "--schedule", path],
                                       capture_output=True, text=True, timeout=120)
                    if case[2] is None:
                        self.assertEqual(r.returncode, 0, r.stderr)
                        continue
                    with self.assertRaises(wormnet.ScheduleError) as e:
                        wormnet.Schedule.load(path)
                    self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                    self.assertEqual(r.stderr, f"error: {e.exception}\n")


if __name__ == "__main__":
    unittest.main()
