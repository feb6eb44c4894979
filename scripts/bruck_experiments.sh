#!/usr/bin/env bash
# The Bruck et al. experiments of docs/papers/bruck.md (Bruck et al.): SP-1 radix
# sweep on cube:6 / mesh:8x8 / torus:8x8, one- vs k- vs all-port index and concatenation, and index
# against the torus complete-exchange family. JSON (one summary per run) lands in build/bruck/
# (not committed), the markdown tables that scripts/bruck_tables.py prints from it in
# docs/papers/bruck/NAME.txt and the plot in docs/papers/bruck/sp1.png (both committed).
# Usage: scripts/bruck_experiments.sh [sp1] [ports] [torus]     (default: all three)
#   WORMNET=path/to/wormnet (default build/wormnet)   JOBS=N (default 2)   KEEP=1: resume the sweeps'
#   results files and keep existing compare JSON instead of starting afresh (KEEP=1 after a full run
#   only reprints the tables). Every run uses --backend model (flit for flit the RTL).
# Measured: 22 minutes with JOBS=2 on two shared cores (sp1 1:22, ports 2:22, torus 18:16).
set -euo pipefail
cd "$(dirname "$0")/.."
W=${WORMNET:-build/wormnet}
J=${JOBS:-2}
JSON_DIR=${JSON_DIR:-build/bruck}
OUT=docs/papers/bruck
mkdir -p "$JSON_DIR" "$OUT"
want() { [ -z "$EXPERIMENTS" ] || [[ " $EXPERIMENTS " == *" $1 "* ]]; }
EXPERIMENTS="$*"
sweep() {  # spec, results
  [ "${KEEP:-0}" = 1 ] || rm -f "$2"
  echo "== wormnet sweep $1 -j $J --out $2"
  "$W" sweep "$1" -j "$J" --out "$2" | tail -1
}
compare() {  # json, args...
  local json=$1; shift
  if [ "${KEEP:-0}" = 1 ] && [ -s "$json" ]; then echo "== kept $json"; return; fi
  echo "== wormnet compare $* --json $json"
  "$W" compare "$@" --backend model -j "$J" --json "$json" >/dev/null
}

# 1. SP-1 (the paper's §3.5): n = 64, one-port index, r = 2..64, b = 8..1024 B, three networks.
if want sp1; then
  sweep experiments/specs/bruck_sp1.yaml "$JSON_DIR/sp1.jsonl"
  scripts/bruck_tables.py sp1 "$JSON_DIR/sp1.jsonl" --plot "$OUT/sp1.png" | tee "$OUT/sp1.txt"
fi

# 2. Ports: index r = k+1 / auto / 64 (spec) and concat (compare), k = 1, 2, 3, all, b = 64, 1024 B.
if want ports; then
  sweep experiments/specs/bruck_ports.yaml "$JSON_DIR/ports.jsonl"
  for t in cube:6 mesh:8x8 torus:8x8; do
    compare "$JSON_DIR/concat_${t/:/_}.json" --topology "$t" --algorithm bruck-concat --ports one,2,3,all \
      --bytes 64,1024 --profile sp1
  done
  scripts/bruck_tables.py ports "$JSON_DIR/ports.jsonl" "$JSON_DIR"/concat_*.json | tee "$OUT/ports.txt"
fi

# 3. Tori: bruck-index vs torus-t1/t2, pairwise-exchange, direct-alltoall (spec) on the same points:
#    torus:8x8 b = 4..1024 (sp1 and ideal), torus:16x16 b = 4..256 (sp1) and 4, 64 (ideal).
if want torus; then
  sweep experiments/specs/bruck_vs_torus.yaml "$JSON_DIR/torus_base.jsonl"
  for tp in "torus:8x8 sp1 4,16,64,256,1024 64" "torus:8x8 ideal 4,16,64,256,1024 64" \
            "torus:16x16 sp1 4,16,64,256 256" "torus:16x16 ideal 4,64 256"; do
    read -r t prof bytes n <<<"$tp"
    name="${t/:/_}_$prof"
    compare "$JSON_DIR/torus_bruck_${name}_r2.json" --topology "$t" --profile "$prof" --bytes "$bytes" \
      --algorithm bruck-index --radix 2 --ports one
    compare "$JSON_DIR/torus_bruck_${name}_auto.json" --topology "$t" --profile "$prof" --bytes "$bytes" \
      --algorithm bruck-index --radix auto --ports one,all
    compare "$JSON_DIR/torus_bruck_${name}_rn.json" --topology "$t" --profile "$prof" --bytes "$bytes" \
      --algorithm bruck-index --radix "$n" --ports one,all
    compare "$JSON_DIR/torus_bruck_${name}_r5.json" --topology "$t" --profile "$prof" --bytes "$bytes" \
      --algorithm bruck-index --radix 5 --ports all
  done
  scripts/bruck_tables.py torus "$JSON_DIR/torus_base.jsonl" "$JSON_DIR"/torus_bruck_*.json | tee "$OUT/torus.txt"
fi
exit 0
