#!/usr/bin/env bash
# Synthesizes the router with yosys 0.23 for radix 4 (2D mesh, 2D torus and
# cube:1..4 share it: the topology kind is a configuration input), radix 6 (3D
# mesh/torus) and radix 8 (cube:8); fails if synthesis fails or any latch is
# inferred. Radix 4 goes through the whole `synth` flow except ABC mapping
# (-noabc: ABC alone takes >10 minutes here and can not add latches); radix 6
# and 8 run the coarse part (`synth -run :fine`), which includes proc/latch
# inference, in seconds instead of many minutes. Buffers are 4 deep here (the
# depth only sizes the FIFO memories, not the logic).
set -euo pipefail
RTL="$(cd "$(dirname "$0")/../rtl" && pwd)"
OUT="${1:-build/synth}"
# The package first: yosys resolves wn_pkg:: names as it parses.
SOURCES="$RTL/wn_pkg.sv $(ls "$RTL"/*.sv | grep -v '/wn_pkg\.sv$' | tr '\n' ' ')"
mkdir -p "$OUT"
status=0
for P in 4 6 8; do
  log="$OUT/synth_p$P.log"
  if [ "$P" = 4 ]; then flow="synth -top wn_router -noabc"; else flow="synth -top wn_router -run :fine"; fi
  if ! yosys -q -l "$log" -p "read_verilog -sv -I$RTL $SOURCES; chparam -set ports_p $P -set buf_max_p 4 wn_router; \
       $flow; select -assert-none t:\$dlatch t:\$_DLATCH_* t:\$dlatchsr t:\$_DLATCHSR_*; stat" \
       >/dev/null 2>&1; then
    echo "rtl_synth: ports_p=$P FAILED (see $log)"; tail -5 "$log"; status=1; continue
  fi
  if grep -q "Latch inferred" "$log"; then echo "rtl_synth: ports_p=$P infers a latch"; status=1; continue; fi
  cells=$(grep -E "Number of cells" "$log" | tail -1 | awk '{print $NF}')
  echo "rtl_synth: ports_p=$P ok ($flow), $cells cells, no latches"
done
exit $status
