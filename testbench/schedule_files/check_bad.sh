#!/usr/bin/env bash
# Every malformed schedule file of bad/cases.txt is refused by `wormnet run` and `wormnet check`
# the way the contract (schedule-format.md, Errors) says: exit 2, exactly one line on stderr,
#   error: FILE: JSON.PATH: what; allowed: ...
# with the case's JSON path, no JSON-library text, and nothing simulated (stdout empty or only
# "seed N").
# Usage: WORMNET=/path/to/wormnet check_bad.sh [CASE-SUBSTRING...]
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BAD=$HERE/bad

# check CASE FILE PATH MUST_CONTAIN COMMAND ARGS...
check() {
  local name=$1 file=$2 want=$3 contain=$4
  shift 4
  local what="$name ($*)"
  local rc=0
  "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
  local err lines
  err=$(cat "$TMP/err")
  lines=$(awk 'END { print NR }' "$TMP/err")
  local problems=()
  [[ $rc -eq 2 ]] || problems+=("exit code $rc, want 2")
  [[ $lines -eq 1 ]] || problems+=("$lines lines on stderr, want exactly 1")
  local prefix
  if [[ $want == --* ]]; then
    prefix="error: $want: "
    [[ $err == *"$file"* ]] || problems+=("the message does not name the file $file")
  else
    prefix="error: $file: $want: "
  fi
  [[ $err == "$prefix"* ]] || problems+=("stderr does not start with '$prefix'")
  [[ $err == *"allowed:"* ]] || problems+=("no 'allowed:' in the message")
  [[ $err != *"json.exception"* && $err != *"[json."* ]] || problems+=("JSON-library text in the message")
  [[ -z $contain || $err == *"$contain"* ]] || problems+=("the message does not contain '$contain'")
  if grep -qvxE 'seed [0-9]+' "$TMP/out"; then
    problems+=("something was simulated: stdout has more than 'seed N': $(head -c 200 "$TMP/out" | head -n 2 | tr '\n' '|')")
  fi
  if [[ ${#problems[@]} -eq 0 ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$what")
    echo "FAIL $what"
    local p
    for p in "${problems[@]}"; do echo "     - $p"; done
    echo "     stderr: $(head -c 600 "$TMP/err" | sed -n '1,4p' | tr '\n' '|')"
  fi
}

filters=("$@")
while IFS= read -r line || [[ -n $line ]]; do
  [[ -z $line || $line == \#* ]] && continue
  # Fields may be empty (consecutive TABs, which `read` would merge): cut them apart.
  f=$(cut -f1 <<<"$line")
  want=$(cut -f2 <<<"$line")
  args=$(cut -f3 -s <<<"$line")
  contain=$(cut -f4 -s <<<"$line")
  if [[ ${#filters[@]} -gt 0 ]]; then
    keep=0
    for x in "${filters[@]}"; do [[ $f == *"$x"* ]] && keep=1; done
    [[ $keep -eq 1 ]] || continue
  fi
  [[ -n $args ]] || args="--topology mesh:4x4"
  [[ $f == /* ]] && file=$f || file=$BAD/$f
  read -r -a argv <<<"$args"
  for cmd in run check; do
    check "$f" "$file" "$want" "$contain" "$WORMNET" "$cmd" --schedule "$file" "${argv[@]}"
  done
done <"$BAD/cases.txt"

finish
