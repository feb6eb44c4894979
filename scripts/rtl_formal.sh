#!/usr/bin/env bash
# Formal properties of the router (docs/results-other/formal.md, rtl/README.md §9).
# The harness rtl/formal/wn_router_formal.sv
# (radix 4, 2 VCs x 2 flits, 4x4 mesh or torus or the 4-cube, any node address) and the units' `FORMAL` assertions
# are turned into an AIGER model by yosys 0.23 and checked by ABC (yosys-abc, part of Debian's yosys).
# A deliberately broken router (WN_FORMAL_BROKEN: a head may take an output VC another packet holds)
# must fail; yosys's own SAT solver then writes the counterexample as a VCD.
#   scripts/rtl_formal.sh quick [OUT]   mesh one-port proved for every depth (pdr on all assertions together)
#                                       + the broken variant must fail with a trace (ctest rtl_formal_quick)
#   scripts/rtl_formal.sh full [OUT]    mesh/torus/cube x one/all-port (ctest label formal; FORMAL_CASES picks), per case:
#       1. pdr (IC3) on all assertions together, FORMAL_SECONDS (default 900): the units' lemmas are
#          mutually inductive, so together they close where no single one does; a proof holds for
#          every depth (bounded model checking to any depth, 20 included, can find nothing);
#       2. only if that is undecided: every assertion on its own by pdr (2 s each), then rounds in
#          which the source lines proved in every instance become assumptions (sound: only proved
#          invariants are assumed) and pdr retries the rest, first all together (FORMAL_SECONDS),
#          then one by one, 4x the time per round without progress, up to FORMAL_EACH_SECONDS
#          (default 120);
#       3. whatever is still undecided: bmc3 on it, FORMAL_BMC_SECONDS (default 1800), to depth 20.
#       OUT/CASE.props lists each assertion instance with its result; a summary line per case.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RTL=$ROOT/rtl

MODE=${1:-quick}
OUT=${2:-$ROOT/build/formal}
SECS=${FORMAL_SECONDS:-900}
EACH_SECS=${FORMAL_EACH_SECONDS:-120}
BMC_SECS=${FORMAL_BMC_SECONDS:-1800}
mkdir -p "$OUT"
# The package with FORMAL_ADDR_BITS address bits (default 12; the shipped router has 14): the
# harness's 4x4 networks use 4 of them and the rest are assumed zero on every head flit, yet
# with 14 pdr did not close the quick case in 15 CPU minutes where 12 closes it in about one
# (docs/results-other/formal.md). Only this width differs from the shipped package.
ADDR_BITS=${FORMAL_ADDR_BITS:-12}
[[ $ADDR_BITS =~ ^[0-9]+$ ]] && ((ADDR_BITS >= 4 && ADDR_BITS <= 14)) ||
  { echo "rtl_formal.sh: FORMAL_ADDR_BITS '$ADDR_BITS'; allowed: 4..14" >&2; exit 2; }
mkdir -p "$OUT/pkg"
sed -E "s/(localparam int addr_width_gp = )[0-9]+;/\1$ADDR_BITS;/" "$RTL/wn_pkg.sv" > "$OUT/pkg/wn_pkg.sv"
grep -q "localparam int addr_width_gp = $ADDR_BITS;" "$OUT/pkg/wn_pkg.sv" ||
  { echo "rtl_formal.sh: no addr_width_gp line in $RTL/wn_pkg.sv" >&2; exit 1; }
# The package first: yosys resolves wn_pkg:: names as it parses.
SOURCES="$OUT/pkg/wn_pkg.sv $(ls "$RTL"/*.sv | grep -v '/wn_pkg\.sv$' | tr '\n' ' ')"

# aig NAME DEFINES PARAMS: the harness with the given parameters as an AIGER model.
aig() {
  local front="read_verilog -sv -formal $2 -I$RTL $SOURCES $RTL/formal/wn_router_lemmas.sv $RTL/formal/wn_router_formal.sv; chparam $3 wn_router_formal;
    prep -top wn_router_formal -flatten; memory_map; opt -full; async2sync; dffunmap; opt_clean"
  echo "$front" > "$OUT/$1.front.ys"
  yosys -q -l "$OUT/$1.yosys.log" -p "$front; ${4:-} chformal -assume -early; setundef -anyseq; opt -keepdc -fast;
    techmap; opt -fast; dffunmap; abc -fast -g AND; opt_clean; tee -q -o $OUT/$1.names select -list t:\$assert;
    write_aiger -zinit $OUT/$1.aig" > /dev/null 2>&1
}

# where NAME: "instance<TAB>file:line" per AIGER output (yosys writes asserts in the order select lists them)
where() {
  sed -e "s#$ROOT/##g" -e 's/^[^/]*\///' "$OUT/$1.names" | awk '{
    loc = $0; sub(/.*\$assert\$/, "", loc); sub(/\$[0-9]+$/, "", loc)
    inst = "harness"
    if (index($0, "$flatten\\") == 1) { inst = substr($0, 10); sub(/\.\$assert\$.*/, "", inst); gsub(/\\/, "", inst) }
    print inst "\t" loc }'
}

# prove_each NAME SECONDS: pdr on every output's cone; prints "proved|undecided (frame F)" per output
prove_each() {
  local n i r
  n=$(wc -l < "$OUT/$1.names")
  for ((i = 0; i < n; i++)); do
    r=$(yosys-abc -c "read_aiger $OUT/$1.aig; fold; strash; cone -O $i -s; scorr; dc2; pdr -T $2" 2>&1 |
        grep -E "Property proved|was asserted|Reached timeout" | tail -1)
    case $r in
      *"Property proved"*) echo "proved" ;;
      *"was asserted"*) echo "FAILS" ;;
      *) echo "undecided (pdr frame $(echo "$r" | grep -o 'frame [0-9]*' | grep -o '[0-9]*'))" ;;
    esac
  done
}

# bmc NAME DEPTH SECONDS: prints the deepest frame with no failing assertion, or the failing frame.
bmc() {
  local r
  r=$(yosys-abc -c "read_aiger $OUT/$1.aig; fold; strash; bmc3 -F $2 -T $3" 2>&1 | grep -E "asserted|No output" | tail -1)
  echo "$1: bmc: $r"
  case $r in *"was asserted"*) return 1 ;; esac
}

# prove_all NAME SECONDS: pdr on the disjunction of every assertion's failure (ABC orpos), i.e. on
# their conjunction; prints "proved: ...", "FAILS: ..." or "undecided: ...".
prove_all() {
  local log r
  log=$(yosys-abc -c "read_aiger $OUT/$1.aig; fold; strash; orpos; scorr; dc2; pdr -v -T $2" 2>&1)
  r=$(echo "$log" | grep -E "Property proved|was asserted|Reached timeout" | tail -1)
  case $r in
    *"Property proved"*)
      echo "proved for every depth by pdr in $(echo "${r##*Time =}" | tr -s ' ' | sed 's/^ //'), $(echo "$log" |
        sed -n 's/^Invariant F\[\([0-9]*\)\] : \([0-9]*\) clauses with \([0-9]*\) flops.*/inductive invariant: \2 clauses over \3 flip-flops (frame \1)/p')" ;;
    *"was asserted"*) echo "FAILS: $r" ;;
    *) echo "undecided: $r" ;;
  esac
}

case $MODE in
  quick)
    aig mesh_one "" "-set inj_p 1 -set kind_p 0"
    r=$(prove_all mesh_one 800)
    echo "mesh_one: $(wc -l < "$OUT/mesh_one.names") assertions: $r"
    case $r in proved*) ;; *) echo "rtl_formal: mesh one-port not proved"; exit 1 ;; esac
    aig broken "-DWN_FORMAL_BROKEN" "-set inj_p 1 -set kind_p 0"
    if bmc broken 20 300; then echo "rtl_formal: the broken router was not caught"; exit 1; fi
    yosys -q -l "$OUT/broken.sat.log" -p "script $OUT/broken.front.ys; sat -prove-asserts -set-assumes -seq 4 \
      -set-init-zero -dump_vcd $OUT/broken.vcd -timeout 280" > /dev/null 2>&1
    grep -q "model found: FAIL" "$OUT/broken.sat.log" || { echo "rtl_formal: no counterexample trace"; exit 1; }
    echo "rtl_formal: broken router fails; counterexample trace $OUT/broken.vcd (gtkwave $OUT/broken.vcd)"
    ;;
  full)
    status=0
    for name in ${FORMAL_CASES:-mesh_one mesh_all torus_one torus_all cube_one cube_all}; do
      case $name in
        mesh_one) params="-set inj_p 1 -set kind_p 0" ;; mesh_all) params="-set inj_p 4 -set kind_p 0" ;;
        torus_one) params="-set inj_p 1 -set kind_p 1" ;; torus_all) params="-set inj_p 4 -set kind_p 1" ;;
        cube_one) params="-set inj_p 1 -set kind_p 2" ;; cube_all) params="-set inj_p 4 -set kind_p 2" ;;
        *) echo "rtl_formal.sh: FORMAL_CASES '$name'; allowed: mesh_one mesh_all torus_one torus_all cube_one cube_all" >&2
           exit 2 ;;
      esac
      t0=$SECONDS
      rm -f "$OUT/$name".*
      # Round 0 proves each assertion alone; every later round assumes the source lines proved in
      # every instance so far (sound: they hold in every reachable state) and retries the rest.
      # Each try starts with 2 s per assertion (a lemma proves in well under that) and grows the
      # limit fourfold up to FORMAL_SECONDS only when a try proves no new line.
      round=0 lemmas="" cur=$name t=2
      aig "$cur" "" "$params"
      : > "$OUT/$name.props"
      r=$(prove_all "$name" "$SECS")
      case $r in
        proved*)
          where "$name" | sed "s/^/proved (all together)\t/" > "$OUT/$name.props"
          echo "$name: $(wc -l < "$OUT/$name.props") assertions: $r ($((SECONDS - t0)) s)"
          continue ;;
      esac
      echo "$name: all together $r; one by one (which fail, which are proved)"
      while :; do
        paste <(prove_each "$cur" "$t") <(where "$cur") | sed "s/^proved/proved (round $round)/" > "$OUT/$cur.round"
        grep -q "^FAILS" "$OUT/$cur.round" && status=1
        grep -q "^undecided" "$OUT/$cur.round" || break
        new=$(awk -F'\t' '{ n = split($3, a, "/"); loc = a[n]; all[loc] = 1; if ($1 !~ /^proved/) bad[loc] = 1 }
              END { for (l in all) if (!(l in bad)) printf "a:src=*%s.* ", l }' "$OUT/$cur.round")
        if [ -z "$new" ]; then
          [ "$t" -ge "$EACH_SECS" ] && break
          t=$((t * 4 > EACH_SECS ? EACH_SECS : t * 4))
          continue
        fi
        # the newly proved lines are recorded and assumed from now on
        awk -F'\t' -v sel="$new" '{ n = split($3, a, "/"); if (index(sel, "*" a[n] ".*")) print }' "$OUT/$cur.round" >> "$OUT/$name.props"
        lemmas="$lemmas$new"
        round=$((round + 1)) cur=$name.r$round
        aig "$cur" "" "$params" "chformal -assert2assume $lemmas;"
        # with the proved lines assumed, the rest may now close together
        r=$(prove_all "$cur" "$SECS")
        case $r in
          proved*) where "$cur" | sed "s/^/proved (together, round $round)\t/" > "$OUT/$cur.round"
                   echo "$name: the rest together after round $round: $r"
                   break ;;
        esac
      done
      cat "$OUT/$cur.round" >> "$OUT/$name.props"
      undecided=$(grep -c "^undecided" "$OUT/$name.props" || true)
      depth=""
      if [ "$undecided" -gt 0 ]; then
        # bmc over everything still undecided, the proved lines assumed
        bmc "$cur" 20 "$BMC_SECS" > "$OUT/$name.bmc" || status=1
        depth=", bmc on those: $(sed 's/^[^:]*: bmc: //' "$OUT/$name.bmc")"
      fi
      echo "$name: $(wc -l < "$OUT/$name.props") assertions: $(grep -c "^proved" "$OUT/$name.props") proved for every depth (pdr, $round rounds with proved lemmas), $undecided undecided$depth ($((SECONDS - t0)) s)"
    done
    exit $status
    ;;
  *) echo "rtl_formal.sh: mode '$MODE'; allowed: quick, full" >&2; exit 2 ;;
esac
