"""The command matrix of validate_reports.py: small wormnet commands that together write every report
kind and every option that changes a report's shape, with the hand-written inputs they read."""
WRITTEN = "schedule#/definitions/written_by_wormnet"  # export and synth --out files

PORT_OVERUSE = {  # rank 0 sends twice in one step on a one-port network: check names the node-step
    "schema": "wormnet.schedule/1", "name": "two-sends", "ranks": 4, "memory_words": 4,
    "x-note": "keys starting with x- are the user's, at every level",
    "programs": [
        {"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 2]]}, {"dst": 2, "src": [[0, 2]]}]}]},
        {"rank": 1, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 2]], "x-why": "first"}]}]},
        {"rank": 2, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 2]]}]}]},
    ],
}
WRONG_EXPECTED = {  # a file whose `expected` words no run delivers: delivery problem, data check FAIL
    "schema": "wormnet.schedule/1", "name": "wrong-expect", "ranks": 2, "memory_words": 2,
    "initial": [{"rank": 0, "offset": 0, "words": [7, 8]}],
    "expected": [{"rank": 1, "offset": 0, "words": [9, 9]}],
    "programs": [
        {"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 2]]}]}]},
        {"rank": 1, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 2]]}]}]},
    ],
}


def matrix(plugin):
    """(name, argv after the binary, [(kind, file)], allowed exit codes), in the order they run."""
    m4 = ["--topology", "mesh:4x4"]
    c = []

    def case(name, argv, outs, rc=(0,)):
        c.append((name, argv, outs, rc))

    # traffic: model, RTL and lock-step; every topology kind; patterns; a source queue limit
    # (packets.refused); a deadlock (deadlock_report, exit 1)
    case("traffic-model", ["traffic", *m4, "--rate", "0.1", "--cycles", "2000", "--json", "t1.json"],
         [("traffic", "t1.json")])
    case("traffic-rtl", ["traffic", *m4, "--pattern", "transpose", "--backend", "rtl", "--cycles", "500",
                         "--json", "t2.json"], [("traffic", "t2.json")])
    case("traffic-lockstep", ["traffic", "--topology", "cube:4", "--pattern", "bitcomp", "--backend", "lockstep",
                              "--packet-flits", "2", "--cycles", "300", "--json", "t3.json"], [("traffic", "t3.json")])
    case("traffic-queue-limit", ["traffic", "--topology", "torus:4x4", "--ports", "all", "--pattern", "hotspot",
                                 "--rate", "0.3", "--cycles", "1000", "--source-queue-limit", "4",
                                 "--json", "t4.json"], [("traffic", "t4.json")])
    case("traffic-3d", ["traffic", "--topology", "mesh:2x2x2", "--pattern", "neighbor", "--cycles", "300",
                        "--json", "t5.json"], [("traffic", "t5.json")])
    case("traffic-deadlock", ["traffic", "--topology", "torus:4x4", "--no-dateline", "--rate", "1.0",
                              "--cycles", "2000", "--json", "t6.json"], [("traffic", "t6.json")], rc=(1,))

    # schedule files: export (a rooted reduction's claim, a claim without root or op, none at all,
    # family options in meta) and synth --out (broadcast; reduce; hop-minimised with avoided nodes)
    case("export-reduce", ["export", *m4, "--algorithm", "binomial-reduce", "--bytes", "32", "--source", "3",
                           "--out", "e1.json"], [(WRITTEN, "e1.json")])
    case("export-allgather", ["export", *m4, "--algorithm", "ring-allgather", "--bytes", "16", "--out", "e2.json"],
         [(WRITTEN, "e2.json")])
    case("export-no-claim", ["export", "--topology", "cube:4", "--algorithm", "hc-dcycles", "--bytes", "32",
                             "--out", "e3.json"], [(WRITTEN, "e3.json")])
    case("export-family-option", ["export", *m4, "--algorithm", "ccl-combine", "--ccl-alg", "butterfly", "--op",
                                  "max", "--bytes", "16", "--out", "e4.json"], [(WRITTEN, "e4.json")])
    synth = ["--no-cache", "--timeout", "10"]
    case("synth-broadcast", ["synth", "--topology", "mesh:2x2", "--ports", "one", *synth, "--out", "y1.json"],
         [(WRITTEN, "y1.json")])
    case("synth-reduce", ["synth", "--topology", "mesh:3x3", "--collective", "reduce", "--op", "max", "--ports",
                          "all", "--bytes", "16", *synth, "--out", "y2.json"], [(WRITTEN, "y2.json")])
    case("synth-min-hops", ["synth", "--topology", "cube:3", "--min-hops", "--max-hops", "2", "--avoid", "7",
                            *synth, "--out", "y3.json"], [(WRITTEN, "y3.json")])
    case("synth-cache-entry", ["synth", "--topology", "mesh:2x2", "--collective", "reduce", "--timeout", "10"],
         [("schedule#/definitions/synth_cache", "synth-cache/*.json")])

    # run: three backends; ports all, barrier sync, synchronous sends, split packets (latency_from);
    # a profile with the paper's formula (predicted.paper); a group; stopped at --max-cycles
    # (error, data FAIL, never-reached times); schedule files (config.schedule, oracle), one failing
    rd = ["--algorithm", "rd-broadcast", "--bytes", "64"]
    case("run-model", ["run", *m4, *rd, "--json", "r1.json"], [("run", "r1.json")])
    case("run-rtl", ["run", *m4, *rd, "--backend", "rtl", "--json", "r2.json"], [("run", "r2.json")])
    case("run-lockstep", ["run", *m4, *rd, "--backend", "lockstep", "--json", "r3.json"], [("run", "r3.json")])
    case("run-barrier-split", ["run", *m4, "--algorithm", "direct-alltoall", "--ports", "all", "--bytes", "64",
                               "--sync", "barrier", "--barrier-cycles", "5", "--sends", "synchronous",
                               "--max-packet-bytes", "16", "--json", "r4.json"], [("run", "r4.json")])
    case("run-paper", ["run", *m4, "--algorithm", "edn-broadcast", "--ports", "all", "--bytes", "64", "--profile",
                       "t3d", "--json", "r5.json"], [("run", "r5.json")])
    case("run-group", ["run", "--topology", "torus:4x4", "--algorithm", "ccl-combine", "--ccl-alg", "butterfly",
                       "--group", "0,1,2,3", "--op", "max", "--bytes", "16", "--json", "r6.json"], [("run", "r6.json")])
    case("run-stopped", ["run", *m4, "--algorithm", "rd-broadcast", "--bytes", "4096", "--max-cycles", "50",
                         "--json", "r7.json"], [("run", "r7.json")], rc=(1,))
    case("run-schedule", ["run", *m4, "--schedule", "e1.json", "--json", "r8.json"], [("run", "r8.json")])
    # conform: the shipped router on one small network (every pattern, three port models)
    case("conform", ["conform", "--topologies", "mesh:4x4", "--cycles", "200", "--json", "cf1.json"],
         [("conform", "cf1.json")])
    # firmware of your own: a plugin (config.firmware, no prediction), and one run without a check
    case("run-firmware", ["run", *m4, "--ports", "all", "--firmware", plugin, "--json", "r11.json"],
         [("run", "r11.json")])
    case("run-firmware-unchecked", ["run", *m4, "--firmware", plugin + ":unchecked", "--json", "r12.json"],
         [("run", "r12.json")])
    case("run-schedule-reference", ["run", "--topology", "cube:4", "--schedule", "e3.json", "--json", "r9.json"],
         [("run", "r9.json")])
    case("run-synth-file", ["run", "--topology", "mesh:3x3", "--ports", "all", "--schedule", "y2.json",
                            "--json", "r10.json"], [("run", "r10.json")])
    case("run-data-fail", ["run", "--topology", "mesh:2x2", "--schedule", "wrong_expect.json", "--json",
                           "r11.json"], [("run", "r11.json")], rc=(1,))

    # check: static (conflicts), --simulate on model and RTL, a schedule file, port overuse and
    # delivery problems (exit 1); --deadlock acyclic, with a cycle (exit 1), one VC on a mesh
    a2a = ["--algorithm", "direct-alltoall", "--bytes", "32"]
    case("check-static", ["check", *m4, *a2a, "--json", "k1.json"], [("check", "k1.json")])
    case("check-simulate", ["check", *m4, *a2a, "--simulate", "--json", "k2.json"],
         [("check#/definitions/simulated_report", "k2.json")])
    case("check-simulate-rtl-file", ["check", *m4, "--schedule", "e1.json", "--simulate", "--backend", "rtl",
                                     "--json", "k3.json"], [("check#/definitions/simulated_report", "k3.json")])
    case("check-port-overuse", ["check", "--topology", "mesh:2x2", "--schedule", "port_overuse.json",
                                "--json", "k4.json"], [("check", "k4.json")], rc=(1,))
    case("check-delivery", ["check", "--topology", "mesh:2x2", "--schedule", "wrong_expect.json",
                            "--json", "k5.json"], [("check", "k5.json")], rc=(1,))
    case("check-deadlock-acyclic", ["check", "--deadlock", "--topology", "torus:4x4", "--json", "d1.json"],
         [("deadlock", "d1.json")])
    case("check-deadlock-cycle", ["check", "--deadlock", "--topology", "torus:4x4", "--no-dateline",
                                  "--json", "d2.json"], [("deadlock", "d2.json")], rc=(1,))
    case("check-deadlock-mesh", ["check", "--deadlock", "--topology", "mesh:4x4", "--vcs", "1",
                                 "--json", "d3.json"], [("deadlock", "d3.json")])

    # compare: one point per algorithm; port models x sizes x --sources (grouped rows); a family
    # option list (options, variant labels); built-ins beside schedule files (schedule); files
    # alone; --cost (area_nand2, yosys on the smallest router, cached in WORKDIR)
    case("compare-point", ["compare", *m4, "--algorithm", "rd-broadcast,direct-alltoall", "--bytes", "32",
                           "--json", "c1.json"], [("compare", "c1.json")])
    case("compare-groups", ["compare", *m4, "--algorithm", "rd-broadcast,binomial-scatter", "--ports", "one,all",
                            "--bytes", "32,64", "--sources", "0,5", "-j", "2", "--json", "c2.json"],
         [("compare", "c2.json")])
    case("compare-option-list", ["compare", "--topology", "cube:4", "--algorithm", "bruck-index", "--radix", "2,4",
                                 "--bytes", "32", "--json", "c3.json"], [("compare", "c3.json")])
    case("compare-memory-port", ["compare", "--topology", "cube:3", "--algorithm", "hc-dcycles", "--ports", "all",
                                 "--bytes", "32,64", "--mem-words-per-cycle", "1,all", "--json", "cm.json"],
         [("compare", "cm.json")])
    case("run-memory-port", ["run", "--topology", "cube:3", "--ports", "all", "--algorithm", "hc-dcycles",
                             "--bytes", "32", "--mem-words-per-cycle", "1.5", "--json", "rm.json", "--csv", "rm"],
         [("run", "rm.json")])
    # cm200: a multi-port exchange rate and a reorder cost in config.profile; moved indices.
    case("run-cm200", ["run", "--topology", "cube:3", "--ports", "all", "--algorithm", "hc-dcycles", "--indices",
                       "moved", "--bytes", "64", "--profile", "cm200", "--json", "rc.json"], [("run", "rc.json")])
    case("compare-files", ["compare", *m4, "--algorithm", "binomial-reduce", "--schedule", "e1.json,e2.json",
                           "--bytes", "32", "--source", "3", "--json", "c4.json"], [("compare", "c4.json")])
    case("compare-files-only", ["compare", *m4, "--schedule", "e1.json,e2.json", "--ports", "one",
                                "--json", "c5.json"], [("compare", "c5.json")])
    # tau: a live selection with --around (fits, thesis predictions, crossovers, regions); and a saved
    # compare report under a packet law (no prediction), with series of two port models
    case("tau-live", ["tau", *m4, "--algorithm", "rd-broadcast,edn-broadcast", "--ports", "3", "--bytes",
                      "32,64,128", "--around", "edn-broadcast", "--json", "t1.json"], [("tau", "t1.json")])
    case("tau-from", ["tau", "--from", "c2.json", "--law", "packets:16", "--metric", "avg-latency", "--json",
                      "t2.json"], [("tau", "t2.json")])
    case("cost", ["cost", "--topology", "cube:1", "--ports", "one", "--vcs", "1", "--buf", "2", "--json", "x1.json"],
         [("cost", "x1.json")])
    # tune: every candidate of an all-reduce at two sizes (the table, the margins, the analytic pick)
    case("tune", ["tune", *m4, "--bytes", "8,4096", "--profile", "sp1", "--out", "tune.jsonl", "--json", "tu.json"],
         [("tuning", "tu.json")])
    # compare over two networks with nccl-tests' columns (rows carry topology and bandwidth)
    case("compare-topologies", ["compare", "--topology", "mesh:4x4,cube:4", "--algorithm", "allreduce,allgather",
                                "--bytes", "64", "--json", "c7.json"], [("compare", "c7.json")])
    case("compare-cost", ["compare", "--topology", "cube:1", "--algorithm", "rd-broadcast", "--ports", "one",
                          "--vcs", "1", "--buf", "2", "--bytes", "16", "--cost", "--json", "c6.json"],
         [("compare", "c6.json")])

    # sweeps: the rate table (wormnet.sweep/1); specs of each command (run with sources, check with
    # and without simulate, traffic, schedule files with a failing point); --merge; --emit
    case("sweep-rates", ["sweep", *m4, "--ports", "one,all", "--rates", "0.1,0.3", "--cycles", "500", "--warmup",
                         "100", "--json", "s0.json"], [("sweep", "s0.json")])
    for name in ("run", "check", "traffic"):
        case(f"sweep-spec-{name}", ["sweep", f"spec_{name}.yaml", "-j", "2", "--out", f"s_{name}.jsonl"],
             [("sweep-point", f"s_{name}.jsonl")])
    case("sweep-spec-files", ["sweep", "spec_files.yaml", "-j", "2", "--out", "s_files.jsonl"],
         [("sweep-point", "s_files.jsonl")], rc=(1,))
    case("sweep-merge", ["sweep", "--merge", "s_run.jsonl", "s_files.jsonl", "--out", "s_merged.jsonl"],
         [("sweep-point", "s_merged.jsonl")], rc=(1,))
    case("sweep-merge-spec", ["sweep", "spec_check.yaml", "--merge", "s_check.jsonl", "--out", "s_merged2.jsonl"],
         [("sweep-point", "s_merged2.jsonl")])
    case("sweep-emit-parallel", ["sweep", "spec_run.yaml", "--emit", "parallel", "emit_p"],
         [("sweep-manifest", "emit_p/manifest.json")])
    case("sweep-emit-slurm", ["sweep", "spec_traffic.yaml", "--emit", "slurm", "emit_s", "--throttle", "3"],
         [("sweep-manifest", "emit_s/manifest.json")])
    return c


SPECS = {
    "spec_run.yaml": "command: run\ntopology: mesh:4x4\nalgorithm: [rd-broadcast, binomial-reduce]\n"
                     "ports: [one, all]\nbytes: 32\nsources: [0, 5]\n",
    "spec_check.yaml": "command: check\ntopology: [mesh:4x4, cube:4]\nalgorithm: direct-alltoall\nbytes: 32\n"
                       "simulate: [false, true]\n",
    "spec_traffic.yaml": "command: traffic\ntopology: mesh:4x4\nports: [one, all]\nrate: [0.1, 0.3]\n"
                         "pattern: [uniform, tornado]\ncycles: 300\nwarmup: 50\n",
    "spec_files.yaml": "command: run\ntopology: mesh:4x4\nschedule: [e1.json, wrong_expect.json]\n",
}
