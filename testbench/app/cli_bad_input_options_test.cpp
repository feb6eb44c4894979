// Every option either changes the result or is refused: given where the
// command, the algorithm or the configuration does not read it, it is one line naming the option
// and who reads it, exit 2, before anything runs.
#include "bad_input_table.h"

namespace {

const BadInput kCases[] = {
    // A schedule built but not simulated (check without --simulate, export) reads the profile only
    // where the model chooses its shape (ccl auto, bruck-index --radix auto), never its timing.
    {"OptCheckStaticAlpha", "check --topology mesh:4x4 --algorithm rd-broadcast --alpha 3", "--alpha",
     "does not depend on the machine profile"},
    {"OptCheckStaticProfile", "check --topology mesh:4x4 --algorithm direct-alltoall --profile t3d", "--profile",
     "does not depend on the machine profile"},
    {"OptCheckStaticClockOnTuned", "check --topology mesh:4x4 --algorithm ccl-bcast --clock-ns 3", "--clock-ns",
     "only a simulation's timing reads it"},
    {"OptCheckStaticCopyCycles", "check --topology cube:3 --algorithm bruck-index --copy-cycles 9", "--copy-cycles",
     "with run, compare or check --simulate"},
    {"OptCheckStaticVcs", "check --topology mesh:4x4 --algorithm rd-broadcast --vcs 4", "--vcs",
     "with check --simulate"},
    {"OptCheckStaticBuf", "check --topology mesh:4x4 --algorithm rd-broadcast --buf 3", "--buf",
     "with check --simulate"},
    {"OptExportProfile", "export --topology mesh:4x4 --algorithm rd-broadcast --profile t3d --out /tmp/wn_opt_x.json",
     "--profile", "not read by export"},
    {"OptExportMaxPacketBytes",
     "export --topology mesh:4x4 --algorithm ccl-bcast --max-packet-bytes 64 --out /tmp/wn_opt_x.json",
     "--max-packet-bytes", "only a simulation's timing reads it"},
    // Only the CCL operations that combine read an operator.
    {"OptOpCclBcast", "run --topology cube:3 --algorithm ccl-bcast --op max", "--op", "not read by ccl-bcast"},
    {"OptOpCclIndexCompare", "compare --topology cube:3 --algorithm ccl-index,ccl-concat --op max", "--op",
     "not read by ccl-index, ccl-concat"},
    // Barrier mode exists only for the rooted and ordered CCL operations.
    {"OptNonbarrierCombine", "run --topology cube:3 --algorithm ccl-combine --nonbarrier", "--nonbarrier",
     "ccl-combine does not read it"},
    {"OptNonbarrierIndex", "run --topology cube:3 --algorithm ccl-index --nonbarrier", "--nonbarrier",
     "ccl-index does not read it"},
    {"OptHotspotNodeWithoutHotspot", "traffic --hotspot-node 3", "--hotspot-node", "with --pattern hotspot"},
    {"OptHotspotFractionWithoutHotspot", "traffic --pattern uniform --hotspot-fraction 0.5", "--hotspot-fraction",
     "with --pattern hotspot"},
    {"OptNoDatelineOnMesh", "traffic --topology mesh:4x4 --no-dateline", "--no-dateline", "on a torus"},
    {"OptNoDatelineOnCube", "traffic --topology cube:3 --no-dateline", "--no-dateline", "on a torus"},
    {"OptTraceOnModel", "traffic --topology mesh:2x2 --trace x.fst", "--trace", "with --backend rtl or lockstep"},
    {"OptRunTraceOnModel", "run --topology mesh:2x2 --trace x.fst", "--trace", "with --backend rtl or lockstep"},
    {"OptKappaWithoutHybrid", "run --topology cube:3 --algorithm ccl-combine --kappa 1", "--kappa", "--ccl-alg hybrid"},
    {"OptKappaWithButterfly", "run --topology cube:3 --algorithm ccl-combine --ccl-alg butterfly --kappa 1", "--kappa",
     "--ccl-alg hybrid"},
    {"OptPacketWithoutNesbt", "run --topology cube:3 --algorithm ccl-bcast --packet 64", "--packet", "--ccl-alg nesbt"},
    {"OptCompareKappaNoHybrid",
     "compare --topology cube:3 --algorithm ccl-combine --ccl-alg butterfly,reduce-bcast "
     "--kappa 1,2",
     "--kappa", "--ccl-alg hybrid"},
    {"OptSynthSourceWithAllSources", "synth --topology mesh:2x2 --source 1 --all-sources", "--source",
     "one of --source and --all-sources"},
    {"OptDeadlockWithSimulate", "check --deadlock --simulate", "--simulate", "not read by check --deadlock"},
    {"OptDeadlockWithAlgorithm", "check --deadlock --algorithm rd-broadcast", "--algorithm",
     "not read by check --deadlock"},
    {"OptDeadlockWithBytes", "check --deadlock --bytes 64", "--bytes", "not read by check --deadlock"},
    {"OptDeadlockWithPorts", "check --deadlock --ports all", "--ports", "not read by check --deadlock"},
    {"OptDeadlockWithSeed", "check --deadlock --seed 3", "--seed", "not read by check --deadlock"},
    {"OptCheckCsv", "check --csv x", "--csv", "check writes no CSV"},
    {"OptCheckCsvSimulated", "check --simulate --csv x", "--csv", "check writes no CSV"},
    {"OptCheckTraceStatic", "check --trace x.fst", "--trace", "with check --simulate"},
    {"OptCheckBackendStatic", "check --backend rtl", "--backend", "with check --simulate"},
    {"OptCheckMaxCyclesStatic", "check --max-cycles 100", "--max-cycles", "with check --simulate"},
    {"OptCheckSyncStatic", "check --sync barrier", "--sync", "with check --simulate"},
    {"OptCheckExplainStatic", "check --explain-deadlock", "--explain-deadlock", "with check --simulate"},
    {"OptSourceNotRooted", "run --topology cube:3 --algorithm hc-single --source 5", "--source", "no --source"},
    {"OptSourceAlltoall", "run --algorithm direct-alltoall --source 3", "--source", "no --source"},
    {"OptOpNotReduction", "run --algorithm rd-broadcast --op max", "--op", "no --op"},
    {"OptCheckOpNotReduction", "check --algorithm direct-alltoall --op min", "--op", "no --op"},
    {"OptExportSourceNotRooted", "export --algorithm ring-allgather --source 2 --out /tmp/wn_unused.json", "--source",
     "no --source"},
    {"OptCompareSourcesNoneRooted", "compare --algorithm direct-alltoall,ring-allgather --sources 0,1", "--sources",
     "no --sources"},
    {"OptCompareOpNoneReduce", "compare --algorithm rd-broadcast,direct-alltoall --op max", "--op", "no --op"},
    {"OptSweepShardWithEmit", "sweep experiments/specs/ports_small.yaml --emit parallel /tmp/wn_unused --shard 0/2",
     "--shard", "not read by sweep --emit"},
    {"OptSweepThrottleParallel", "sweep experiments/specs/ports_small.yaml --emit parallel /tmp/wn_unused --throttle 2",
     "--throttle", "with --emit slurm"},
    {"OptSweepOutWithSummarize", "sweep --summarize x.jsonl --out y.jsonl", "--out", "not read by sweep --summarize"},
    {"OptSweepByWithSpec", "sweep experiments/specs/ports_small.yaml --by rate", "--by", "not read by sweep SPEC.yaml"},
    {"OptSweepChunksWithMerge", "sweep --merge a.jsonl --out b.jsonl --chunks 3", "--chunks",
     "not read by sweep --merge"},
    {"OptSweepSummarizeAndMerge", "sweep --summarize a.jsonl --merge b.jsonl", "--summarize", "one form at a time"},
    {"OptEmptyJson", "run --json ''", "--json", "allowed: a file name"},
    {"OptEmptyCsv", "run --csv ''", "--csv", "allowed: a file name"},
    {"OptEmptyTrafficJson", "traffic --json ''", "--json", "allowed: a file name"},
    {"OptEmptyExportOut", "export --algorithm rd-broadcast --out ''", "--out", "allowed: a file name"},
    {"OptEmptySchedule", "run --schedule ''", "--schedule", "allowed: a file name"},
};

}  // namespace

WN_BAD_INPUT_TABLE(Options, kCases);
