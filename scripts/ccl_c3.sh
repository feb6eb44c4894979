#!/usr/bin/env bash
# The CCL headline experiment of docs/papers/ccl.md (the CCL paper): the tree-versus-butterfly choices, which the
# paper prices by C1 against C3 (the network load), never win in its linear model T = C1*t_s + C2*t_c (our reading
# of its formulas): they only lower C3. What does C3 cost on a wormhole network?
#   ops: combine (butterfly, circulant, reduce-bcast, hybrid kappa = 1..5), prefix (circulant, tree),
#        scatter and gather (binomial, direct)
#   networks: mesh:8x8, torus:8x8, cube:6 (n = 64), --ports one,all, --profile sp1,
#   --bytes 8, 256, 4096, 65536 (combine / prefix: m per process; scatter / gather: the block b per
#   rank, so the root holds m = 64 b), --op sum (combine, prefix), CCL barrier mode (no --nonbarrier), --sync free,
#   --backend model (flit for flit the RTL), every word checked.
# JSON lands in build/ccl_c3/ (not committed); the tables scripts/ccl_tables.py prints from it in
# docs/papers/ccl/*.txt and the plot in docs/papers/ccl/c3.png (committed).
# Usage: scripts/ccl_c3.sh [sizes]       (default sizes: 8,256,4096,65536)
#   WORMNET=path/to/wormnet (default build/wormnet)  JOBS=N (default 1)  KEEP=1: keep existing JSON
#   (KEEP=1 after a full run only reprints the tables).  SYNC=1 also runs the control with --sync barrier
#   (every op, one-port) into build/ccl_c3/sync_barrier_*.json, docs/papers/ccl/sync_barrier.txt and
#   docs/papers/ccl/winners_sync_barrier.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
W=${WORMNET:-build/wormnet}
J=${JOBS:-1}
SIZES=${1:-8,256,4096,65536}
JSON_DIR=${JSON_DIR:-build/ccl_c3}
OUT=docs/papers/ccl
mkdir -p "$JSON_DIR" "$OUT"
compare() {  # json, args...
  local json=$1; shift
  if [ "${KEEP:-0}" = 1 ] && [ -s "$json" ]; then echo "== kept $json"; return; fi
  echo "== wormnet compare $* --profile sp1 --backend model -j $J --json $json"
  local t0=$SECONDS
  "$W" compare "$@" --profile sp1 --backend model -j "$J" --json "$json" >/dev/null
  echo "   $((SECONDS - t0)) s"
}
for t in mesh:8x8 torus:8x8 cube:6; do
  n=${t/:/_}
  common=(--topology "$t" --ports one,all --bytes "$SIZES")
  compare "$JSON_DIR/combine_$n.json" "${common[@]}" --algorithm ccl-combine --op sum \
    --ccl-alg butterfly,circulant,reduce-bcast
  compare "$JSON_DIR/combine_hybrid_$n.json" "${common[@]}" --algorithm ccl-combine --op sum \
    --ccl-alg hybrid --kappa 1,2,3,4,5
  compare "$JSON_DIR/prefix_$n.json" "${common[@]}" --algorithm ccl-prefix --op sum --ccl-alg circulant,tree
  compare "$JSON_DIR/scatter_$n.json" "${common[@]}" --algorithm ccl-scatter --ccl-alg binomial,direct
  compare "$JSON_DIR/gather_$n.json" "${common[@]}" --algorithm ccl-gather --ccl-alg binomial,direct
done
if [ "${SYNC:-0}" = 1 ]; then  # the control: --sync barrier (the papers' step-synchronous model), one-port
  for t in mesh:8x8 torus:8x8 cube:6; do
    n=${t/:/_}
    common=(--topology "$t" --ports one --bytes "$SIZES" --sync barrier)
    compare "$JSON_DIR/sync_barrier_combine_$n.json" "${common[@]}" --algorithm ccl-combine --op sum \
      --ccl-alg butterfly,circulant,reduce-bcast
    compare "$JSON_DIR/sync_barrier_combine_hybrid_$n.json" "${common[@]}" --algorithm ccl-combine --op sum \
      --ccl-alg hybrid --kappa 1,2,3,4,5
    compare "$JSON_DIR/sync_barrier_prefix_$n.json" "${common[@]}" --algorithm ccl-prefix --op sum --ccl-alg circulant,tree
    compare "$JSON_DIR/sync_barrier_scatter_$n.json" "${common[@]}" --algorithm ccl-scatter --ccl-alg binomial,direct
    compare "$JSON_DIR/sync_barrier_gather_$n.json" "${common[@]}" --algorithm ccl-gather --ccl-alg binomial,direct
  done
fi
T=scripts/ccl_tables.py
for op in combine prefix scatter gather; do
  "$T" "$JSON_DIR"/"$op"_*.json > "$OUT/$op.txt"
done
"$T" --summary "$JSON_DIR"/{combine,prefix,scatter,gather}_*.json > "$OUT/winners.txt"
"$T" --plot "$OUT/c3.png" "$JSON_DIR"/combine_*.json > /dev/null
if ls "$JSON_DIR"/sync_barrier_*.json >/dev/null 2>&1; then
  "$T" "$JSON_DIR"/sync_barrier_*.json > "$OUT/sync_barrier.txt"
  "$T" --summary "$JSON_DIR"/sync_barrier_*.json > "$OUT/winners_sync_barrier.txt"
fi
echo "tables in $OUT/"
