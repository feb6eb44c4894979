#!/usr/bin/env bash
# The fixture routers of testbench/routers/ (each a change to rtl/, kept as a patch so that it
# follows the shipped RTL) built as a router of your own — WORMNET_ROUTER_RTL, radix 4 only — and
# put through `wormnet conform` (docs/changing-the-router.md):
#   extra_stage    one more register on every output: conforms with P = 4, and runs' delay views
#                  add up exactly with the probed timing;
#   drop_credit    every 16th flit leaving an input returns no credit: named by conform;
#   reorder_flits  two body flits at a buffer's front leave swapped: named by conform.
# One build folder for all three: the first build is a full one, each next fixture re-verilates
# the router and relinks (about 30 s on 2 cores).
#   router_fixtures.sh SOURCE_DIR WORK_DIR [FIXTURE...]
set -uo pipefail
src=$1 work=$2
shift 2
fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || fixtures=(extra_stage drop_credit reorder_flits)
mkdir -p "$work"
fail=0
say() { echo "$*"; }
bad() { echo "FAIL $*"; fail=1; }
topologies=mesh:4x4,torus:4x4,cube:4

build() {  # fixture: rtl/ + its patch into $work/rtl, then (re)build wormnet against it
  rm -rf "$work/rtl"
  cp -r "$src/rtl" "$work/rtl"
  patch -s -p1 -d "$work" <"$src/testbench/routers/$1.patch" || { bad "$1: the patch no longer applies to rtl/"; return 1; }
  # Configured every time: a fixture adds or drops .sv files (the build re-globs the folder).
  cmake -S "$src" -B "$work/build" -G Ninja -DWORMNET_ROUTER_RTL="$work/rtl" -DWORMNET_RTL_RADICES=4 \
    >"$work/configure.log" 2>&1 || { bad "$1: configure (see $work/configure.log)"; return 1; }
  local t0=$(date +%s)
  ninja -C "$work/build" wormnet >"$work/$1.build.log" 2>&1 || { bad "$1: build (see $work/$1.build.log)"; return 1; }
  say "     $1: built in $(( $(date +%s) - t0 )) s"
}

conform() {  # fixture -> $out (stdout+stderr), $rc
  out=$("$work/build/wormnet" conform --topologies $topologies --cycles 400 -j 2 \
    --json "$work/$1.json" 2>&1)
  rc=$?
}

for f in "${fixtures[@]}"; do
  build "$f" || continue
  conform "$f"
  case $f in
    extra_stage)
      if [ $rc -ne 0 ]; then bad "$f: conform exit $rc:"; echo "$out" | tail -5; continue; fi
      n=$(grep -cE '^(mesh|torus|cube)[^ ]* +4 +1 ' <<<"$out")
      [ "$n" -eq 3 ] || { bad "$f: P = 4, f = 1 on 3 topologies, got $n:"; echo "$out" | head -5; }
      # A contention-free collective: measured = the step model with P = 4; a contended one: the
      # delay view adds up (the run fails otherwise) with delay in every class it names.
      "$work/build/wormnet" run --backend rtl --topology mesh:4x4 --ports all --algorithm edn-broadcast --bytes 64 \
        --json "$work/edn.json" >/dev/null 2>&1
      exact=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["cycles"], j["predicted"]["cycles"] == j["cycles"])' \
        "$work/edn.json")
      [ "$exact" = "84 True" ] || bad "$f: edn-broadcast on mesh:4x4 all ports: measured, exact = $exact, expected 84 True"
      r=$("$work/build/wormnet" run --backend rtl --topology torus:4x4 --ports all --algorithm direct-alltoall --bytes 256 2>&1)
      [ $? -eq 0 ] || { bad "$f: direct-alltoall on torus:4x4:"; echo "$r" | tail -5; }
      say "ok   $f: $(grep -m1 '^mesh:4x4 ' <<<"$out" | tr -s ' ')"
      ;;
    drop_credit | reorder_flits)
      want=$([ $f = drop_credit ] && echo "without its credit" || echo "out of order")
      if [ $rc -ne 1 ]; then bad "$f: conform exit $rc, expected 1"; echo "$out" | tail -3
      elif ! grep -q "^error: does not conform: .*$want" <<<"$out"; then bad "$f: no '$want' in:"; grep "^error" <<<"$out"
      else say "ok   $f: $(grep '^error' <<<"$out")"; fi
      ;;
  esac
done
exit $fail
