#!/usr/bin/env bash
# Behaviour regression: runs every command of testbench/golden/commands.txt and compares its
# exit code, JSON, CSV and text output (wall-clock lines dropped) with testbench/golden/ref/.
#   scripts/golden.sh [--wormnet BIN] [--out DIR]      compare; exit 1 naming each difference
#   scripts/golden.sh --update [--wormnet BIN]         capture new references (after a deliberate change)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$ROOT/build/wormnet
OUT=$ROOT/build/golden
UPDATE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --wormnet) W=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --update) UPDATE=1; shift ;;
    *) echo "golden.sh: unknown argument '$1'; allowed: --wormnet BIN, --out DIR, --update" >&2; exit 2 ;;
  esac
done
REF=$ROOT/testbench/golden/ref
[ "$UPDATE" = 1 ] && OUT=$REF
rm -rf "$OUT" && mkdir -p "$OUT"
# Every report names the build in "wormnet": {"git": ..., "version": ...} (2-space indent, keys
# sorted); the revision changes with every commit, so references and outputs both hold a fixed
# placeholder. The version stays: a new version is a deliberate change (--update).
normalise_git() {
  sed -i '/^  "wormnet": {$/,/^  }/ s/^\(    "git": \)"[^"]*"/\1"GIT"/' "$1"
}
n=0
while read -r name args; do
  case "$name" in ''|'#'*) continue ;; esac
  extra=(--json "$OUT/$name.json")
  case "$args" in run\ *) extra+=(--csv "$OUT/$name") ;; esac
  rc=0
  # shellcheck disable=SC2086  # the argument list is split on purpose
  "$W" $args "${extra[@]}" > "$OUT/$name.raw" 2> "$OUT/$name.err" || rc=$?
  grep -Ev 'wall|cycles/s' "$OUT/$name.raw" | sed "s#$OUT/##g" > "$OUT/$name.txt" || true
  if [ -f "$OUT/$name.json" ]; then normalise_git "$OUT/$name.json"; fi
  rm -f "$OUT/$name.raw" "$OUT/$name.err"
  echo "$rc" > "$OUT/$name.rc"
  n=$((n + 1))
done < "$ROOT/testbench/golden/commands.txt"
if [ "$UPDATE" = 1 ]; then
  echo "golden: $n references written to $REF"
  exit 0
fi
if diff -r "$REF" "$OUT" > "$OUT.diff"; then
  echo "golden: $n commands, every output byte-identical"
else
  echo "golden: outputs differ from testbench/golden/ref (diff in $OUT.diff):" >&2
  grep -E '^(diff|Only)' "$OUT.diff" >&2 || head -20 "$OUT.diff" >&2
  exit 1
fi
