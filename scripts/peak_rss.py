#!/usr/bin/env python3
"""Peak resident memory of commands, as ctest checks (memory flat in run length).

  peak_rss.py bound MIB -- CMD...           CMD succeeds and its peak RSS stays <= MIB MiB
  peak_rss.py growth MIB -- SHORT... -- LONG...
                                            both succeed and LONG's peak RSS exceeds SHORT's
                                            by less than MIB MiB (a longer run of the same
                                            setup must not need more memory)

Peak RSS is the kernel's ru_maxrss of that one child (wait4), so the Python
interpreter's own memory does not count. Prints each command's peak RSS.
"""
import os
import subprocess
import sys
import time


def peak_rss_kib(cmd):
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    # ru_maxrss is in KiB on Linux.
    print(f"peak RSS {usage.ru_maxrss / 1024:.1f} MiB, {wall:.1f} s wall: {' '.join(cmd)}")
    if proc.returncode != 0:
        sys.exit(f"peak_rss: exit code {proc.returncode}: {' '.join(cmd)}")
    return usage.ru_maxrss


def split_commands(args):
    cmds, cur = [], None
    for a in args:
        if a == "--":
            cur = []
            cmds.append(cur)
        elif cur is None:
            sys.exit("peak_rss: a command starts after --")
        else:
            cur.append(a)
    if not cmds or any(not c for c in cmds):
        sys.exit("peak_rss: empty command")
    return cmds


def main(argv):
    if len(argv) < 3 or argv[0] not in ("bound", "growth"):
        sys.exit(__doc__)
    limit_kib = float(argv[1]) * 1024
    cmds = split_commands(argv[2:])
    if argv[0] == "bound":
        if len(cmds) != 1:
            sys.exit("peak_rss: bound takes one command")
        rss = peak_rss_kib(cmds[0])
        if rss > limit_kib:
            sys.exit(f"peak_rss: {rss / 1024:.1f} MiB exceeds the bound of {argv[1]} MiB")
        return
    if len(cmds) != 2:
        sys.exit("peak_rss: growth takes two commands, SHORT and LONG")
    short, long = (peak_rss_kib(c) for c in cmds)
    grew = long - short
    print(f"growth {grew / 1024:.1f} MiB (limit {argv[1]} MiB)")
    if grew >= limit_kib:
        sys.exit(f"peak_rss: the long run needs {grew / 1024:.1f} MiB more than the short one")


if __name__ == "__main__":
    main(sys.argv[1:])
