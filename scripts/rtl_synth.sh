#!/usr/bin/env bash
# Synthesizes the router with yosys 0.23 for a 2D mesh (radix 4), a 3D torus
# (radix 6) and cube:8 (radix 8); fails if synthesis fails or any latch is
# inferred. ABC technology mapping is skipped (-noabc): it takes >10 minutes on
# these machines and does not change whether the RTL infers latches. Buffers
# are 4 deep here (the depth only sizes the FIFO memories, not the logic).
set -euo pipefail
RTL="$(cd "$(dirname "$0")/../rtl" && pwd)"
OUT="${1:-build/synth}"
mkdir -p "$OUT"
status=0
for P in 4 6 8; do
  log="$OUT/synth_p$P.log"
  if ! yosys -q -l "$log" -p "read_verilog -sv -I$RTL $RTL/*.sv; chparam -set ports_p $P -set buf_max_p 4 wn_router; \
       synth -top wn_router -noabc; select -assert-none t:\$dlatch t:\$_DLATCH_* t:\$dlatchsr t:\$_DLATCHSR_*; stat" \
       >/dev/null 2>&1; then
    echo "rtl_synth: ports_p=$P FAILED (see $log)"; tail -5 "$log"; status=1; continue
  fi
  if grep -q "Latch inferred" "$log"; then echo "rtl_synth: ports_p=$P infers a latch"; status=1; continue; fi
  cells=$(grep -E "Number of cells" "$log" | tail -1 | awk '{print $NF}')
  echo "rtl_synth: ports_p=$P ok, $cells cells, no latches"
done
exit $status
