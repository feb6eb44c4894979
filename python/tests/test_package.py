#!/usr/bin/env python3
"""The package as a whole: its version is wormnet's, it imports without the source tree on the
path once installed, and it accepts every hand-written schedule of the C++ test suite."""
import glob
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import wormnet  # noqa: E402


class PackageTest(unittest.TestCase):
    def test_version_is_wormnets(self):
        cmake = os.path.join(ROOT, "CMakeLists.txt")
        if not os.path.exists(cmake):
            self.skipTest("not in the wormnet source tree")
        with open(cmake) as f:
            m = re.search(r"project\(wormnet VERSION ([0-9.]+)", f.read())
        self.assertIsNotNone(m, "CMakeLists.txt: project(wormnet VERSION x.y.z) not found")
        self.assertEqual(wormnet.__version__, m.group(1))

    def test_cpp_suites_good_files_are_valid(self):
        """testbench/schedule_files/good: written independently of both readers, all accepted."""
        files = sorted(glob.glob(os.path.join(ROOT, "testbench", "schedule_files", "good", "*.json")))
        if not files:
            self.skipTest("no testbench/schedule_files/good in this tree")
        for path in files:
            with self.subTest(os.path.basename(path)):
                s = wormnet.Schedule.load(path)
                self.assertGreater(s.steps(), 0)

    def test_public_names(self):
        for name in wormnet.__all__:
            self.assertTrue(hasattr(wormnet, name), name)
        self.assertEqual(wormnet.SCHEMA, "wormnet.schedule/1")

    def test_no_dependency_outside_the_standard_library(self):
        """`import wormnet` in a fresh interpreter loads no third-party module (pandas stays optional)."""
        code = ("import sys, wormnet; std = set(sys.stdlib_module_names) if hasattr(sys, 'stdlib_module_names') "
                "else None; mods = {m.split('.')[0] for m in sys.modules}; "
                "print(sorted(m for m in mods if std is not None and m not in std and not m.startswith('_') "
                "and m != 'wormnet'))")
        r = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=os.path.join(HERE, "..")))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "[]")


if __name__ == "__main__":
    unittest.main()
