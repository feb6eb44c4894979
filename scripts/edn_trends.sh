#!/usr/bin/env bash
# The EDN thesis's trend experiments (Tsai's thesis), as `wormnet compare` runs whose
# tables land in docs/papers/edn/NAME.txt (docs/papers/edn.md quotes them) and whose JSON (several MB:
# every point) in build/edn_trends/NAME.json, which scripts/plot.py draws.
# Usage: scripts/edn_trends.sh [EXPERIMENT...]   (default: all; -j defaults to the core count)
set -euo pipefail
cd "$(dirname "$0")/.."
W=build/wormnet
OUT=docs/papers/edn
JSON_DIR=${JSON_DIR:-build/edn_trends}
J=${JOBS:-$(nproc)}
SIZES=32,64,128,256,512,1024,2048
mkdir -p "$OUT" "$JSON_DIR"
run() {  # name, args...
  local name=$1; shift
  echo "== $name: wormnet compare $*"
  "$W" compare "$@" -j "$J" --json "$JSON_DIR/$name.json" | tee "$OUT/$name.txt"
}
want() { [ $# -eq 0 ] || [[ " $EXPERIMENTS " == *" $1 "* ]]; }
EXPERIMENTS=" $* "
[ $# -eq 0 ] && EXPERIMENTS=""
# EDN vs RD, 3-port meshes, 100 random sources (all 64 on 8x8), nCUBE-2 and T3D (Figs 3.29-3.32).
for prof in ncube2 t3d; do
  for w in 8 32; do
    want "mesh${w}_${prof}" || continue
    src=random:100
    [ "$w" = 8 ] && src=all
    run "mesh${w}_${prof}" --topology "mesh:${w}x${w}" --algorithm edn-broadcast,rd-broadcast --ports 3 \
      --bytes "$SIZES" --sources "$src" --profile "$prof" --seed 1
  done
done
# Tori: EDN vs U-torus, beta = 0.5 us/byte (4-byte flits at 2000 ns/cycle), alpha = gamma = 0 and
# 100 us (50 cycles) (Fig 4.14); the torus is vertex-transitive, so one source stands for all.
for w in 4 32; do
  for a in 0 50; do
    want "torus${w}_a${a}" || continue
    run "torus${w}_a${a}" --topology "torus:${w}x${w}" --algorithm edn-broadcast,rd-broadcast --ports all \
      --bytes 128,256,512,1024,2048 --source 0 --clock-ns 2000 --alpha "$a" --gamma "$a"
  done
done
# One-port vs 3-port vs all-port for EDN and RD (16x16 mesh, nCUBE-2, 20 random sources).
want ports16 && run ports16 --topology mesh:16x16 --algorithm edn-broadcast,rd-broadcast --ports one,3,all \
  --bytes 256,2048 --sources random:20 --profile ncube2 --seed 1
exit 0
