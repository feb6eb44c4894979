#!/usr/bin/env bash
# The tables of docs/results-other/synth.md: fewest broadcast steps found by `wormnet synth` (greedy schedule + CaDiCaL)
# for meshes n x n (n = 4..16), tori and 3D meshes, 3 and 4 ports, from the corner (node 0) and
# the centre (coordinates floor(k/2) in every dimension; a torus has one orbit of roots: node 0),
# against the lower bound and the thesis's EDN counts; then the latency of the schedules against
# EDN and RD under the ncube2 and t3d profiles. Each solver call gets TIMEOUT seconds; a step
# count that timed out is "open" (neither found nor proven impossible).
#   scripts/synth_table.sh [TIMEOUT] [--no-latency]   -> docs/results-other/synth/{table,latency}.txt
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${WORMNET:-$ROOT/build/wormnet}
T=${1:-10}
OUT=$ROOT/docs/results-other/synth
mkdir -p "$OUT"
export WORMNET_SYNTH_CACHE=${WORMNET_SYNTH_CACHE:-$ROOT/build/synth_cache}
centre() {  # node id of the centre of k1xk2[xk3]
  local IFS=x; set -- $1; local id=0 mul=1
  for k in "$@"; do id=$(( id + (k / 2) * mul )); mul=$(( mul * k )); done
  echo $id
}
START=$SECONDS
{
  echo "# wormnet synth --timeout $T (seconds for the whole synthesis of a root); steps: the fewest found (by: greedy = the heuristic's schedule, SAT = the solver's); proven: every fewer step count is UNSAT or below the lower bound LB = max(ceil(log_{K+1} N), 1); attempts in order; s = wall seconds of the whole search"
  printf "%-12s %5s %6s %4s %6s %7s %6s %7s  %s\n" topology ports root LB steps by proven s attempts
  topos=""
  for n in 4 5 6 7 8 9 10 11 12 13 14 15 16; do topos="$topos mesh:${n}x$n"; done
  for topo in $topos torus:4x4 torus:8x8 torus:12x12 torus:16x16 mesh:4x4x4 mesh:4x4x5 mesh:8x8x4; do
    for k in 3 4; do
      roots="0 $(centre "${topo#*:}")"
      case $topo in torus:*) roots=0 ;; esac
      for root in $roots; do
        t0=$(date +%s.%N)
        r=$("$W" synth --topology "$topo" --ports $k --source $root --timeout "$T" 2>&1 || true)
        sec=$(echo "$(date +%s.%N) - $t0" | bc)
        steps=$(echo "$r" | sed -nE 's/^(minimum|found[^:]*): ([0-9]+) steps.*/\2/p')
        lb=$(echo "$r" | sed -nE 's/.*lower bound ceil\(log_[0-9]+ [0-9]+\) = ([0-9]+).*/\1/p')
        proven=$(grep -q '^minimum:' <<< "$r" && echo yes || echo no)  # no pipe: SIGPIPE under pipefail
        att=$(echo "$r" | sed -nE 's/^  ([0-9]+) steps: ([A-Za-z]+) .*/\1:\2/p' | tr '\n' ' ')
        by=$(grep -q "${steps:-x}:SAT" <<< "$att" && echo SAT || echo greedy)
        printf "%-12s %5s %6s %4s %6s %7s %6s %7.1f  %s\n" "$topo" $k $root "${lb:--}" "${steps:--}" $by $proven "$sec" "$att"
      done
    done
  done
  echo "# total: $(( SECONDS - START )) s"
} | tee "$OUT/table.txt"
[ "${2:-}" = --no-latency ] && exit 0

# Latency against EDN (power-of-two meshes) and RD: the synthesized schedules (from the cache the
# table above filled), 3 ports, nCUBE-2 and T3D profiles, 32 B and 2 KiB, corner and centre roots.
JSON=$ROOT/build/synth_latency
mkdir -p "$JSON"
for prof in ncube2 t3d; do
  for t in 4x4 5x5 6x6 7x7 8x8; do
    algs=synth-broadcast,rd-broadcast
    case $t in 4x4|8x8) algs=synth-broadcast,edn-broadcast,rd-broadcast ;; esac
    for root in 0 $(centre $t); do
      "$W" compare --topology mesh:$t --ports 3 --algorithm $algs --bytes 32,2048 --source $root --profile $prof \
        --json "$JSON/${prof}_mesh_${t}_$root.json" > /dev/null
    done
  done
done
python3 - "$JSON" <<'PY' | tee "$OUT/latency.txt"
import json, sys, glob, os
print("| profile | mesh | root | bytes | synth steps | synth max latency (us) | EDN | RD | stepwise delay (synth) |")
print("|---|---|---|---|---|---|---|---|---|")
def parts(p):
    prof, _, t, root = os.path.basename(p)[:-5].split("_")
    return prof, t, int(root)
for p in sorted(glob.glob(sys.argv[1] + "/*_mesh_*.json"), key=lambda p: (parts(p)[0], int(parts(p)[1].split("x")[0]), parts(p)[2])):
    prof, t, root = parts(p)
    j = json.load(open(p))
    steps = {r["config"]["algorithm"]: r["predicted"]["steps"] for r in j["runs"]}
    stepwise = {(r["config"]["algorithm"], r["config"]["bytes"]): r["contention"]["stepwise"] for r in j["runs"]}
    for b in (32, 2048):
        lat = {s["algorithm"]: s["latency_us"]["mean_maximum"] for s in j["summary"] if s["bytes"] == b}
        edn = f'{lat["edn-broadcast"]:.1f}' if "edn-broadcast" in lat else "-"
        print(f'| {prof} | {t} | {root} | {b} | {steps["synth-broadcast"]} | {lat["synth-broadcast"]:.1f} | {edn} | {lat["rd-broadcast"]:.1f} | {stepwise.get(("synth-broadcast", b))} |')
PY
