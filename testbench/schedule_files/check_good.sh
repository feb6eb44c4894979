#!/usr/bin/env bash
# The hand-written schedules of good/ run correctly everywhere; the deliberately wrong one fails
# its data check with a FAIL line naming node, address, expected and got; the conflicting one
# is reported by `check` with the shared channel, and `check --simulate` agrees.
# Usage: WORMNET=/path/to/wormnet check_good.sh
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
GOOD=$HERE/good

ok() { passed=$((passed + 1)); }
bad() {
  failed=$((failed + 1))
  failures+=("$1")
  echo "FAIL $1"
  shift
  local p
  for p in "$@"; do echo "     - $p"; done
  echo "     stdout (last lines): $(tail -n 4 "$TMP/out" | tr '\n' '|')"
  echo "     stderr: $(head -n 3 "$TMP/err" | tr '\n' '|')"
}
# run WHAT ARGS...: runs wormnet, leaves stdout/stderr in $TMP/out, $TMP/err and the code in $rc.
run() {
  rc=0
  "$WORMNET" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

# The schedules that must pass (everything but the wrong and the conflicting ones, which are
# also correct data-wise but get their own checks below).
mapfile -t passing < <(cd "$GOOD" && ls -- *.json | grep -v '^wrong_' | grep -v '^conflict_')
[[ ${#passing[@]} -ge 12 ]] || { echo "only ${#passing[@]} good schedules found in $GOOD"; exit 1; }

# 1. Every passing file on every topology, port model and backend. broadcast_multiport_channels
#    fixes injection channels 0 and 1: it needs >= 2 channels (the one-port case is in bad/).
for f in "${passing[@]}" conflict_shared_channel.json; do
  for topo in mesh:4x4 mesh:2x4 torus:4x4 cube:3; do
    for ports in one 2 all; do
      [[ $f == broadcast_multiport_* && $ports == one ]] && continue
      for backend in model rtl lockstep; do
        what="$f on $topo --ports $ports --backend $backend"
        run run --schedule "$GOOD/$f" --topology "$topo" --ports "$ports" --backend "$backend"
        if [[ $rc -eq 0 ]] && grep -q '^  data check    PASS' "$TMP/out" && [[ ! -s $TMP/err ]]; then ok; else
          bad "$what" "exit $rc, want 0 with 'data check    PASS' and nothing on stderr"
        fi
      done
    done
  done
done

# 2. The static check agrees on every passing file: no port overuse, delivery OK, exit 0.
for f in "${passing[@]}"; do
  for ports in one all; do
    [[ $f == broadcast_multiport_* && $ports == one ]] && continue
    run check --schedule "$GOOD/$f" --topology mesh:4x4 --ports "$ports"
    if [[ $rc -eq 0 ]] && grep -q '^  port overuse: none' "$TMP/out" && grep -q '^  delivery: OK' "$TMP/out"; then ok; else
      bad "check $f --ports $ports" "exit $rc, want 0 with 'port overuse: none' and 'delivery: OK'"
    fi
  done
done

# 3. The wrong allreduce (rank 5 drops its own contribution): exit 1 and a data FAIL line naming
#    node, address, expected and got, on every backend.
# (the node may be followed by its rank: "node 9 (rank 1) addr 0")
fail_re='^  data check    FAIL: node [0-9]+( \(rank [0-9]+\))? addr [0-9]+: expected 0x[0-9a-f]{8} got 0x[0-9a-f]{8}'
for backend in model rtl lockstep; do
  for topo in mesh:4x4 cube:3; do
    run run --schedule "$GOOD/wrong_allreduce_forgets_rank.json" --topology "$topo" --backend "$backend"
    if [[ $rc -eq 1 ]] && grep -Eq "$fail_re" "$TMP/out"; then ok; else
      bad "wrong_allreduce_forgets_rank.json on $topo --backend $backend" "exit $rc, want 1 with a '$fail_re' line"
    fi
  done
done
run run --schedule "$GOOD/wrong_allreduce_forgets_rank.json" --topology mesh:4x4 --group 15,14,13,12,11,10,9,8
if [[ $rc -eq 1 ]] && grep -Eq "$fail_re" "$TMP/out"; then ok; else
  bad "wrong_allreduce_forgets_rank.json --group 15,...,8" "exit $rc, want 1 with a '$fail_re' line"
fi
run check --schedule "$GOOD/wrong_allreduce_forgets_rank.json" --topology mesh:4x4
if [[ $rc -eq 1 ]] && grep -q '^  delivery: PROBLEMS' "$TMP/out"; then ok; else
  bad "check wrong_allreduce_forgets_rank.json" "exit $rc, want 1 with 'delivery: PROBLEMS'"
fi

# 4. The conflicting step: 0->3 and 1->2 share router 1's +x output on mesh:4x4 (XY routing).
#    Contention is a finding, not an error (app/run_command.cpp): `check` exits 0, and so does
#    `check --simulate` when the measurement agrees.
shared='step 0: 0->3 and 1->2 share 1(1,0) +x'
run check --schedule "$GOOD/conflict_shared_channel.json" --topology mesh:4x4
if [[ $rc -eq 0 ]] && grep -qF "$shared" "$TMP/out" && grep -q 'stepwise contention: 1 of 1 steps' "$TMP/out"; then ok; else
  bad "check conflict_shared_channel.json" "exit $rc, want 0 naming '$shared'"
fi
for backend in model rtl lockstep; do
  run check --simulate --schedule "$GOOD/conflict_shared_channel.json" --topology mesh:4x4 --backend "$backend"
  if [[ $rc -eq 0 ]] && grep -qF "$shared" "$TMP/out" && grep -q 'static and measured stepwise contention agree' "$TMP/out" &&
     grep -Eq '^     0 +2 +[1-9][0-9]* +.*agree$' "$TMP/out"; then ok; else
    bad "check --simulate conflict_shared_channel.json --backend $backend" \
        "exit $rc, want 0, '$shared', a delayed step 0 and 'static and measured stepwise contention agree'"
  fi
done
# On a torus the wrap link takes 0->3 directly: no conflict.
run check --schedule "$GOOD/conflict_shared_channel.json" --topology torus:4x4
if [[ $rc -eq 0 ]] && grep -q 'stepwise contention: none' "$TMP/out"; then ok; else
  bad "check conflict_shared_channel.json on torus:4x4" "exit $rc, want 0 and 'stepwise contention: none'"
fi

# 5. A process group: the 8 ranks on nodes 15, 14, ..., 8 of mesh:4x4.
for f in reduce_binomial_affine.json alltoall_direct.json; do
  for backend in model rtl; do
    run run --schedule "$GOOD/$f" --topology mesh:4x4 --group 15,14,13,12,11,10,9,8 --backend "$backend"
    if [[ $rc -eq 0 ]] && grep -q '^  data check    PASS' "$TMP/out"; then ok; else
      bad "$f --group 15,...,8 --backend $backend" "exit $rc, want 0 with 'data check    PASS'"
    fi
  done
done

# 6. Determinism: the same seed gives byte-identical --json; another seed changes the data
#    (the wrong file's FAIL values) but not the timing.
for f in allreduce_rd_sum.json wrong_allreduce_forgets_rank.json; do
  for s in 7 7b 8; do
    run run --schedule "$GOOD/$f" --topology mesh:4x4 --backend rtl --seed "${s%b}" --json "$TMP/$f.$s.json"
    cp "$TMP/out" "$TMP/$f.$s.out"
  done
  if cmp -s "$TMP/$f.7.json" "$TMP/$f.7b.json" && cmp -s "$TMP/$f.7.out" "$TMP/$f.7b.out"; then ok; else
    bad "$f: --seed 7 twice" "the --json reports (or stdout) differ"
  fi
  # Another seed: everything but the seed and the data error is the same (cycles, messages, ...).
  strip() { grep -v -e '"seed":' -e '"data_error":' "$1"; }
  if diff -q <(strip "$TMP/$f.7.json") <(strip "$TMP/$f.8.json") >/dev/null &&
     grep -q '"cycles":' "$TMP/$f.7.json"; then ok; else
    bad "$f: --seed 7 vs 8" "cycles or other timing changed with the seed"
  fi
done
f=wrong_allreduce_forgets_rank.json
d7=$(grep 'data check' "$TMP/$f.7.out" || true)
d8=$(grep 'data check' "$TMP/$f.8.out" || true)
if [[ -n $d7 && -n $d8 && $d7 != "$d8" ]]; then ok; else
  bad "$f: --seed 7 vs 8" "the FAIL line's data should change with the seed: '$d7' vs '$d8'"
fi

finish
