#!/usr/bin/env bash
# ctest `sweep_slurm` (label slurm): a sweep spec emitted as a Slurm job array, submitted to a
# one-node cluster on localhost (scripts/slurm_local.sh), merged, and compared byte for byte with
# a local `-j 2` run of the same spec. Exit 77 (skipped) without Slurm (scripts/setup.sh --slurm) or root.
# Usage: scripts/slurm_test.sh WORMNET DIR
set -euo pipefail
W=$1
D=$(mkdir -p "$2" && cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
command -v sbatch >/dev/null && command -v slurmctld >/dev/null || { echo "skipped: no slurm-wlm"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skipped: the local cluster needs root"; exit 77; }
rm -rf "$D"/*
eval "$("$here/slurm_local.sh" start "$D/cluster")"
trap '"$here/slurm_local.sh" stop "$D/cluster"' EXIT
cat > "$D/spec.yaml" <<'YAML'
command: run
topology: mesh:4x4
algorithm: [rd-broadcast, binomial-scatter]
ports: [one, all]
bytes: {from: 32, to: 64, factor: 2}
sources: [0, 5]
YAML
"$W" sweep "$D/spec.yaml" --emit slurm "$D/job" --chunks 4 --throttle 2
grep -qx '#SBATCH --array=0-3%2' "$D/job/sweep.sbatch"
timeout 300 sbatch --wait "$D/job/sweep.sbatch"
"$W" sweep --merge "$D"/job/results-*.jsonl --out "$D/merged.jsonl" "$D/spec.yaml"
"$W" sweep "$D/spec.yaml" -j 2 --out "$D/done.jsonl" > /dev/null
# A local results file is in completion order; --merge with the spec writes point order.
"$W" sweep --merge "$D/done.jsonl" --out "$D/local.jsonl" "$D/spec.yaml" > /dev/null
cmp "$D/merged.jsonl" "$D/local.jsonl"
# Resubmitting resumes: every shard finds its points done, the merge is unchanged.
timeout 300 sbatch --wait "$D/job/sweep.sbatch"
grep -q ', 4 already in ' "$D"/job/slurm-*_0.out
"$W" sweep --merge "$D"/job/results-*.jsonl --out "$D/merged2.jsonl" "$D/spec.yaml"
cmp "$D/merged2.jsonl" "$D/local.jsonl"
echo "slurm: 16 points through a 4-task array equal the local run"
