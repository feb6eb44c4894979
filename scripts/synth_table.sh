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

# Latency against EDN (power-of-two meshes) and RD: the synthesized schedules (from the cache the
# table above filled), 3 ports, nCUBE-2 profile, 32 B and 2 KiB, corner and centre roots.
JSON=$ROOT/build/synth_latency
mkdir -p "$JSON"
for t in 4x4 5x5 6x6 7x7 8x8; do
  n=$(( ${t%x*} * ${t#*x} ))
  algs=synth-broadcast,rd-broadcast
  case $t in 4x4|8x8) algs=synth-broadcast,edn-broadcast,rd-broadcast ;; esac
  for root in 0 $(( n / 2 )); do
    "$W" compare --topology mesh:$t --ports 3 --algorithm $algs --bytes 32,2048 --source $root --profile ncube2 \
      --json "$JSON/mesh_${t}_$root.json" > /dev/null
  done
done
python3 - "$JSON" <<'PY' | tee "$OUT/latency.txt"
import json, sys, glob, os
print("| mesh | root | bytes | synth steps | synth max latency (us) | EDN | RD | stepwise delay (synth) |")
print("|---|---|---|---|---|---|---|---|")
def key(p):
    b = os.path.basename(p)[5:-5].split("_")
    return (int(b[0].split("x")[0]), int(b[1]))
for p in sorted(glob.glob(sys.argv[1] + "/mesh_*.json"), key=key):
    j = json.load(open(p))
    t, root = os.path.basename(p)[5:-5].split("_")
    steps = {r["config"]["algorithm"]: r["predicted"]["steps"] for r in j["runs"]}
    stepwise = {(r["config"]["algorithm"], r["config"]["bytes"]): r["contention"]["stepwise"] for r in j["runs"]}
    for b in (32, 2048):
        lat = {s["algorithm"]: s["latency_us"]["mean_maximum"] for s in j["summary"] if s["bytes"] == b}
        edn = f'{lat["edn-broadcast"]:.1f}' if "edn-broadcast" in lat else "-"
        print(f'| {t} | {root} | {b} | {steps["synth-broadcast"]} | {lat["synth-broadcast"]:.1f} | {edn} | {lat["rd-broadcast"]:.1f} | {stepwise.get(("synth-broadcast", b))} |')
PY
