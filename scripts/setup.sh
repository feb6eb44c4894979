#!/usr/bin/env bash
# Installs every Debian package wormnet's build, tests, demo and plots need.
# Idempotent: does nothing when all are present; otherwise one apt-get update, one install.
# --slurm: also Slurm and munge, for the `slurm` ctest label (scripts/slurm_test.sh).
set -euo pipefail
PACKAGES=(
  verilator libsystemc-dev cmake ninja-build g++ pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libyaml-cpp-dev libfmt-dev zlib1g-dev
  yosys python3 python3-matplotlib
  python3-pandas  # wormnet.load_frame (python/wormnet): reports as DataFrames
  python3-jsonschema  # testbench/tools/validate_reports.py: every report against docs/schemas/
  clang-format  # testbench/tools/check_format.sh: every C++ file as .clang-format says
  parallel  # GNU parallel: `wormnet sweep --emit parallel` and its test
  z3  # the SMT solver yosys-smtbmc drives for the router's formal properties (rtl/formal, label formal)
  libcadical-dev  # CaDiCaL: `wormnet synth` (incremental CNF SAT; lighter and faster on pure CNF than z3)
  binutils  # nm: cmake/systemc_abi.cmake reads the C++ standard libsystemc was built with
  patch  # testbench/tools/router_fixtures.sh: the fixture routers are changes to a copy of rtl/
)
[ "${1:-}" = --slurm ] && PACKAGES+=(slurm-wlm munge)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
