"""What the table scripts share: their --out/--reuse/--wormnet options and cached wormnet runs.

A run writes its JSON report to a path in --out; with --reuse an existing report there is read
instead of running wormnet again (big networks take minutes).
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def table_parser(doc, out_default):
    """An argument parser with --out DIR, --reuse and --wormnet BIN; add the script's own options."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=out_default)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--wormnet", default=os.path.join(HERE, "..", "build", "wormnet"))
    return ap


def cached_report(cmd, path, reuse, keep=None):
    """Runs `cmd` (which writes its JSON report to `path`) unless reusing `path`; returns the report.

    With `keep` (top-level keys), the report is cut down to those keys on disk as soon as it is
    written: a 256-node run's report holds every message (hundreds of MB), a table needs a number.
    """
    if not (reuse and os.path.exists(path)):
        print("$ " + " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        report = json.load(f)
    if keep and set(report) - set(keep):
        report = {k: report[k] for k in keep}
        with open(path, "w") as f:
            json.dump(report, f)
    return report
