#!/usr/bin/env python3
"""Every JSON report wormnet writes, validated against its schema in docs/schemas/ (docs/reports.md).

Runs a matrix of small commands that covers every report kind and the options that change a
report's shape (backends, --schedule files, --simulate, --deadlock, --sources, family option
lists, --cost, --source-queue-limit, a deadlocked traffic run, a failed data check, sweep specs of
every command, --merge, --emit, export and synth --out), validates each output (JSON lines: each
line) against docs/schemas/<kind>.schema.json, and also the stored golden references
(testbench/golden/ref) and the shipped schedule files (testbench/schedule_files/good). Then it
proves the schemas are not vacuous: every top-level key of one report of each kind renamed, and
every key of its nested objects renamed, must be rejected. Exit 1 with one line per failure.

usage: validate_reports.py WORMNET WORKDIR           the matrix (ctest report_schemas)
       validate_reports.py --validate [KIND:]FILE... files you have (KIND from the file's "schema"
                                                     when not given; *.jsonl: sweep-point per line)
KIND is a schema file's name without .schema.json, optionally with a #/definitions/NAME fragment.
Needs the jsonschema package (Debian: python3-jsonschema; scripts/setup.sh), 4.10 or newer.
"""
import copy
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"

sys.path.insert(0, str(ROOT / "scripts"))
from debian_python import prefer_python_with  # noqa: E402

prefer_python_with("jsonschema")
try:
    import jsonschema
except ImportError:
    print("FAIL: the python module jsonschema is missing; allowed: scripts/setup.sh (python3-jsonschema)")
    sys.exit(1)

# The "schema" value a report names -> its schema file.
KIND_OF_SCHEMA = {
    "wormnet.traffic/1": "traffic",
    "wormnet.run/2": "run",
    "wormnet.check/2": "check",
    "wormnet.deadlock/1": "deadlock",
    "wormnet.compare/3": "compare",
    "wormnet.sweep/1": "sweep",
    "wormnet.sweep-manifest/2": "sweep-manifest",
    "wormnet.cost/1": "cost",
    "wormnet.schedule/1": "schedule",
    "wormnet.conform/1": "conform",
    "wormnet.tau/1": "tau",
    "wormnet.tuning/1": "tuning",
}
WRITTEN = "schedule#/definitions/written_by_wormnet"  # export and synth --out files


class Schemas:
    """The schema files, with $refs between them resolved locally (no network)."""

    def __init__(self, folder):
        self.folder = folder.resolve()
        self.docs = {}
        for f in sorted(self.folder.glob("*.schema.json")):
            doc = json.loads(f.read_text())
            jsonschema.Draft7Validator.check_schema(doc)
            self.docs[f.name[: -len(".schema.json")]] = doc
        self.cache = {}
        try:  # jsonschema >= 4.18
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT7

            self.registry = Registry().with_resources(
                (self.uri(k), Resource(contents=d, specification=DRAFT7)) for k, d in self.docs.items())
        except ImportError:  # 4.10 (Debian bookworm): RefResolver with a local store
            self.registry = None

    def uri(self, kind):
        return (self.folder / f"{kind}.schema.json").as_uri()

    def validator(self, kind):
        """`kind`: 'run' or 'schedule#/definitions/written_by_wormnet'."""
        if kind not in self.cache:
            name, _, frag = kind.partition("#")
            if name not in self.docs:
                raise KeyError(f"no schema {name}.schema.json in {self.folder}")
            target = {"$ref": self.uri(name) + ("#" + frag if frag else "")}
            if self.registry is not None:
                self.cache[kind] = jsonschema.Draft7Validator(target, registry=self.registry)
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    store = {self.uri(k): d for k, d in self.docs.items()}
                    resolver = jsonschema.RefResolver(base_uri=self.uri(name), referrer=self.docs[name], store=store)
                self.cache[kind] = jsonschema.Draft7Validator(target, resolver=resolver)
        return self.cache[kind]

    def errors(self, kind, instance):
        """One line per error, at most 3, the deepest first."""
        errs = sorted(self.validator(kind).iter_errors(instance), key=lambda e: -len(e.absolute_path))
        out = []
        for e in errs[:3]:
            if e.context:  # anyOf / oneOf: the branch that came closest says more
                e = jsonschema.exceptions.best_match(e.context)
            where = "/" + "/".join(str(p) for p in e.absolute_path)
            msg = " ".join(e.message.split())
            if "propertyNames" in e.absolute_schema_path:  # not the whole list of allowed keys
                msg = f"unknown key {e.instance!r} (a key renamed, or new and not in the schema)"
            out.append(f"{where}: {msg[:220]}{'...' if len(msg) > 220 else ''}")
        return out


def lint(schemas):
    """Each `keys` list (what propertyNames allows) names exactly the properties it stands for."""
    problems = []

    def same(label, keys, props):
        keys, props = set(keys["enum"]), set(props)
        if keys != props:
            problems.append(f"{label}: keys and properties differ: only in keys {sorted(keys - props)}, "
                            f"only in properties {sorted(props - keys)}")

    d = schemas.docs
    for k in ("traffic", "check"):
        same(f"{k}.schema.json", d[k]["definitions"]["keys"], d[k]["definitions"]["fields"]["properties"])
    run = d["run"]["definitions"]
    same("run.schema.json measured", run["measured_keys"], run["measured"]["properties"])
    same("run.schema.json", run["keys"], set(run["fields"]["properties"]) | set(run["measured"]["properties"]))
    same("run.schema.json summary", run["summary_keys"],
         set(run["keys"]["enum"]) - {"channels", "message_log", "node_steps"})
    sp = d["sweep-point"]["definitions"]
    same("sweep-point.schema.json", sp["sweep_keys"], sp["sweep_fields"]["properties"])
    return problems


def load_instances(path):
    """[(label, instance)]: a JSON file, or every line of a JSON-lines file."""
    text = pathlib.Path(path).read_text()
    if str(path).endswith(".jsonl"):
        return [(f"{path}:{n}", json.loads(line)) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    return [(str(path), json.loads(text))]


def kind_for(path, inst):
    if str(path).endswith(".jsonl"):
        return "sweep-point"
    return KIND_OF_SCHEMA.get(inst.get("schema") if isinstance(inst, dict) else None)


# ------------------------------------------------------------------------------------------ matrix

PORT_OVERUSE = {  # rank 0 sends twice in one step on a one-port network: check names the node-step
    "schema": "wormnet.schedule/1", "name": "two-sends", "ranks": 4, "memory_words": 4,
    "x-note": "keys starting with x- are the user's, at every level",
    "programs": [
        {"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 2]]}, {"dst": 2, "src": [[0, 2]]}]}]},
        {"rank": 1, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 2]], "x-why": "first"}]}]},
        {"rank": 2, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 2]]}]}]},
    ],
}
WRONG_EXPECTED = {  # a file whose `expected` words no run delivers: delivery problem, data check FAIL
    "schema": "wormnet.schedule/1", "name": "wrong-expect", "ranks": 2, "memory_words": 2,
    "initial": [{"rank": 0, "offset": 0, "words": [7, 8]}],
    "expected": [{"rank": 1, "offset": 0, "words": [9, 9]}],
    "programs": [
        {"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 2]]}]}]},
        {"rank": 1, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 2]]}]}]},
    ],
}


def matrix():
    """(name, argv after the binary, [(kind, file)], allowed exit codes), in the order they run."""
    m4 = ["--topology", "mesh:4x4"]
    c = []

    def case(name, argv, outs, rc=(0,)):
        c.append((name, argv, outs, rc))

    # traffic: model, RTL and lock-step; every topology kind; patterns; a source queue limit
    # (packets.refused); a deadlock (deadlock_report, exit 1)
    case("traffic-model", ["traffic", *m4, "--rate", "0.1", "--cycles", "2000", "--json", "t1.json"],
         [("traffic", "t1.json")])
    case("traffic-rtl", ["traffic", *m4, "--pattern", "transpose", "--backend", "rtl", "--cycles", "500",
                         "--json", "t2.json"], [("traffic", "t2.json")])
    case("traffic-lockstep", ["traffic", "--topology", "cube:4", "--pattern", "bitcomp", "--backend", "lockstep",
                              "--packet-flits", "2", "--cycles", "300", "--json", "t3.json"], [("traffic", "t3.json")])
    case("traffic-queue-limit", ["traffic", "--topology", "torus:4x4", "--ports", "all", "--pattern", "hotspot",
                                 "--rate", "0.3", "--cycles", "1000", "--source-queue-limit", "4",
                                 "--json", "t4.json"], [("traffic", "t4.json")])
    case("traffic-3d", ["traffic", "--topology", "mesh:2x2x2", "--pattern", "neighbor", "--cycles", "300",
                        "--json", "t5.json"], [("traffic", "t5.json")])
    case("traffic-deadlock", ["traffic", "--topology", "torus:4x4", "--no-dateline", "--rate", "1.0",
                              "--cycles", "2000", "--json", "t6.json"], [("traffic", "t6.json")], rc=(1,))

    # schedule files: export (a rooted reduction's claim, a claim without root or op, none at all,
    # family options in meta) and synth --out (broadcast; reduce; hop-minimised with avoided nodes)
    case("export-reduce", ["export", *m4, "--algorithm", "binomial-reduce", "--bytes", "32", "--source", "3",
                           "--out", "e1.json"], [(WRITTEN, "e1.json")])
    case("export-allgather", ["export", *m4, "--algorithm", "ring-allgather", "--bytes", "16", "--out", "e2.json"],
         [(WRITTEN, "e2.json")])
    case("export-no-claim", ["export", "--topology", "cube:4", "--algorithm", "hc-dcycles", "--bytes", "32",
                             "--out", "e3.json"], [(WRITTEN, "e3.json")])
    case("export-family-option", ["export", *m4, "--algorithm", "ccl-combine", "--ccl-alg", "butterfly", "--op",
                                  "max", "--bytes", "16", "--out", "e4.json"], [(WRITTEN, "e4.json")])
    synth = ["--no-cache", "--timeout", "10"]
    case("synth-broadcast", ["synth", "--topology", "mesh:2x2", "--ports", "one", *synth, "--out", "y1.json"],
         [(WRITTEN, "y1.json")])
    case("synth-reduce", ["synth", "--topology", "mesh:3x3", "--collective", "reduce", "--op", "max", "--ports",
                          "all", "--bytes", "16", *synth, "--out", "y2.json"], [(WRITTEN, "y2.json")])
    case("synth-min-hops", ["synth", "--topology", "cube:3", "--min-hops", "--max-hops", "2", "--avoid", "7",
                            *synth, "--out", "y3.json"], [(WRITTEN, "y3.json")])
    case("synth-cache-entry", ["synth", "--topology", "mesh:2x2", "--collective", "reduce", "--timeout", "10"],
         [("schedule#/definitions/synth_cache", "synth-cache/*.json")])

    # run: three backends; ports all, barrier sync, synchronous sends, split packets (latency_from);
    # a profile with the paper's formula (predicted.paper); a group; stopped at --max-cycles
    # (error, data FAIL, never-reached times); schedule files (config.schedule, oracle), one failing
    rd = ["--algorithm", "rd-broadcast", "--bytes", "64"]
    case("run-model", ["run", *m4, *rd, "--json", "r1.json"], [("run", "r1.json")])
    case("run-rtl", ["run", *m4, *rd, "--backend", "rtl", "--json", "r2.json"], [("run", "r2.json")])
    case("run-lockstep", ["run", *m4, *rd, "--backend", "lockstep", "--json", "r3.json"], [("run", "r3.json")])
    case("run-barrier-split", ["run", *m4, "--algorithm", "direct-alltoall", "--ports", "all", "--bytes", "64",
                               "--sync", "barrier", "--barrier-cycles", "5", "--sends", "synchronous",
                               "--max-packet-bytes", "16", "--json", "r4.json"], [("run", "r4.json")])
    case("run-paper", ["run", *m4, "--algorithm", "edn-broadcast", "--ports", "all", "--bytes", "64", "--profile",
                       "t3d", "--json", "r5.json"], [("run", "r5.json")])
    case("run-group", ["run", "--topology", "torus:4x4", "--algorithm", "ccl-combine", "--ccl-alg", "butterfly",
                       "--group", "0,1,2,3", "--op", "max", "--bytes", "16", "--json", "r6.json"], [("run", "r6.json")])
    case("run-stopped", ["run", *m4, "--algorithm", "rd-broadcast", "--bytes", "4096", "--max-cycles", "50",
                         "--json", "r7.json"], [("run", "r7.json")], rc=(1,))
    case("run-schedule", ["run", *m4, "--schedule", "e1.json", "--json", "r8.json"], [("run", "r8.json")])
    # conform: the shipped router on one small network (every pattern, three port models)
    case("conform", ["conform", "--topologies", "mesh:4x4", "--cycles", "200", "--json", "cf1.json"],
         [("conform", "cf1.json")])
    # firmware of your own: a plugin (config.firmware, no prediction), and one run without a check
    case("run-firmware", ["run", *m4, "--ports", "all", "--firmware", PLUGIN, "--json", "r11.json"],
         [("run", "r11.json")])
    case("run-firmware-unchecked", ["run", *m4, "--firmware", PLUGIN + ":unchecked", "--json", "r12.json"],
         [("run", "r12.json")])
    case("run-schedule-reference", ["run", "--topology", "cube:4", "--schedule", "e3.json", "--json", "r9.json"],
         [("run", "r9.json")])
    case("run-synth-file", ["run", "--topology", "mesh:3x3", "--ports", "all", "--schedule", "y2.json",
                            "--json", "r10.json"], [("run", "r10.json")])
    case("run-data-fail", ["run", "--topology", "mesh:2x2", "--schedule", "wrong_expect.json", "--json",
                           "r11.json"], [("run", "r11.json")], rc=(1,))

    # check: static (conflicts), --simulate on model and RTL, a schedule file, port overuse and
    # delivery problems (exit 1); --deadlock acyclic, with a cycle (exit 1), one VC on a mesh
    a2a = ["--algorithm", "direct-alltoall", "--bytes", "32"]
    case("check-static", ["check", *m4, *a2a, "--json", "k1.json"], [("check", "k1.json")])
    case("check-simulate", ["check", *m4, *a2a, "--simulate", "--json", "k2.json"],
         [("check#/definitions/simulated_report", "k2.json")])
    case("check-simulate-rtl-file", ["check", *m4, "--schedule", "e1.json", "--simulate", "--backend", "rtl",
                                     "--json", "k3.json"], [("check#/definitions/simulated_report", "k3.json")])
    case("check-port-overuse", ["check", "--topology", "mesh:2x2", "--schedule", "port_overuse.json",
                                "--json", "k4.json"], [("check", "k4.json")], rc=(1,))
    case("check-delivery", ["check", "--topology", "mesh:2x2", "--schedule", "wrong_expect.json",
                            "--json", "k5.json"], [("check", "k5.json")], rc=(1,))
    case("check-deadlock-acyclic", ["check", "--deadlock", "--topology", "torus:4x4", "--json", "d1.json"],
         [("deadlock", "d1.json")])
    case("check-deadlock-cycle", ["check", "--deadlock", "--topology", "torus:4x4", "--no-dateline",
                                  "--json", "d2.json"], [("deadlock", "d2.json")], rc=(1,))
    case("check-deadlock-mesh", ["check", "--deadlock", "--topology", "mesh:4x4", "--vcs", "1",
                                 "--json", "d3.json"], [("deadlock", "d3.json")])

    # compare: one point per algorithm; port models x sizes x --sources (grouped rows); a family
    # option list (options, variant labels); built-ins beside schedule files (schedule); files
    # alone; --cost (area_nand2, yosys on the smallest router, cached in WORKDIR)
    case("compare-point", ["compare", *m4, "--algorithm", "rd-broadcast,direct-alltoall", "--bytes", "32",
                           "--json", "c1.json"], [("compare", "c1.json")])
    case("compare-groups", ["compare", *m4, "--algorithm", "rd-broadcast,binomial-scatter", "--ports", "one,all",
                            "--bytes", "32,64", "--sources", "0,5", "-j", "2", "--json", "c2.json"],
         [("compare", "c2.json")])
    case("compare-option-list", ["compare", "--topology", "cube:4", "--algorithm", "bruck-index", "--radix", "2,4",
                                 "--bytes", "32", "--json", "c3.json"], [("compare", "c3.json")])
    case("compare-memory-port", ["compare", "--topology", "cube:3", "--algorithm", "hc-dcycles", "--ports", "all",
                                 "--bytes", "32,64", "--mem-words-per-cycle", "1,all", "--json", "cm.json"],
         [("compare", "cm.json")])
    case("run-memory-port", ["run", "--topology", "cube:3", "--ports", "all", "--algorithm", "hc-dcycles",
                             "--bytes", "32", "--mem-words-per-cycle", "1.5", "--json", "rm.json", "--csv", "rm"],
         [("run", "rm.json")])
    # cm200: a multi-port exchange rate and a reorder cost in config.profile; moved indices.
    case("run-cm200", ["run", "--topology", "cube:3", "--ports", "all", "--algorithm", "hc-dcycles", "--indices",
                       "moved", "--bytes", "64", "--profile", "cm200", "--json", "rc.json"], [("run", "rc.json")])
    case("compare-files", ["compare", *m4, "--algorithm", "binomial-reduce", "--schedule", "e1.json,e2.json",
                           "--bytes", "32", "--source", "3", "--json", "c4.json"], [("compare", "c4.json")])
    case("compare-files-only", ["compare", *m4, "--schedule", "e1.json,e2.json", "--ports", "one",
                                "--json", "c5.json"], [("compare", "c5.json")])
    # tau: a live selection with --around (fits, thesis predictions, crossovers, regions); and a saved
    # compare report under a packet law (no prediction), with series of two port models
    case("tau-live", ["tau", *m4, "--algorithm", "rd-broadcast,edn-broadcast", "--ports", "3", "--bytes",
                      "32,64,128", "--around", "edn-broadcast", "--json", "t1.json"], [("tau", "t1.json")])
    case("tau-from", ["tau", "--from", "c2.json", "--law", "packets:16", "--metric", "avg-latency", "--json",
                      "t2.json"], [("tau", "t2.json")])
    case("cost", ["cost", "--topology", "cube:1", "--ports", "one", "--vcs", "1", "--buf", "2", "--json", "x1.json"],
         [("cost", "x1.json")])
    # tune: every candidate of an all-reduce at two sizes (the table, the margins, the analytic pick)
    case("tune", ["tune", *m4, "--bytes", "8,4096", "--profile", "sp1", "--out", "tune.jsonl", "--json", "tu.json"],
         [("tuning", "tu.json")])
    # compare over two networks with nccl-tests' columns (rows carry topology and bandwidth)
    case("compare-topologies", ["compare", "--topology", "mesh:4x4,cube:4", "--algorithm", "allreduce,allgather",
                                "--bytes", "64", "--json", "c7.json"], [("compare", "c7.json")])
    case("compare-cost", ["compare", "--topology", "cube:1", "--algorithm", "rd-broadcast", "--ports", "one",
                          "--vcs", "1", "--buf", "2", "--bytes", "16", "--cost", "--json", "c6.json"],
         [("compare", "c6.json")])

    # sweeps: the rate table (wormnet.sweep/1); specs of each command (run with sources, check with
    # and without simulate, traffic, schedule files with a failing point); --merge; --emit
    case("sweep-rates", ["sweep", *m4, "--ports", "one,all", "--rates", "0.1,0.3", "--cycles", "500", "--warmup",
                         "100", "--json", "s0.json"], [("sweep", "s0.json")])
    for name in ("run", "check", "traffic"):
        case(f"sweep-spec-{name}", ["sweep", f"spec_{name}.yaml", "-j", "2", "--out", f"s_{name}.jsonl"],
             [("sweep-point", f"s_{name}.jsonl")])
    case("sweep-spec-files", ["sweep", "spec_files.yaml", "-j", "2", "--out", "s_files.jsonl"],
         [("sweep-point", "s_files.jsonl")], rc=(1,))
    case("sweep-merge", ["sweep", "--merge", "s_run.jsonl", "s_files.jsonl", "--out", "s_merged.jsonl"],
         [("sweep-point", "s_merged.jsonl")], rc=(1,))
    case("sweep-merge-spec", ["sweep", "spec_check.yaml", "--merge", "s_check.jsonl", "--out", "s_merged2.jsonl"],
         [("sweep-point", "s_merged2.jsonl")])
    case("sweep-emit-parallel", ["sweep", "spec_run.yaml", "--emit", "parallel", "emit_p"],
         [("sweep-manifest", "emit_p/manifest.json")])
    case("sweep-emit-slurm", ["sweep", "spec_traffic.yaml", "--emit", "slurm", "emit_s", "--throttle", "3"],
         [("sweep-manifest", "emit_s/manifest.json")])
    return c


SPECS = {
    "spec_run.yaml": "command: run\ntopology: mesh:4x4\nalgorithm: [rd-broadcast, binomial-reduce]\n"
                     "ports: [one, all]\nbytes: 32\nsources: [0, 5]\n",
    "spec_check.yaml": "command: check\ntopology: [mesh:4x4, cube:4]\nalgorithm: direct-alltoall\nbytes: 32\n"
                       "simulate: [false, true]\n",
    "spec_traffic.yaml": "command: traffic\ntopology: mesh:4x4\nports: [one, all]\nrate: [0.1, 0.3]\n"
                         "pattern: [uniform, tornado]\ncycles: 300\nwarmup: 50\n",
    "spec_files.yaml": "command: run\ntopology: mesh:4x4\nschedule: [e1.json, wrong_expect.json]\n",
}


PLUGIN = ""  # examples/ccl_grid_plugin.cpp, built beside the program


def run_matrix(wormnet, work, schemas, failures):
    global PLUGIN
    PLUGIN = str(pathlib.Path(wormnet).resolve().parent / "libccl_grid_plugin.so")
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    (work / "port_overuse.json").write_text(json.dumps(PORT_OVERUSE, indent=1) + "\n")
    (work / "wrong_expect.json").write_text(json.dumps(WRONG_EXPECTED, indent=1) + "\n")
    for name, text in SPECS.items():
        (work / name).write_text(text)
    env = dict(os.environ, WORMNET_COST_CACHE=str(work / "cost-cache"),
               WORMNET_SYNTH_CACHE=str(work / "synth-cache"))  # nothing written outside WORKDIR
    validated = {}  # kind -> [(label, instance)]
    for kind, name in (("schedule", "port_overuse.json"), ("schedule", "wrong_expect.json")):
        validate_file(schemas, kind, work / name, "hand-written", failures, validated)
    for name, argv, outs, rcs in matrix():
        t0 = time.monotonic()
        try:
            p = subprocess.run([wormnet, *argv], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=120)
        except subprocess.TimeoutExpired:
            failures.append(f"FAIL {name}: `wormnet {' '.join(argv)}` ran longer than 120 s")
            continue
        (work / f"{name}.out").write_text(p.stdout + p.stderr)
        if p.returncode not in rcs:
            last = (p.stderr.strip().splitlines() or ["(no stderr)"])[-1]
            failures.append(f"FAIL {name}: `wormnet {' '.join(argv)}` exit {p.returncode}, expected "
                            f"{'/'.join(map(str, rcs))}: {last}")
            continue
        for kind, out in outs:
            files = sorted(work.glob(out)) if "*" in out else [work / out]
            if not files or not all(f.is_file() for f in files):
                failures.append(f"FAIL {name}: `wormnet {' '.join(argv)}` wrote no {out}")
                continue
            for f in files:
                validate_file(schemas, kind, f, name, failures, validated)
        if os.environ.get("VALIDATE_REPORTS_VERBOSE"):
            print(f"  {name}: {time.monotonic() - t0:.2f} s")
    return validated


def validate_file(schemas, kind, path, case, failures, validated):
    try:
        insts = load_instances(path)
    except (OSError, ValueError) as e:
        failures.append(f"FAIL {case}: {path}: not JSON ({e})")
        return
    if not insts:
        failures.append(f"FAIL {case}: {path}: empty")
    for label, inst in insts:
        errs = schemas.errors(kind, inst)
        for e in errs:
            failures.append(f"FAIL {case}: {label} against {kind}: {e}")
        if not errs:
            validated.setdefault(kind, []).append((label, inst))


def failed_point_line(validated):
    """A point whose job threw is {ok: false, error} plus the sweep keys (experiments/sweep.cpp): a
    real run cannot be made to throw on purpose, so the shape is built from a real line."""
    label, line = validated["sweep-point"][0]
    failed = {k: line[k] for k in ("key", "point", "command", "params", "wormnet")}
    failed.update(ok=False, error="simulation child died (status 9) without a result")
    return f"{label} as a failed point", failed


def ends(v, n=100):
    """`v` with every list longer than 2n cut to its first and last n items (the golden runs log
    up to 10^4 messages of one shape: the ends carry every key, in a fraction of the time)."""
    if isinstance(v, dict):
        return {k: ends(x, n) for k, x in v.items()}
    if isinstance(v, list):
        return [ends(x, n) for x in (v if len(v) <= 2 * n else v[:n] + v[-n:])]
    return v


def corpus(schemas, failures, validated):
    """Stored references: the golden outputs and the shipped good schedule files."""
    n = 0
    for f in sorted((ROOT / "testbench" / "golden" / "ref").glob("*.json")):
        inst = json.loads(f.read_text())
        kind = kind_for(f, inst)
        if kind is None:
            failures.append(f"FAIL golden: {f}: no schema for {inst.get('schema')!r}")
            continue
        validate_file_inst(schemas, kind, f"golden {f}", ends(inst), failures, validated)
        n += 1
    for f in sorted((ROOT / "testbench" / "schedule_files" / "good").glob("*.json")):
        validate_file(schemas, "schedule", f, "schedule_files/good", failures, validated)
        n += 1
    return n


def mangled(inst, kind):
    """(what, copy) for every key of the report's top level and of its nested objects (the first
    item of each list), renamed; and the top-level `schema` with a wrong type. Maps whose keys are
    data (params, options, cells, weights), a plain schedule file's free-form meta and synth, and the
    user's own x- keys are left alone."""
    free = {"params", "options", "cells", "weights_nand2"}
    if kind == "schedule":
        free |= {"meta", "synth"}

    def walk(v, path):
        if isinstance(v, dict):
            for k in list(v):
                if k.startswith("x-"):
                    continue
                yield path, k
                if k not in free:
                    yield from walk(v[k], path + (k,))
        elif isinstance(v, list) and v:
            yield from walk(v[0], path + (0,))

    def at(v, path):
        for p in path:
            v = v[p]
        return v

    for path, k in walk(inst, ()):
        m = copy.deepcopy(inst)
        d = at(m, path)
        d[k + "_renamed"] = d.pop(k)
        yield f"'{'/'.join(map(str, path + (k,)))}' renamed", m
    if isinstance(inst, dict) and "schema" in inst:
        m = copy.deepcopy(inst)
        m["schema"] = 2
        yield "'schema' a number", m


def self_test(schemas, validated, failures):
    """Each kind's first validated report, mangled: every mangling must be rejected, else the
    schema would let a renamed key through. Returns how many were tried."""
    def trimmed(v):  # lists cut to 3 items: the same keys, a fraction of the validation time
        if isinstance(v, dict):
            return {k: trimmed(x) for k, x in v.items()}
        if isinstance(v, list):
            return [trimmed(x) for x in v[:3]]
        return v

    tried = 0
    for kind, insts in sorted(validated.items()):
        label, inst = insts[0]
        if not schemas.errors(kind, trimmed(inst)):
            inst = trimmed(inst)
        for what, m in mangled(inst, kind):
            tried += 1
            if not schemas.errors(kind, m):
                failures.append(f"FAIL self-test: {kind} accepts {label} with {what}")
    return tried


def main(argv):
    if len(argv) >= 2 and argv[1] == "--validate":
        schemas = Schemas(SCHEMAS)
        failures, validated = [], {}
        for arg in argv[2:]:
            kind, sep, path = arg.rpartition(":") if ":" in arg and not os.path.exists(arg) else ("", "", arg)
            if not kind:
                insts = load_instances(path)
                kind = kind_for(path, insts[0][1]) if insts else None
                if kind is None:
                    failures.append(f"FAIL {path}: no \"schema\" key wormnet knows; allowed: KIND:FILE")
                    continue
            validate_file(schemas, kind, pathlib.Path(path), "validate", failures, validated)
        for f in failures:
            print(f)
        n = sum(len(v) for v in validated.values())
        print(f"{n} reports valid, {len(failures)} failures")
        return 1 if failures else 0
    if len(argv) != 3:
        print(next(p for p in __doc__.split("\n\n") if p.startswith("usage:")), file=sys.stderr)
        return 2
    wormnet, work = os.path.abspath(argv[1]), pathlib.Path(argv[2]).resolve()
    t0 = time.monotonic()
    failures = []
    try:
        schemas = Schemas(SCHEMAS)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"FAIL schemas: {e}".replace("\n", " ")[:400])
        return 1
    failures += [f"FAIL lint: {p}" for p in lint(schemas)]
    validated = run_matrix(wormnet, work, schemas, failures)
    reports = sum(len(v) for v in validated.values())
    if "sweep-point" in validated:
        label, failed = failed_point_line(validated)
        validate_file_inst(schemas, "sweep-point", label, failed, failures, validated)
    stored = corpus(schemas, failures, validated)
    mangles = self_test(schemas, validated, failures)
    expected = set(schemas.docs) - {"common"}
    seen = {k.partition("#")[0] for k in validated}
    for k in sorted(expected - seen):
        failures.append(f"FAIL coverage: no report validated against {k}.schema.json")
    for f in failures:
        print(f)
    print(f"report_schemas: {len(matrix())} commands, {reports} reports and lines, {stored} stored files, "
          f"{mangles} manglings tried, {len(failures)} failures, {time.monotonic() - t0:.1f} s")
    return 1 if failures else 0


def validate_file_inst(schemas, kind, label, inst, failures, validated):
    errs = schemas.errors(kind, inst)
    failures += [f"FAIL {label} against {kind}: {e}" for e in errs]
    if not errs:
        validated.setdefault(kind, []).append((label, inst))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
