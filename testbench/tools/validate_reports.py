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
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from report_matrix import PORT_OVERUSE, SPECS, WRONG_EXPECTED, matrix  # noqa: E402
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


def run_matrix(wormnet, work, schemas, failures):
    plugin = str(pathlib.Path(wormnet).resolve().parent / "libccl_grid_plugin.so")  # examples/ccl_grid_plugin.cpp
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
    for name, argv, outs, rcs in matrix(plugin):
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
    commands = len(matrix(""))
    print(f"report_schemas: {commands} commands, {reports} reports and lines, {stored} stored files, "
          f"{mangles} manglings tried, {len(failures)} failures, {time.monotonic() - t0:.1f} s")
    return 1 if failures else 0


def validate_file_inst(schemas, kind, label, inst, failures, validated):
    errs = schemas.errors(kind, inst)
    failures += [f"FAIL {label} against {kind}: {e}" for e in errs]
    if not errs:
        validated.setdefault(kind, []).append((label, inst))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
