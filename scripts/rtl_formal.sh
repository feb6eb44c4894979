#!/usr/bin/env bash
# Formal properties of the router (issue 20, rtl/README.md §9). The harness rtl/formal/wn_router_formal.sv
# (radix 4, 2 VCs x 2 flits, 4x4 mesh or torus, any node address) and the units' `FORMAL` assertions
# are turned into an AIGER model by yosys 0.23 and checked by ABC (yosys-abc, part of Debian's yosys):
# bounded model checking (bmc3) and an unbounded proof attempt (pdr). A deliberately broken router
# (WN_FORMAL_BROKEN: a head may take an output VC another packet holds) must fail; yosys's own SAT
# solver then writes the counterexample as a VCD.
#   scripts/rtl_formal.sh quick [OUT]   mesh one-port to depth 6 + the broken variant (ctest rtl_formal_quick)
#   scripts/rtl_formal.sh full [OUT]    mesh/torus x one/all-port, BMC for FORMAL_SECONDS each (default 900)
#                                       and PDR for FORMAL_SECONDS (ctest label formal)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RTL=$ROOT/rtl
MODE=${1:-quick}
OUT=${2:-$ROOT/build/formal}
SECS=${FORMAL_SECONDS:-900}
mkdir -p "$OUT"

# aig NAME DEFINES PARAMS: the harness with the given parameters as an AIGER model.
aig() {
  local front="read_verilog -sv -formal $2 -I$RTL $RTL/*.sv $RTL/formal/wn_router_formal.sv; chparam $3 wn_router_formal;
    prep -top wn_router_formal -flatten; memory_map; opt -full; async2sync; dffunmap; opt_clean"
  echo "$front" > "$OUT/$1.front.ys"
  yosys -q -l "$OUT/$1.yosys.log" -p "$front; chformal -assume -early; setundef -anyseq; opt -keepdc -fast;
    techmap; opt -fast; dffunmap; abc -fast -g AND; opt_clean; write_aiger -zinit $OUT/$1.aig" > /dev/null 2>&1
}

# bmc NAME DEPTH SECONDS: prints the deepest frame with no failing assertion, or the failing frame.
bmc() {
  local r
  r=$(yosys-abc -c "read_aiger $OUT/$1.aig; fold; strash; bmc3 -F $2 -T $3" 2>&1 | grep -E "asserted|No output" | tail -1)
  echo "$1: bmc: $r"
  case $r in *"was asserted"*) return 1 ;; esac
}

case $MODE in
  quick)
    aig mesh_one "" "-set inj_p 1 -set kind_p 0"
    bmc mesh_one 6 300
    aig broken "-DWN_FORMAL_BROKEN" "-set inj_p 1 -set kind_p 0"
    if bmc broken 20 300; then echo "rtl_formal: the broken router was not caught"; exit 1; fi
    yosys -q -l "$OUT/broken.sat.log" -p "script $OUT/broken.front.ys; sat -prove-asserts -set-assumes -seq 4 \
      -set-init-zero -dump_vcd $OUT/broken.vcd -timeout 280" > /dev/null 2>&1
    grep -q "model found: FAIL" "$OUT/broken.sat.log" || { echo "rtl_formal: no counterexample trace"; exit 1; }
    echo "rtl_formal: broken router fails; counterexample trace $OUT/broken.vcd (gtkwave $OUT/broken.vcd)"
    ;;
  full)
    status=0
    for kind in 0 1; do
      for inj in 1 4; do
        name=$([ $kind = 0 ] && echo mesh || echo torus)_$([ $inj = 1 ] && echo one || echo all)
        aig "$name" "" "-set inj_p $inj -set kind_p $kind"
        bmc "$name" 20 "$SECS" || status=1
        p=$(yosys-abc -c "read_aiger $OUT/$name.aig; fold; strash; pdr -T $SECS" 2>&1 | grep -E "Property proved|was asserted|timeout|Reached" | tail -1)
        echo "$name: pdr: ${p:-no result within $SECS s}"
      done
    done
    exit $status
    ;;
  *) echo "rtl_formal.sh: mode '$MODE'; allowed: quick, full" >&2; exit 2 ;;
esac
