#!/usr/bin/env bash
# The installed package as a user sees it (docs/own-firmware.md): install the build into a
# temporary prefix, build examples/ out of tree with find_package(wormnet) as C++17 and as C++20
# and with pkg-config, run each, and require the in-tree program's output byte for byte (same
# cycles, same words) with no SystemC banner; the installed wormnet runs the out-of-tree plugin
# of the same firmware (`run --firmware`) to the same cycles with its data check passed.
#   install_consumer.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
args=(--topology mesh:4x4 --ports all)
"$build/ccl_example" "${args[@]}" >"$work/in_tree.txt" 2>&1
cycles=$(sed -n 's/^.*): \([0-9]*\) cycles,.*$/\1/p' "$work/in_tree.txt")
[[ -n "$cycles" ]] || { cat "$work/in_tree.txt"; exit 1; }
check() {  # name, program
  "$2" "${args[@]}" >"$work/$1.txt" 2>&1
  if ! cmp -s "$work/in_tree.txt" "$work/$1.txt"; then
    echo "$1: output differs from the in-tree ccl_example:"
    diff "$work/in_tree.txt" "$work/$1.txt" | head -20
    exit 1
  fi
  if grep -q SystemC "$work/$1.txt"; then echo "$1: the SystemC banner was printed"; exit 1; fi
  echo "$1: $(head -1 "$work/$1.txt")"
}
for std in 17 20; do
  cmake -S "$src/examples" -B "$work/cmake$std" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_STANDARD=$std \
    >"$work/cmake$std.log" 2>&1 || { cat "$work/cmake$std.log"; exit 1; }
  cmake --build "$work/cmake$std" >>"$work/cmake$std.log" 2>&1 || { tail -30 "$work/cmake$std.log"; exit 1; }
  check "find_package(wormnet), C++$std" "$work/cmake$std/ccl_grid"
  "$prefix/bin/wormnet" run --firmware "$work/cmake$std/libccl_grid_plugin.so" "${args[@]}" >"$work/plugin$std.txt" 2>&1 ||
    { cat "$work/plugin$std.txt"; exit 1; }
  grep -q "^  cycles        $cycles " "$work/plugin$std.txt" || { echo "plugin C++$std: not $cycles cycles"; cat "$work/plugin$std.txt"; exit 1; }
  grep -q "^  data check    PASS" "$work/plugin$std.txt" || { cat "$work/plugin$std.txt"; exit 1; }
  echo "installed wormnet run --firmware (plugin built as C++$std): $cycles cycles, data check PASS"
done
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
c++ -std=c++20 -O1 "$src/examples/ccl_grid.cpp" -o "$work/pc_grid" $(pkg-config --cflags --libs wormnet) \
  >"$work/pc.log" 2>&1 || { tail -30 "$work/pc.log"; exit 1; }
check "pkg-config wormnet, C++20" "$work/pc_grid"
echo "installed package: 3 out-of-tree builds agree with the in-tree program"
