#!/usr/bin/env bash
# The documentation a reader of the repository can follow (ctest docs_no_outside_refs):
#  1. no file cites a document the repository does not hold: the pattern list below (internal
#     development notes, tracker numbers) must not occur in any file of the checkout;
#  2. every relative Markdown link in README.md and docs/**/*.md names an existing file, and an
#     anchor (#...) a heading of that file;
#  3. README.md has at most 300 lines.
# Every hit is printed as FILE:LINE: text; the exit code is 1 if there is any.
# Files: those git tracks plus new ones git does not ignore (so a check before the commit sees
# them), without .git, build/ and this script; without git, every file outside .git and build/.
# usage: no_outside_refs.sh [SOURCE_DIR]
set -uo pipefail
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 2
SELF=testbench/tools/no_outside_refs.sh
README_MAX_LINES=300
# Extended regular expressions, matched case-insensitively. A reader cannot open any of these.
PATTERNS=(
  'seed-00[0-9]'
  'spec[[:space:]]§'
  'spec seed'
  'spec digest'
  'issue[ -][0-9]+'
)

files() {
  if git -C "$ROOT" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git -C "$ROOT" ls-files -z --cached --others --exclude-standard
  else
    find . -path ./.git -prune -o -path ./build -prune -o -type f -print0 | sed -z 's|^\./||'
  fi | while IFS= read -r -d '' f; do
    case $f in
      .git/* | build/* | "$SELF") continue ;;
    esac
    [ -f "$f" ] && printf '%s\0' "$f"   # tracked but deleted in the work tree: skip
  done
}

status=0

# 1. References to documents outside the repository.
regex=$(IFS='|'; echo "${PATTERNS[*]}")
hits=$(files | xargs -0 -r grep -nIiE -- "$regex" 2> /dev/null)
if [ -n "$hits" ]; then
  echo "references to documents outside the repository (patterns: ${PATTERNS[*]}):"
  echo "$hits"
  status=1
fi

# 2. Relative links in README.md and docs/**/*.md, with their anchors.
mdfiles=$(files | tr '\0' '\n' | grep -E '^(README\.md|docs/.*\.md)$')
if [ -n "$mdfiles" ]; then
  if ! python3 - $mdfiles <<'PY'
import os
import re
import sys
import unicodedata

FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE = re.compile(r"`[^`]*`")


def slug(text):
    """GitHub's heading anchor: lowercase, keep letters, marks, digits, '_', '-' and spaces; spaces -> '-'."""
    text = re.sub(r"`", "", text.strip().lower())
    kept = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc")
    return kept.replace(" ", "-")


anchor_cache = {}


def anchors(path):
    if path not in anchor_cache:
        seen, out, fenced = {}, set(), False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    fenced = not fenced
                    continue
                m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    s = slug(m.group(1))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    out.add(s if n == 0 else f"{s}-{n}")
        anchor_cache[path] = out
    return anchor_cache[path]


bad = 0
for md in sys.argv[1:]:
    fenced = False
    with open(md, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            for target in LINK.findall(CODE.sub("", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                    continue  # http:, https:, mailto: ...
                path, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
                if not os.path.exists(dest):
                    print(f"{md}:{no}: link to a missing file: {target}")
                    bad += 1
                elif anchor and dest.endswith(".md") and os.path.isfile(dest) and anchor not in anchors(dest):
                    print(f"{md}:{no}: link to a missing heading: {target}")
                    bad += 1
sys.exit(1 if bad else 0)
PY
  then
    status=1
  fi
fi

# 3. The README is read in ten minutes.
if [ -f README.md ]; then
  n=$(wc -l < README.md)
  if [ "$n" -gt "$README_MAX_LINES" ]; then
    echo "README.md:$n: $n lines, more than $README_MAX_LINES"
    status=1
  fi
fi

[ $status = 0 ] && echo "docs: no outside references, every Markdown link resolves, README.md within $README_MAX_LINES lines"
exit $status
