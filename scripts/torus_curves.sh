#!/bin/bash
# Measured completion-time curves of the torus complete exchange (docs/papers/torus-exchange.md, the
# paper's Figs 6-7): one `wormnet compare --json` file per point, so the run is
# resumable (a point whose JSON exists is skipped) and can be stopped at any time.
# Points run one at a time, most informative first (a 64x64 point takes minutes
# and up to several GB: never run two at once on the shared machine).
#
# usage: scripts/torus_curves.sh [OUTDIR] [GROUP ...]
#   OUTDIR  default build/curves
#   GROUP   any of: pred t32 free32 t64new base32 t32mid t64m2 t64b1 t64m2b t64b t64a t64c t32big (default: all, in this order)
# env: WORMNET (default build/wormnet)
# Then: scripts/torus_tables.py OUTDIR/c32_a5000_*.json  (tables, fits, crossovers)
set -u
cd "$(dirname "$0")/.."
out=${1:-build/curves}
shift || true
groups=${*:-pred t32 free32 t64new base32 t32mid t64m2 t64b1 t64m2b t64b t64a t64c t32big}
wn=${WORMNET:-build/wormnet}
mkdir -p "$out"

# point NAME TOPOLOGY ALGORITHM ALPHA BYTES SYNC
point() {
  local name=$1 topo=$2 alg=$3 alpha=$4 bytes=$5 sync=$6
  local f="$out/$name.json"
  [ -s "$f" ] && return 0
  echo "$(date +%T) $name" >&2
  local t0=$SECONDS
  if "$wn" compare --topology "$topo" --algorithm "$alg" --ports one --alpha "$alpha" --gamma 0 \
      --sync "$sync" --bytes "$bytes" --json "$f.tmp" > "$out/$name.txt" 2>&1; then
    mv "$f.tmp" "$f"
    echo "$(date +%T) $name done in $((SECONDS - t0)) s" >&2
  else
    echo "$(date +%T) $name FAILED (see $out/$name.txt)" >&2
    rm -f "$f.tmp"
  fi
}

# pred N ALGORITHM: S, B, H of the schedule (the run's prediction; --max-cycles 1 stops it at
# once, so the run itself "fails": only its `predicted` field is used)
pred() {
  local n=$1 alg=$2 f="$out/p$1_$2.json"
  [ -s "$f" ] && return 0
  "$wn" compare --topology torus:${n}x${n} --algorithm $alg --ports one --alpha 5000 --gamma 0 \
    --sync barrier --bytes 4 --max-cycles 1 --json "$f" > /dev/null 2>&1
  grep -q '"formula"' "$f" 2>/dev/null || { echo "pred $n $alg FAILED" >&2; rm -f "$f"; }
}

# t64 ALPHA "ALGORITHMS" BYTES...: T1.x on a 64x64 torus (T1 = T1.3 at d = 6)
t64() {
  local a=$1 algs=$2; shift 2
  for b in "$@"; do
    for alg in $algs; do
      point "c64_a${a}_${alg}_${b}" torus:64x64 $alg $a $b barrier
    done
  done
}
all64="torus-t1.2 torus-t1.1 torus-t1 torus-t2"
# t32 ALPHA BYTES...: 32x32, T1 (= T1.2 at d = 5), T1.1, T2
t32() {
  local a=$1; shift
  for b in "$@"; do
    for alg in torus-t1 torus-t1.1 torus-t2; do
      point "c32_a${a}_${alg}_${b}" torus:32x32 $alg $a $b barrier
    done
  done
}

for g in $groups; do
  case $g in
    pred)  # S, B, H of every schedule the tables compare (seconds each; 64x64 ~1 GB)
      for alg in torus-t1.2 torus-t1.1 torus-t1 torus-t2; do pred 64 $alg; done
      for alg in direct-alltoall pairwise-exchange; do pred 32 $alg; done ;;
    t32) t32 5000 4 16; t32 10000 4 16 ;;
    free32)  # one free-running run per T1.x on 32x32
      for alg in torus-t1 torus-t1.1 torus-t2; do
        point "f32_a5000_${alg}_4" torus:32x32 $alg 5000 4 free
      done ;;
    # 64x64 (4096 nodes, ~20-30 min per point on the shared machine): m = 1 flit first, then 4
    # flits (the node-memory limit), then 2 and 3
    t64new) t64 5000 "torus-t1.2 torus-t1.1" 4 ;;
    t64m2) t64 5000 "$all64" 8 ;;
    t64m2b) t64 10000 "$all64" 8 ;;
    t64b1) t64 5000 "torus-t2" 4; t64 10000 "torus-t1 torus-t2" 4 ;;
    t64a) t64 5000 "$all64" 4 16 ;;
    base32)  # direct and pairwise exchanges on 32x32 (1023 start-ups each)
      for b in 4 16; do
        for alg in direct-alltoall pairwise-exchange; do
          point "c32_a5000_${alg}_${b}" torus:32x32 $alg 5000 $b barrier
        done
      done
      for alg in direct-alltoall pairwise-exchange; do
        point "c32_a10000_${alg}_4" torus:32x32 $alg 10000 4 barrier
      done ;;
    t64b) t64 10000 "$all64" 4 16 ;;
    t64c) t64 5000 "$all64" 8 12; t64 10000 "$all64" 8 12 ;;
    t32mid) t32 5000 64 ;;
    t32big) t32 10000 64; t32 5000 256; t32 10000 256 ;;
    *) echo "unknown group $g" >&2; exit 2 ;;
  esac
done
