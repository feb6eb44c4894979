#!/usr/bin/env bash
# Every C++ file of the repository is formatted as .clang-format says (Debian bookworm's
# clang-format 14): lists the files that are not, exit 1. `clang-format -i FILE` fixes one.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v '^testbench/layering_fixture/')
else  # an exported tree: every C++ file but the build folders
  mapfile -t files < <(find . -path ./build -prune -o -path './build*' -prune -o -path ./testbench/layering_fixture -prune \
                         -o \( -name '*.cpp' -o -name '*.h' \) -print | sed 's|^\./||' | sort)
fi
bad=()
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if ((${#bad[@]})); then
  printf 'not formatted (clang-format -i FILE): %s\n' "${bad[@]}"
  exit 1
fi
echo "format: ${#files[@]} C++ files as .clang-format says"
