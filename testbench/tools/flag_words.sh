#!/usr/bin/env bash
# app/ owns the user's words (ctest flag_words): below app/ an error names a run parameter by its
# id (Param, systemc/core/config_error.h) and app/param_words.cpp words it. Fails, printing
# FILE:LINE: text, when
#  1. a layer below app/ throws ConfigError("--flag", ...) — families excepted: they declare
#     their own options by name (algorithms/families/*/family.cpp) and throw with that name;
#  2. a Param has no case in app/param_words.cpp's flag_word(), or two share a word.
# usage: flag_words.sh [SOURCE_DIR]
set -uo pipefail
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 2
bad=0
hits=$(grep -rn --include='*.cpp' --include='*.h' -E 'ConfigError\("--|ConfigField\("--' \
         systemc algorithms firmware experiments | grep -v '^algorithms/families/' | grep -v -E '^[^:]+:[0-9]+:\s*//')
if [ -n "$hits" ]; then
  echo "$hits"
  echo "FAIL: a flag name below app/; allowed: ConfigError(Param::...) worded by app/param_words.cpp"
  bad=1
fi
params=$(sed -n '/#define WN_PARAMS(X)/,/^$/p' systemc/core/config_error.h | grep -o 'X([a-z_]*)' | sed 's/X(\(.*\))/\1/' | sort)
cases=$(grep -o 'case Param::[a-z_]*' app/param_words.cpp | sed 's/case Param:://' | sort)
if [ "$params" != "$cases" ]; then
  diff <(echo "$params") <(echo "$cases") | sed 's/^/  /'
  echo "FAIL: systemc/core/config_error.h's WN_PARAMS and app/param_words.cpp's cases differ"
  bad=1
fi
words=$(grep -o 'return "--[a-z-]*"' app/param_words.cpp | sort)
if [ -n "$(echo "$words" | uniq -d)" ]; then
  echo "FAIL: two parameters share a word: $(echo "$words" | uniq -d | tr '\n' ' ')"
  bad=1
fi
[ "$(echo "$params" | wc -l)" -ge 30 ] || { echo "FAIL: parsed only $(echo "$params" | wc -l) parameters"; bad=1; }
[ $bad = 0 ] && echo "PASS: $(echo "$params" | wc -l) parameters, each worded once by app/"
exit $bad
