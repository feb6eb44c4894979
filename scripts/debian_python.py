"""Run on the Python that has Debian's modules.

The scripts start with `#!/usr/bin/env python3`, so they run on whatever python3 comes first on
PATH. Debian's python3-matplotlib, python3-pandas and python3-jsonschema (scripts/setup.sh) are
installed for /usr/bin/python3 only; a python3 from pyenv, conda or a virtualenv earlier on PATH
does not see them. Rather than fail there, a script that needs one of those modules re-executes
itself once on /usr/bin/python3, with the same arguments, before it has done anything.
"""
import importlib.util
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"
_REEXEC_MARK = "WORMNET_PY_REEXEC"


def missing(modules):
    return [m for m in modules if importlib.util.find_spec(m) is None]


def prefer_python_with(*modules):
    """Re-execute on /usr/bin/python3 when this interpreter lacks one of `modules` (once)."""
    if not missing(modules) or os.environ.get(_REEXEC_MARK):
        return
    here = os.path.realpath(sys.executable or "")
    if os.path.realpath(SYSTEM_PYTHON) == here or not os.access(SYSTEM_PYTHON, os.X_OK):
        return
    os.environ[_REEXEC_MARK] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(sys.argv[0])] + sys.argv[1:])


def require(*modules):
    """prefer_python_with, then one line on stderr and exit 2 if a module is still missing."""
    prefer_python_with(*modules)
    gone = missing(modules)
    if gone:
        name = os.path.basename(sys.argv[0])
        sys.stderr.write(f"error: {name}: python module {gone[0]} not found for {sys.executable}; "
                         f"allowed: scripts/setup.sh (installs python3-{gone[0]} for {SYSTEM_PYTHON})\n")
        sys.exit(2)
