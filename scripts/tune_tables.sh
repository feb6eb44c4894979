#!/usr/bin/env bash
# The shipped tuning tables of docs/tuning/ (`wormnet tune`): one CCL operation measured cycle by
# cycle with every algorithm and knob at each message size, on the 64-node networks (mesh:8x8,
# torus:8x8, cube:6), one-port and all-port, profiles sp1 and t3d, --backend model (flit for flit
# the RTL), --sync free, every word checked. Each table is docs/tuning/OP_NET_PORTS_PROFILE.json
# (`--ccl-alg tuned --tuning FILE` reads it) with the printed table beside it (.txt); the
# headline of all of them goes to docs/tuning/summary.md (scripts/tune_summary.py).
# Usage: scripts/tune_tables.sh [op] [sizes]     (default: ccl-combine; sizes 8 B .. 1 MiB)
#   WORMNET=path/to/wormnet (default build/wormnet)  JOBS=N (default 1)
#   RESULTS=DIR: the results files (default build/tune; a rerun runs only what is missing)
#   NETS="mesh:8x8 ..." PORTS="one all" PROFILES="sp1 t3d": a subset
set -euo pipefail
cd "$(dirname "$0")/.."
W=${WORMNET:-build/wormnet}
OP=${1:-ccl-combine}
SIZES=${2:-8,32,128,512,2048,8192,32768,65536,131072,524288,1048576}
R=${RESULTS:-build/tune}
mkdir -p "$R" docs/tuning
for net in ${NETS:-mesh:8x8 torus:8x8 cube:6}; do
  for ports in ${PORTS:-one all}; do
    for prof in ${PROFILES:-sp1 t3d}; do
      name="${OP}_${net/:/}_${ports}_${prof}"
      args=(--algorithm "$OP" --topology "$net" --ports "$ports" --profile "$prof" --bytes "$SIZES")
      echo "== wormnet tune ${args[*]}"
      t0=$SECONDS
      # The printed table without the seed line and the results file's path (which is local).
      { echo "\$ wormnet tune ${args[*]} --json docs/tuning/$name.json"
        "$W" tune "${args[@]}" -j "${JOBS:-1}" --out "$R/$name.jsonl" --json "docs/tuning/$name.json" |
          grep -v '^seed' | sed -E 's/: [0-9]+ runs at [0-9]+ sizes, .*$//'; } > "docs/tuning/$name.txt"
      echo "   $((SECONDS - t0)) s"
    done
  done
done
scripts/tune_summary.py docs/tuning/"${OP}"_*.json > "docs/tuning/${OP}_summary.md"
