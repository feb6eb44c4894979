"""wormnet from Python: write `wormnet.schedule/1` files and read wormnet's reports.

    import wormnet
    s = wormnet.Schedule("ring", ranks=4, memory_words=4,
                         collective=wormnet.collective("broadcast", 4, root=0))
    s.send(0, 0, 1, (0, 4))
    ...
    s.save("ring.json")          # validated first; then: wormnet run --schedule ring.json
    rows = wormnet.load("r.json")  # run / compare / sweep results as flat dicts

Standard library only; load_frame() uses pandas when it is installed.
"""
from .reports import flatten, load, load_frame
from .schedule import Schedule, collective, dumps, normalize_ranges
from ._value import ScheduleError
from .validate import COLLECTIVES, OPERATORS, SCHEMA, validate

__all__ = ["Schedule", "ScheduleError", "validate", "collective", "normalize_ranges", "dumps", "load",
           "load_frame", "flatten", "SCHEMA", "OPERATORS", "COLLECTIVES"]
__version__ = "0.9.0"  # wormnet's own version (CMakeLists.txt project(); tests/test_package.py keeps them equal)
