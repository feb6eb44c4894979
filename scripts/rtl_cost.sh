#!/usr/bin/env bash
# What a port costs (docs/results-other/cost.md): the router synthesized by yosys with its configuration fixed at
# elaboration (rtl/cost/wn_router_cost.sv), for every topology kind x port model x VCs x buffer
# depth; area in NAND2 equivalents (rtl/README.md §8). Results are cached (wormnet cost).
#   scripts/rtl_cost.sh full [OUT]   -> OUT/cost.json, OUT/table.txt (default docs/results-other/cost; ~1 h on 2 cores)
#   scripts/rtl_cost.sh check [OUT]  -> three small configurations, no cache, and checks that must hold
#                                       (the ctest case rtl_cost_check)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${WORMNET:-$ROOT/build/wormnet}
MODE=${1:-full}
case $MODE in
  full)
    OUT=${2:-$ROOT/docs/results-other/cost}
    mkdir -p "$OUT"
    J=${JOBS:-1}
    # mesh and cube allow 1 VC; a torus needs two VC classes (the dateline), so 2 and 4.
    "$W" cost --topology mesh:8x8,mesh:4x4x4,cube:6 --ports one,3,all --vcs 1,2,4 --buf 4,8 -j "$J" \
      --json "$OUT/cost_mesh_cube.json" | tee "$OUT/table.txt"
    "$W" cost --topology torus:8x8,torus:4x4x4 --ports one,3,all --vcs 2,4 --buf 4,8 -j "$J" \
      --json "$OUT/cost_torus.json" | tail -n +2 | tee -a "$OUT/table.txt"
    ;;
  check)
    OUT=${2:-$(mktemp -d)}
    mkdir -p "$OUT"
    # a.json fills an empty cache: the cache-key checks below reuse it
    rm -rf "$OUT/cache" "$OUT/rtl"
    export WORMNET_COST_CACHE=$OUT/cache
    "$W" cost --topology mesh:8x8 --ports one,all --vcs 1 --buf 2 --json "$OUT/a.json"
    "$W" cost --topology mesh:8x8 --ports one --vcs 2 --buf 2 --no-cache --json "$OUT/b.json"
    # The cache key is the text synthesis reads: a proof lemma (`ifdef FORMAL) keeps the cached
    # area, any other edit synthesizes again.
    cp -r "$ROOT/rtl" "$OUT/rtl"
    printf '`ifdef FORMAL\n  // a new lemma\n`endif\n' >> "$OUT/rtl/wn_fifo.sv"
    # output captured first: `cost | grep -q` under pipefail fails whenever grep exits before
    # wormnet has written its last line (SIGPIPE), which made this check flaky
    t=$(WORMNET_RTL_DIR=$OUT/rtl "$W" cost --topology mesh:8x8 --ports one --vcs 1 --buf 2)
    grep -q "(cached)" <<< "$t" || { echo "rtl_cost check: a FORMAL-only edit invalidated the cached area"; exit 1; }
    printf '// not a lemma\n' >> "$OUT/rtl/wn_fifo.sv"
    t=$(WORMNET_RTL_DIR=$OUT/rtl "$W" cost --topology mesh:8x8 --ports one --vcs 1 --buf 2)
    if grep -q "(cached)" <<< "$t"; then
      echo "rtl_cost check: an edit outside FORMAL kept the cached area"; exit 1
    fi
    python3 - "$OUT/a.json" "$OUT/b.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["rows"]; b = json.load(open(sys.argv[2]))["rows"]
one, allp, two_vc = a[0], a[1], b[0]
bad = []
# Every FIFO slot holds at least the 60 payload bits as flip-flops (unused channels must be gone,
# used ones must not be optimized away): ports x VCs x depth + injection channels x depth.
for r, net_slots, inj_slots in ((one, 4 * 1 * 2, 1 * 2), (allp, 4 * 1 * 2, 4 * 2), (two_vc, 4 * 2 * 2, 1 * 2)):
    if r["flops"] < 60 * (net_slots + inj_slots): bad.append(f"{r['ports']}/{r['vcs']} VC: {r['flops']} flops < FIFO bits")
    if r["flops"] > 80 * (net_slots + inj_slots) + 400: bad.append(f"{r['ports']}/{r['vcs']} VC: {r['flops']} flops: absent channels were built")
if not allp["nand2"] > one["nand2"]: bad.append("all-port is not larger than one-port")
if not allp["flops"] - one["flops"] >= 60 * 3 * 2: bad.append("all-port lacks the three extra injection FIFOs")
if not two_vc["nand2"] > one["nand2"]: bad.append("2 VCs are not larger than 1")
for r in (one, allp, two_vc):
    if abs(r["nand2"] - r["logic_nand2"] - r["flop_nand2"]) > 1e-6: bad.append("nand2 != logic + flops")
print("\n".join(bad) if bad else "rtl_cost check: ok (one-port %.0f, all-port %.0f, 2 VCs %.0f NAND2-eq)" % (one["nand2"], allp["nand2"], two_vc["nand2"]))
sys.exit(1 if bad else 0)
PY
    ;;
  *) echo "rtl_cost.sh: mode '$MODE'; allowed: full, check" >&2; exit 2 ;;
esac
