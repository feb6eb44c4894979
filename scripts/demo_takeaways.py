#!/usr/bin/env python3
"""The takeaways of scripts/demo.sh, computed from the JSON reports the demo's runs just wrote,
and the demo's one plot.

  scripts/demo_takeaways.py DIR

DIR holds (all written by scripts/demo.sh):
  uniform.json   wormnet sweep --json: 8x8 mesh, uniform traffic, one-port vs all-port
  hotspot.json   wormnet sweep --json: the same with hotspot traffic
  lockstep.json  wormnet traffic --backend lockstep --json
  cube.json      wormnet compare --json: direct-alltoall, rd-broadcast on cube:6, ports one,3,all
  mesh.json      wormnet compare --json: direct-alltoall, binomial-gather, ring-allgather on mesh:8x8
  edn.json       wormnet compare --json: edn-broadcast vs rd-broadcast, ports one,3, 16 sources

Every number printed is computed here from those files, and every sentence is chosen by the
numbers: where a comparison comes out the other way, the sentence says so. The plot is
scripts/plot_sweep.py's traffic figure (accepted throughput, and total and network latency, vs
offered load, one line per port model) of uniform.json, written to DIR/throughput.png; its path is printed last.
Debian python3 with python3-matplotlib (scripts/setup.sh), like scripts/plot.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from debian_python import require  # noqa: E402

require("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")  # files only, no display
from demo_common import (  # noqa: E402
    SATURATED, SAME, load, say, ratio_words, fmt_rates, nodes, pretty, bisection_channels,
    sweep_points, saturated, mean, compare_count, summary,
)
from plot_sweep import load as load_points, plot_traffic  # noqa: E402


def takeaway_uniform(sweep):
    by = sweep_points(sweep)
    if "one" not in by or "all" not in by:
        return say("The uniform sweep has no one-port and all-port pair to compare.")
    one = {p["config"]["rate"]: p for p in by["one"]}
    all_ = {p["config"]["rate"]: p for p in by["all"]}
    rates = sorted(r for r in one if r in all_ and saturated(one[r]) and saturated(all_[r]))
    peak_one = max(p["throughput"]["accepted"] for p in by["one"])
    peak_all = max(p["throughput"]["accepted"] for p in by["all"])
    peak = (f"All-port's accepted throughput peaks at {peak_all:.4f} flits/node/cycle, one-port's at "
            f"{peak_one:.4f}: all-port carries {ratio_words(peak_all / peak_one, 'more', 'less')}.")
    if peak_all / peak_one - 1 <= -SAME:
        peak = (f"One-port's accepted throughput peaks at {peak_one:.4f} flits/node/cycle, above all-port's "
                f"{peak_all:.4f} ({peak_one / peak_all:.2f}x).")
    elif abs(peak_all / peak_one - 1) < SAME:
        peak = f"Both port models' accepted throughput peaks at {peak_one:.4f} flits/node/cycle."
    if not rates:
        return say(f"Uniform traffic: no offered load of the sweep ({fmt_rates(sorted(one))}) saturates both port "
                   f"models (accepted below {SATURATED:.0%} of offered), so there is no past-saturation "
                   f"comparison. {peak}")
    net = [(one[r]["network_latency"]["avg"], all_[r]["network_latency"]["avg"]) for r in rates]
    tot = [(one[r]["total_latency"]["avg"], all_[r]["total_latency"]["avg"]) for r in rates]
    queue = [(t1 - n1, ta - na) for (n1, na), (t1, ta) in zip(net, tot)]
    n1, na = mean([a for a, _ in net]), mean([b for _, b in net])
    t1, ta = mean([a for a, _ in tot]), mean([b for _, b in tot])
    over = "load" if len(rates) == 1 else f"{len(rates)} loads"
    text = (f"Uniform traffic past saturation (offered {fmt_rates(rates)} flits/node/cycle, where both port "
            f"models accept less than {SATURATED:.0%} of the offered load): ")
    lower_net = compare_count(net, True)
    if lower_net and n1 < na:
        text += (f"one-port shows the lower *network* latency {lower_net} ({n1:.1f} vs {na:.1f} cycles, "
                 f"mean over the {over})")
    else:
        text += f"one-port does not show the lower *network* latency ({n1:.1f} vs all-port's {na:.1f} cycles, mean)"
    if t1 > ta:
        text += f", but the higher *total* latency ({t1:.1f} vs {ta:.1f}, incl. source queueing)"
    else:
        text += f"; its *total* latency is not higher either ({t1:.1f} vs {ta:.1f}, incl. source queueing)"
    text += "."
    if all(q1 > qa for q1, qa in queue):
        text += (f" Its single injection channel keeps packets queued at the source (queueing "
                 f"{mean([a for a, _ in queue]):.1f} vs {mean([b for _, b in queue]):.1f} cycles per packet)")
        text += (", so fewer worms block each other inside the network." if n1 < na else
                 ", yet that does not make the network faster here.")
    say(f"{text} {peak}")


def takeaway_hotspot(sweep):
    by = sweep_points(sweep)
    if "one" not in by or "all" not in by:
        return say("The hotspot sweep has no one-port and all-port pair to compare.")
    top_one, top_all = by["one"][-1], by["all"][-1]
    cfg = top_one["config"]
    r = cfg["rate"]
    a1, aa = top_one["throughput"]["accepted"], top_all["throughput"]["accepted"]
    sat1 = [p["config"]["rate"] for p in by["one"] if saturated(p)]
    sata = [p["config"]["rate"] for p in by["all"] if saturated(p)]

    def sat_words(name, rates):
        return (f"{name} is past saturation at {fmt_rates(rates)}" if rates
                else f"{name} accepts every offered load of the sweep")

    text = (f"Hotspot traffic: at offered {r:g} flits/node/cycle one-port accepts {a1:.4f}, all-port {aa:.4f} "
            f"(all-port {aa / a1:.2f}x one-port's), network latency "
            f"{top_one['network_latency']['avg']:.1f} vs {top_all['network_latency']['avg']:.1f} cycles; "
            f"{sat_words('one-port', sat1)}, {sat_words('all-port', sata)}.")
    ej1, eja = cfg.get("ejection_channels"), top_all["config"].get("ejection_channels")
    if aa / a1 > 1 + SAME and sat1 and not sata and ej1 and eja and eja > ej1:
        text += (f" No source is offered more than {r:g} flits/cycle, a small part of the 1 flit/cycle its "
                 f"injection channel carries, so the limit is where the traffic converges: the hotspot ejects "
                 f"through {ej1} channel with one port, through {eja} with all ports.")
    say(text)


def takeaway_lockstep(rep):
    c = rep["config"]
    ok = rep.get("ok") and not rep.get("errors") and rep["packets"]["created"] == rep["packets"]["delivered"]
    if c.get("backend") != "lockstep":
        return say(f"The lock-step section ran on backend {c.get('backend')}, not lockstep: no RTL-vs-model check.")
    if ok:
        say(f"Lock-step ({c['topology']}, {c['ports']}-port, offered {c['rate']:g}): the verilated RTL and the C++ "
            f"model produced the same router outputs in every one of the {rep['cycles_simulated']} cycles (a "
            f"divergence stops the run), and all {rep['packets']['delivered']} packets arrived once, in order, "
            f"intact.")
    else:
        say(f"Lock-step ({c['topology']}): the run reports a problem: ok={rep.get('ok')}, "
            f"{len(rep.get('errors', []))} scoreboard errors, {rep['packets']['delivered']} of "
            f"{rep['packets']['created']} packets delivered.")


# ----------------------------------------------------------------------------- collectives (compare)


def all_words_ok(reps):
    runs = [r for rep in reps for r in rep["runs"]]
    bad = [r for r in runs if r.get("data_check") != "PASS" or not r.get("ok")]
    backends = sorted({r["config"]["backend"] for r in runs})
    if bad:
        say(f"{len(bad)} of {len(runs)} firmware runs did NOT pass the data check (e.g. "
            f"{bad[0]['config']['algorithm']}, {bad[0]['config']['ports']}-port: {bad[0].get('data_error')}).")
    else:
        say(f"All {len(runs)} collective runs as node firmware (backend {', '.join(backends)}) delivered every "
            f"word correctly (data check PASS).")


def takeaway_mesh_exchange(rep):
    s = summary(rep)
    topo = rep["runs"][0]["config"]["topology"]
    b = next((k[2] for k in s if k[0] == "direct-alltoall"), None)
    if b is None or ("direct-alltoall", "one", b) not in s or ("direct-alltoall", "all", b) not in s:
        return say(f"{topo}: no one-port / all-port pair of direct-alltoall to compare.")
    one, all_ = s[("direct-alltoall", "one", b)], s[("direct-alltoall", "all", b)]
    sp = one["mean_cycles"] / all_["mean_cycles"]
    sw1, swa = one["mean_delay"]["stepwise"], all_["mean_delay"]["stepwise"]
    how = "as fast with all ports as" if abs(sp - 1) < SAME else f"{ratio_words(sp)} with all ports than"
    text = (f"On the {pretty(topo)} the direct all-to-all ({b} B blocks) is {how} with one "
            f"({all_['mean_cycles']:.0f} vs {one['mean_cycles']:.0f} cycles).")
    run1 = next(r for r in rep["runs"] if r["config"]["algorithm"] == "direct-alltoall"
                and str(r["config"]["ports"]) == "one")
    ch = bisection_channels(topo)
    if ch:
        n = nodes(topo)
        flits = run1["flits_injected"] / run1["messages"]
        floor = (n // 2) * (n // 2) * flits / ch
        text += (f" The exchange is bounded by the bisection: {(n // 2) ** 2} worms of {flits:.0f} flits must cross "
                 f"the {ch} channels of each direction, at least {floor:.0f} cycles for any port model (one flit "
                 f"per channel per cycle); one-port takes {one['mean_cycles'] / floor:.2f}x that, all-port "
                 f"{all_['mean_cycles'] / floor:.2f}x.")
    if sp < 1 - SAME and swa > sw1:
        text += (f" The extra worms per node entering the already loaded bisection add wormhole blocking: "
                 f"stepwise contention {swa / max(sw1, 1):.1f}x one-port's ({swa:.0f} vs {sw1:.0f} delay "
                 f"cycles, summed over the messages).")
    elif sp > 1 + SAME:
        text += f" Stepwise contention: {swa:.0f} vs one-port's {sw1:.0f} delay cycles (summed over the messages)."
    same = sorted({a for (a, p, bb) in s if a != "direct-alltoall" and bb == b and (a, "one", b) in s
                   and (a, "all", b) in s and s[(a, "one", b)]["mean_cycles"] == s[(a, "all", b)]["mean_cycles"]})
    if same:
        verb = "takes" if len(same) == 1 else "take"
        text += f" {' and '.join(same)} {verb} exactly the same cycles with one and all ports."
    say(text)


def takeaway_cube(rep, mesh_topo):
    s = summary(rep)
    topo = rep["runs"][0]["config"]["topology"]
    b = next((k[2] for k in s if k[0] == "direct-alltoall"), None)
    if b is None or ("direct-alltoall", "one", b) not in s:
        return say(f"{topo}: no one-port direct-alltoall to compare with.")
    base = s[("direct-alltoall", "one", b)]["mean_cycles"]
    others = [(p, base / s[("direct-alltoall", p, b)]["mean_cycles"]) for (a, p, bb) in s
              if a == "direct-alltoall" and bb == b and p != "one"]
    ch, mch = bisection_channels(topo), bisection_channels(mesh_topo) if mesh_topo else None
    bis = (f", whose bisection grows with the node count ({ch} channels each way for {nodes(topo)} nodes; the "
           f"{pretty(mesh_topo)} has {mch})" if ch and mch else "")
    gains = ", ".join(f"{p}-port {ratio_words(r)}" for p, r in others)
    cube = f"On the {nodes(topo)}-node hypercube{bis}"
    if others and all(r > 1 + SAME for _, r in others):
        text = f"{cube}, the extra ports pay for the exchange ({b} B blocks): {gains} than one-port."
    elif others and all(r < 1 - SAME for _, r in others):
        text = f"{cube}, the extra ports do not pay for the exchange ({b} B blocks): {gains} than one-port."
    else:
        text = f"{cube}, the exchange ({b} B blocks) against one-port: {gains}."
    rd = [s[k]["mean_cycles"] for k in s if k[0] == "rd-broadcast"]
    if rd and len(set(rd)) == 1:
        text += (f" rd-broadcast, one send per node and step, takes {rd[0]:.0f} cycles under every port model.")
    elif rd:
        cyc = ", ".join(f"{k[1]}-port {v['mean_cycles']:.0f}" for k, v in s.items() if k[0] == "rd-broadcast")
        text += f" rd-broadcast: {cyc} cycles."
    say(text)


def takeaway_edn(rep):
    s = summary(rep)
    sizes = sorted({k[2] for k in s})
    ports = list(dict.fromkeys(k[1] for k in s))
    kp = next((p for p in ports if p not in ("one", "all")), None) or next((p for p in ports if p != "one"), None)
    nsrc = max(v["sources"] for v in s.values())
    big, small = sizes[-1], sizes[0]

    def mx(alg, p, b):
        return s[(alg, p, b)]["latency_us"]["mean_maximum"]

    need = [(a, p, b) for a in ("edn-broadcast", "rd-broadcast") for p in (kp, "one") for b in (big, small)]
    if kp is None or any(k not in s for k in need):
        return say("The EDN comparison lacks an edn-broadcast / rd-broadcast pair at one port and k ports.")
    avg = f"mean over {nsrc} sources" if nsrc > 1 else "one source"
    e, r = mx("edn-broadcast", kp, big), mx("rd-broadcast", kp, big)
    edn_runs = [x for x in rep["runs"] if x["config"]["algorithm"] == "edn-broadcast"
                and str(x["config"]["ports"]) == kp and x["config"]["bytes"] == big]
    steps = sorted({len(x["steps"]) for x in edn_runs})
    free = all(v == 0 for v in s[("edn-broadcast", kp, big)]["mean_delay"].values())
    how = (f"in {'/'.join(map(str, steps))} {'contention-free ' if free else ''}steps" if steps else "")
    if e < r * (1 - SAME):
        text = (f"EDN needs its {kp} ports: with them it broadcasts {big} B {how}, its maximum latency {r / e:.2f}x "
                f"below recursive doubling's ({e:.0f} vs {r:.0f} us, {avg}).")
    else:
        text = (f"With {kp} ports EDN does not beat recursive doubling at {big} B: its maximum latency is "
                f"{e:.0f} vs RD's {r:.0f} us ({avg}; {how}).")
    e1, r1 = mx("edn-broadcast", "one", big), mx("rd-broadcast", "one", big)

    def port_wait(p):  # cycles messages waited for a free injection channel, summed per run, mean over runs
        runs = [x for x in rep["runs"] if x["config"]["algorithm"] == "edn-broadcast"
                and str(x["config"]["ports"]) == p and x["config"]["bytes"] == big]
        return mean([x["contention"]["port_wait"] for x in runs])

    if r1 < e1 * (1 - SAME):
        text += f" With one port RD wins ({r1:.0f} vs EDN's {e1:.0f} us, EDN {e1 / r1:.2f}x slower)"
        w1, wk = port_wait("one"), port_wait(kp)
        if e1 > e and w1 > wk:
            text += (f": EDN's several sends per step queue for the single injection channel (messages wait "
                     f"{w1:.0f} cycles for it per run, summed, vs {wk:.0f} with {kp} ports; EDN's {kp}-port run "
                     f"is {e1 / e:.2f}x faster)")
        text += "."
    else:
        text += f" With one port EDN still wins ({e1:.0f} vs RD's {r1:.0f} us)."
    prof = rep["runs"][0]["config"]["profile"]
    fixed = prof["alpha"] + prof["gamma"]
    flits = -(-small // prof["bytes_per_flit"]) + 1  # payload flits and the head
    small_words = []
    for p in dict.fromkeys((kp, "one")):
        es, rs = mx("edn-broadcast", p, small), mx("rd-broadcast", p, small)
        who = "RD wins" if rs < es * (1 - SAME) else "EDN wins" if es < rs * (1 - SAME) else "a tie"
        small_words.append((p, who, es, rs))
    if len({w for _, w, _, _ in small_words}) == 1:
        who = small_words[0][1]
        nums = "; ".join(f"{p}-port {es:.0f} vs {rs:.0f} us" for p, _, es, rs in small_words)
        text += f" At {small} B {who} with either port model (EDN vs RD: {nums})"
        if who == "RD wins" and fixed > flits:
            text += (f": each message's fixed cost (alpha + gamma = {fixed} cycles, profile {prof['name']}) "
                     f"outweighs its {flits} flits on the wire, so EDN's fewer steps save little against the "
                     f"start-ups of its several sends per step")
        text += "."
    else:
        text += f" At {small} B: " + "; ".join(f"{p}-port {who} (EDN {es:.0f} vs RD {rs:.0f} us)"
                                              for p, who, es, rs in small_words) + "."
    say(text)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    d = sys.argv[1]
    uniform, hotspot = load(d, "uniform.json"), load(d, "hotspot.json")
    lockstep = load(d, "lockstep.json")
    cube, mesh, edn = load(d, "cube.json"), load(d, "mesh.json"), load(d, "edn.json")
    takeaway_uniform(uniform)
    takeaway_hotspot(hotspot)
    takeaway_lockstep(lockstep)
    all_words_ok([cube, mesh, edn])
    takeaway_mesh_exchange(mesh)
    takeaway_cube(cube, mesh["runs"][0]["config"]["topology"])
    takeaway_edn(edn)

    # The plot: plot_sweep's traffic figure reads the quick sweep's --json report as it is.
    lines = load_points(os.path.join(d, "uniform.json"))
    print()
    print(f"plot: {plot_traffic(lines, d, 'png')}")


if __name__ == "__main__":
    main()
