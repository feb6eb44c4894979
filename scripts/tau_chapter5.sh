#!/bin/sh
# Measured reproductions of the tau-model experiments of Tsai's thesis, Ch 5
# (Figs 5.8-5.13), with `wormnet compare --json` and `wormnet tau --from`.
# Page: docs/papers/edn-tau.md (units, tables, differences).
#
#   scripts/tau_chapter5.sh OUT [PART ...]
#   PART: edn-sc (Fig 5.13) | sc-ft (Figs 5.10-5.12) | fig58 (Fig 5.8) | fig59 (Fig 5.9)
#         | hop (the hop cost: edn-sc at larger alpha) | all (default: every part)
#
# Units: beta = 1/4 cycle per byte (a 4-byte flit per cycle); --clock-ns sets the
# microsecond scale (40 ns: beta = 0.01 us/B; 36 ns: beta = 0.009 us/B); alpha and
# gamma are whole cycles, so tau0 = beta/(alpha+gamma) = 0.25/(alpha+gamma) per byte.
set -eu
W=${WORMNET:-build/wormnet}
J=${JOBS:-2}
[ $# -ge 1 ] || { echo "usage: $0 OUT [edn-sc|sc-ft|fig58|fig59|hop|all ...]" >&2; exit 2; }
OUT=$1; shift
[ $# -ge 1 ] || set -- all
mkdir -p "$OUT"

# run NAME TOPO ALPHA GAMMA CLOCK BYTES ALGS [extra compare options]: compare + tau
run() {
  name=$1 topo=$2 a=$3 g=$4 clk=$5 bytes=$6 algs=$7; shift 7
  "$W" compare --topology "$topo" --algorithm "$algs" --ports all --bytes "$bytes" \
    --alpha "$a" --gamma "$g" --clock-ns "$clk" -j "$J" --json "$OUT/$name.json" "$@" \
    > "$OUT/$name.compare.txt"
  "$W" tau --from "$OUT/$name.json" --json "$OUT/$name.tau.json" > "$OUT/$name.tau.txt"
}

# crossover lines of one tau report: "measured | prediction" for the pair A vs B
cross() {
  awk -v a="$2" -v b="$3" '
    function val(s) { if (s ~ /L\* = /) { sub(/.*L\* = /, "", s); sub(/:.*/, "", s); return s }
                      sub(/.*ports=all: /, "", s); sub(/^ *thesis: /, "", s); return "none: " s }
    index($0, a " ports=all vs " b " ports=all:") || index($0, b " ports=all vs " a " ports=all:") {
      m = $0; getline; print val(m) " | " val($0); found = 1 }
    END { if (!found) print "pair not found" }' "$1"
}

# fitted T_s, T_n (cycles) and tau of every series: "name T_s T_n tau" (measured, prediction)
fits() {
  awk '/ports=all +[0-9]+ / { n = $1; ts = $4; tn = $5; tau = $6; getline;
        printf "%-22s %10s %9s %11s | %10s %9s %11s\n", n, ts, tn, tau, $2, $3, $4 }' "$1"
}

edn_sc() {
  # Fig 5.13: EDN vs SC on 2^n x 2^n, tau0 = 0.25/(2 alpha): alpha = gamma = 125, 62, 42
  echo "== edn-sc (Fig 5.13): L* of EDN vs SC, measured | Table 5.3 (hop beta = 3 cycles)"
  # EDN_SC_NS picks the sides (default 2..5; EDN_SC_N6=1 adds 6, ~50 CPU minutes). SC cuts L
  # into 4^n pieces of whole 4-byte words, so it is linear in L only from 4^n words up: n = 6
  # runs at 16, 32 and 64 KiB.
  for n in ${EDN_SC_NS:-2 3 4 5 ${EDN_SC_N6:+6}}; do
    s=$((1 << n)); topo="mesh:${s}x${s}"
    bytes=4096,8192,16384,32768
    [ "$n" -le 5 ] || bytes=16384,32768,65536
    for a in 125 62 42; do
      run "edn-sc_n${n}_a${a}" "$topo" "$a" "$a" 40 "$bytes" edn-broadcast,sc-broadcast
      printf 'n=%s alpha=gamma=%s: ' "$n" "$a"; cross "$OUT/edn-sc_n${n}_a${a}.tau.txt" edn-broadcast sc-broadcast
    done
  done
}

hop() {
  # the hop cost: the same crossover at n = 5 with alpha = gamma 4x larger (tau0 / 4)
  echo "== hop: EDN vs SC on 32x32 at alpha = gamma = 500 (tau0 = 0.00025)"
  run hop_n5_a500 mesh:32x32 500 500 40 16384,32768,65536,131072 edn-broadcast,sc-broadcast
  printf 'n=5 alpha=gamma=500: '; cross "$OUT/hop_n5_a500.tau.txt" edn-broadcast sc-broadcast
}

sc_ft() {
  # Figs 5.10-5.12: n = 5, beta = 0.009 us/B (36 ns cycles), alpha = gamma = 42 cycles = 1.512 us
  echo "== sc-ft (Figs 5.10-5.12): 32x32, alpha = gamma = 42 cycles, clock 36 ns"
  run sc-ft_n5 mesh:32x32 42 42 36 4096,8192,16384 sc-broadcast,ft-broadcast --packets 2,4,8,16,18,19,20
  fits "$OUT/sc-ft_n5.tau.txt"
  for k in 2 4 8 16 18 19 20; do
    printf 'k=%s: ' "$k"; cross "$OUT/sc-ft_n5.tau.txt" sc-broadcast "ft-broadcast/$k"
  done
}

fig58() {
  # SC cuts L into 4^n pieces of at least one 4-byte word: on 32x32 it is linear in L only
  # from L = 4096 B up, so every fit of SC on 32x32 uses sizes >= 4096 B.
  # Fig 5.8: 32x32, beta = 0.01 us/B (40 ns), alpha = gamma = 0.6 ... 1.4 us = 15 ... 35 cycles
  for a in ${FIG58_ALPHAS:-15 20 25 30 35}; do
    echo "== fig58: 32x32, alpha = gamma = $a cycles ($(awk -v a=$a 'BEGIN{print a*0.04}') us), clock 40 ns"
    run "fig58_a$a" mesh:32x32 "$a" "$a" 40 4096,16384,32768 \
      rd-broadcast,edn-broadcast,dim-broadcast,sc-broadcast,ft-broadcast --packets 2,4,8
    fits "$OUT/fig58_a$a.tau.txt"
  done
}

fig59() {
  # Fig 5.9: alpha = gamma = 0.5 us, beta varied by the clock: (clock ns, alpha cycles) =
  # (4, 125) beta 0.001; (20, 25) 0.005; (50, 10) 0.0125; (100, 5) 0.025; (250, 2) 0.0625
  for p in 4:125 20:25 50:10 100:5 250:2; do
    c=${p%:*} a=${p#*:}
    echo "== fig59: 32x32, alpha = gamma = $a cycles = 0.5 us, clock $c ns"
    run "fig59_c$c" mesh:32x32 "$a" "$a" "$c" 4096,16384,32768 \
      rd-broadcast,edn-broadcast,dim-broadcast,sc-broadcast,ft-broadcast --packets 2,4,8
    fits "$OUT/fig59_c$c.tau.txt"
  done
}

for part in "$@"; do
  case $part in
    edn-sc) edn_sc ;; hop) hop ;; sc-ft) sc_ft ;; fig58) fig58 ;; fig59) fig59 ;;
    all) edn_sc; sc_ft; fig58; fig59; hop ;;
    *) echo "unknown part: $part" >&2; exit 2 ;;
  esac
done
