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
  rm -f "$OUT/$name.raw"
  # stderr is kept beside the outputs for reading a difference (not compared: not a reference).
  if [ "$UPDATE" = 1 ] || [ ! -s "$OUT/$name.err" ]; then rm -f "$OUT/$name.err"; else mv "$OUT/$name.err" "$OUT/$name.stderr"; fi
  echo "$rc" > "$OUT/$name.rc"
  n=$((n + 1))
done < "$ROOT/testbench/golden/commands.txt"
if [ "$UPDATE" = 1 ]; then
  echo "golden: $n references written to $REF"
  exit 0
fi
if diff -r -u -x '*.stderr' "$REF" "$OUT" > "$OUT.diff"; then
  echo "golden: $n commands, every output byte-identical"
else
  # Per command that moved: its exit code, the first lines of each differing file, its stderr.
  echo "golden: outputs differ from testbench/golden/ref (whole diff in $OUT.diff):" >&2
  moved=0
  while read -r name args; do
    case "$name" in ''|'#'*) continue ;; esac
    # A run's CSVs are NAME-channels.csv and NAME-messages.csv.
    files=$( (cd "$REF" && ls "$name".* "$name"-*.csv 2>/dev/null; cd "$OUT" && ls "$name".* "$name"-*.csv 2>/dev/null) |
      grep -v '\.stderr$' || true)
    differs=0
    for f in $(echo "$files" | sort -u); do
      cmp -s "$REF/$f" "$OUT/$f" 2>/dev/null && continue
      [ "$differs" = 0 ] && echo "== $name: wormnet $args" >&2
      differs=1
      case "$f" in
        *.rc) echo "   exit code $(cat "$REF/$f" 2>/dev/null || echo none) -> $(cat "$OUT/$f" 2>/dev/null || echo none)" >&2 ;;
        *) { diff -u "$REF/$f" "$OUT/$f" 2>&1 || true; } | sed -n '3,14p' | sed 's/^/   /' >&2 ;;
      esac
    done
    if [ "$differs" = 1 ]; then
      moved=$((moved + 1))
      if [ -s "$OUT/$name.stderr" ]; then sed 's/^/   stderr: /' "$OUT/$name.stderr" | head -5 >&2; fi
    fi
  done < "$ROOT/testbench/golden/commands.txt"
  echo "golden: $moved of $n commands differ" >&2
  exit 1
fi
