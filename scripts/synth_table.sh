#!/usr/bin/env bash
# The issue-19 table: minimum broadcast steps found by `wormnet synth` (CaDiCaL) for meshes n x n,
# 3D meshes and tori, 3 and 4 ports, from the corner and from the centre, against the lower bound
# ceil(log_{K+1} N) and the thesis's EDN step counts. Each solver call gets TIMEOUT seconds; a
# step count that timed out is "open" (neither found nor proven impossible).
#   scripts/synth_table.sh [TIMEOUT]      -> docs/results/synth/table.txt
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${WORMNET:-$ROOT/build/wormnet}
T=${1:-30}
OUT=$ROOT/docs/results/synth
mkdir -p "$OUT"
export WORMNET_SYNTH_CACHE=${WORMNET_SYNTH_CACHE:-$ROOT/build/synth_cache}
{
  echo "# wormnet synth --timeout $T (seconds per solver call); steps: the fewest found; proven: every fewer step count is UNSAT or below the lower bound LB = ceil(log_{K+1} N)"
  printf "%-12s %5s %6s %5s %7s %6s  %s\n" topology ports root LB steps proven attempts
  for topo in mesh:4x4 mesh:5x5 mesh:6x6 mesh:7x7 mesh:8x8 mesh:9x9 mesh:10x10 torus:4x4 torus:8x8 mesh:4x4x4 mesh:4x4x5; do
    for k in 3 4; do
      case $topo in *x*x*) [ $k = 4 ] && continue ;; esac
      n=$(echo "${topo#*:}" | tr 'x' '*' | bc)
      for root in 0 $(( n / 2 )); do
        r=$("$W" synth --topology "$topo" --ports $k --source $root --timeout "$T" 2>&1 || true)
        steps=$(echo "$r" | sed -nE 's/^(minimum|found[^:]*): ([0-9]+) steps.*/\2/p')
        lb=$(echo "$r" | sed -nE 's/.*lower bound ceil\(log_[0-9]+ [0-9]+\) = ([0-9]+).*/\1/p')
        proven=$(echo "$r" | grep -q '^minimum:' && echo yes || echo no)
        att=$(echo "$r" | sed -nE 's/^  ([0-9]+) steps: ([A-Za-z]+) .*/\1:\2/p' | tr '\n' ' ')
        printf "%-12s %5s %6s %5s %7s %6s  %s\n" "$topo" $k $root "${lb:--}" "${steps:--}" $proven "$att"
      done
    done
  done
} | tee "$OUT/table.txt"
