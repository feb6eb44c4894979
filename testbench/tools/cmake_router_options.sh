#!/usr/bin/env bash
# The router build options refuse bad values at configure time, naming the option and the allowed
# values (docs/changing-the-router.md): WORMNET_RTL_RADICES, WORMNET_RTL_LINT, WORMNET_ROUTER_RTL.
#   cmake_router_options.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1 work=$2
fail=0
expect() {  # name, expected text, cmake -D arguments...
  local name=$1 want=$2
  shift 2
  rm -rf "$work/$name"
  if out=$(cmake -S "$src" -B "$work/$name" -G Ninja "$@" 2>&1); then
    echo "FAIL $name: configured"; fail=1
  elif ! grep -qF -- "$want" <<<"$(tr -s ' \n' ' ' <<<"$out")"; then
    echo "FAIL $name: no '$want' in:"; echo "$out" | head -20; fail=1
  else
    echo "ok   $name: $want"
  fi
  rm -rf "$work/$name"
}
expect radices_descending "WORMNET_RTL_RADICES: '6,4'; allowed: ascending radices 2..14" -DWORMNET_RTL_RADICES=6,4
expect radices_too_large "WORMNET_RTL_RADICES: '4;16'; allowed: ascending radices 2..14" "-DWORMNET_RTL_RADICES=4;16"
expect radices_word "allowed: ascending radices" -DWORMNET_RTL_RADICES=four
expect trimmed_not_built "WORMNET_RTL_TRIMMED: '8'; allowed: radices of WORMNET_RTL_RADICES (4;6), auto, or empty" "-DWORMNET_RTL_RADICES=4;6" -DWORMNET_RTL_TRIMMED=8
expect lint_word "WORMNET_RTL_LINT: 'loud'; allowed: report, strict" -DWORMNET_RTL_LINT=loud
expect router_missing "WORMNET_ROUTER_RTL: $work/nowhere is not a folder" -DWORMNET_ROUTER_RTL="$work/nowhere"
exit $fail
