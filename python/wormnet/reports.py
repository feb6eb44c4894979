"""Loaders for wormnet's machine-readable outputs, as flat rows for scripts and pandas.

One function for all the shapes (a `run --json` report, a `compare --json` report, a `sweep`
results file, a `tau --json` report), because analysis scripts mix them: a row is always one simulated point, with the
run's configuration as plain columns (`topology`, `algorithm`, `bytes`, ...) next to its
results (`cycles`, `data_check`, `latency.maximum_cycles`, ...).
"""
import json

# Per-message, per-channel and per-step detail: lists of objects that do not fit one row.
# They stay reachable by reading the file with json directly.
_DETAIL = ("steps", "channels", "message_log", "node_steps", "conflicts_listed", "port_overuse")


def flatten(report, prefix=""):
    """One report object as a flat dict: nested keys joined by '.', the run's `config` unprefixed.

    `config` holds what identifies a point (topology, algorithm, ports, bytes, source, ...), so
    its keys become the columns one groups by; `config.profile.alpha` becomes `profile.alpha`.
    Lists of objects (the detail above) are left out; lists of plain values are kept as lists.
    """
    row = {}
    for key, value in report.items():
        if not prefix and key == "config" and isinstance(value, dict):
            row.update(flatten(value))
            continue
        name = prefix + key
        if isinstance(value, dict):
            row.update(flatten(value, name + "."))
        elif isinstance(value, list) and any(isinstance(x, (dict, list)) for x in value):
            continue
        else:
            row[name] = value
    return row


def _rows(doc, path):
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: not a wormnet report (a JSON object or JSON lines of objects)")
    schema = str(doc.get("schema", ""))
    if schema.startswith("wormnet.schedule/"):
        raise ValueError(f"{path}: is a schedule, not a report; read it with wormnet.Schedule.load")
    if schema.startswith("wormnet.compare/"):
        runs = doc.get("runs")
        if not isinstance(runs, list):
            raise ValueError(f'{path}: compare report without a "runs" list')
        # The report's own facts (the wormnet version) on every row; the run's keys win.
        common = flatten({k: v for k, v in doc.items() if k not in ("schema", "runs", "summary")})
        return [{**common, **flatten(r), "run": i} for i, r in enumerate(runs)]
    if schema.startswith("wormnet.tau/"):
        fits = doc.get("fits")
        if not isinstance(fits, list):
            raise ValueError(f'{path}: tau report without a "fits" list')
        # One row per fitted series; the report's law and metric on every row. The points,
        # crossovers and regions are lists of objects: read the file with json for those.
        common = flatten({k: v for k, v in doc.items() if k not in ("schema", "fits")})
        return [{**common, **flatten(f), "fit_index": i} for i, f in enumerate(fits)]
    return [flatten(doc)]


def load(path):
    """Rows of a report file: a run or check report gives one, a compare report one per run
    (with `run`, its index in the report), a tau report one per fitted series (with `fit_index`),
    a sweep results file one per line, ordered by `point`.

    Sweep lines are written in completion order; sorting by `point` makes the rows the same
    whatever `-j` the sweep ran with. A sweep line's `params` become `params.NAME` columns.
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as whole:
        rows = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not JSON ({e.msg}); a report is one JSON object or one object "
                                 f"per line") from whole
            rows.extend(_rows(item, f"{path}:{n}"))
        if all(isinstance(r.get("point"), int) for r in rows):
            rows.sort(key=lambda r: r["point"])
        return rows
    return _rows(doc, path)


def load_frame(path):
    """load(path) as a pandas DataFrame (pandas is optional: everything else needs only the standard library)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("wormnet.load_frame needs pandas (pip install pandas, or Debian: python3-pandas); "
                          "wormnet.load(path) returns the same rows as a list of dicts without it") from e
    return pandas.DataFrame(load(path))
