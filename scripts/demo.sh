#!/usr/bin/env bash
# The main job: set up, build, and print the one-port vs all-port comparison on an 8x8 mesh
# (uniform and hotspot traffic), one RTL-vs-model lock-step run, and collective schedules run as
# node firmware under several port models; then the takeaways, computed from the JSON reports
# these runs just wrote (scripts/demo_takeaways.py), and one plot. Every run names its backend.
# Reports and the plot go to ${BUILD_DIR:-build}/demo/; JOBS (default: the core count) simulations
# run at once in the compare tables (results never depend on it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh wormnet
W=${BUILD_DIR:-build}/wormnet
OUT=${BUILD_DIR:-build}/demo
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"
rm -f "$OUT"/{uniform,hotspot,lockstep,cube,mesh,edn}.json "$OUT"/throughput.png  # no stale report feeds a takeaway

echo
echo "== 8x8 mesh, RTL routers (backend rtl), uniform traffic, 4-flit packets, 2 VCs x 8 flits: one-port vs all-port =="
"$W" sweep --backend rtl --topology mesh:8x8 --pattern uniform --ports one,all \
     --rates 0.1,0.2,0.3,0.4,0.5,0.6 --cycles 5000 --json "$OUT/uniform.json"
echo
echo "== 8x8 mesh, RTL (backend rtl), hotspot traffic (30% of packets to node 27): the hotspot's ejection ports decide =="
"$W" sweep --backend rtl --topology mesh:8x8 --pattern hotspot --hotspot-node 27 --hotspot-fraction 0.3 \
     --ports one,all --rates 0.02,0.04,0.06,0.08 --cycles 5000 --json "$OUT/hotspot.json"
echo
echo "== the same network as verilated RTL and as C++ model, compared every cycle (backend lockstep) =="
"$W" traffic --backend lockstep --topology mesh:8x8 --ports all --rate 0.3 --cycles 3000 --warmup 500 \
     --json "$OUT/lockstep.json"
echo
echo "== collectives as node firmware on RTL routers (backend rtl), 6-cube: one vs 3 vs all ports, every word checked =="
"$W" compare --backend rtl --topology cube:6 --algorithm direct-alltoall,rd-broadcast --ports one,3,all \
     --bytes 256 --profile sp1 --json "$OUT/cube.json"
echo
echo "== collectives as node firmware, 8x8 mesh of RTL routers (backend rtl): one-port vs all-port, every word checked =="
"$W" compare --backend rtl --topology mesh:8x8 --algorithm direct-alltoall,binomial-gather,ring-allgather \
     --ports one,all --bytes 1024 --profile t3d -j "$JOBS" --json "$OUT/mesh.json"
echo
echo "== EDN broadcast (Tsai & McKinley) vs recursive doubling, 8x8 mesh, RTL (backend rtl), 1 vs 3 ports, 16 random sources =="
"$W" compare --backend rtl --topology mesh:8x8 --algorithm edn-broadcast,rd-broadcast --ports one,3 \
     --bytes 32,1024 --profile ncube2 --sources random:16 -j "$JOBS" --json "$OUT/edn.json"
echo
echo "== takeaways (computed from the reports in $OUT/) =="
scripts/demo_takeaways.py "$OUT"
