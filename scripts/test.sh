#!/usr/bin/env bash
# The test command (README, CI): setup, configure, build, run every ctest case.
# Long soaks carry the ctest label "soak" and are excluded here: scripts/test.sh -L soak runs them;
# so are the full area table (label "cost") and the deep formal runs (label "formal").
# The real-Slurm test carries "slurm", also excluded: scripts/test.sh -L slurm (setup.sh --slurm).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ " $* " == *" slurm "* ]]; then scripts/setup.sh --slurm; else scripts/setup.sh; fi
start=$(date +%s)
scripts/build.sh
echo "build: $(( $(date +%s) - start )) s"
cd "${BUILD_DIR:-build}"
if [ $# -gt 0 ]; then
  ctest --output-on-failure -j "$(nproc)" "$@"
else
  ctest --output-on-failure -j "$(nproc)" -LE "soak|slurm|cost|formal"
fi
