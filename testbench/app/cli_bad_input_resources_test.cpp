// Resources: every input that sizes memory or time is estimated and refused
// above the host limit before anything is built or simulated, in one line naming the option and
// the largest value allowed (testbench/app/bad_input_table.h). The sizes are far beyond a third of
// the RAM of any machine this runs on (the host limit, node_memory_limit_bytes: every case needs
// 128 GiB or more, i.e. is refused below 384 GiB of RAM): --elements 4294967295 on cube:3 is
// 128 GiB of node memory, synth on cube:12 about 200 GiB of encoding; bench's budget does not
// depend on the machine (--cycles 10^12 is about 22 years at the model's speed).
#include "bad_input_table.h"

namespace {

const BadInput kCases[] = {
    // --elements (hc-dcycles-reduce): M + N - 1 wrapped in 32 bits (SIGFPE in block_layout) and M x N
    // words of node memory grew until the OOM killer; now M x N x 4 bytes must fit the host limit.
    {"ResElementsUint32MaxCube3", "run --topology cube:3 --algorithm hc-dcycles-reduce --elements 4294967295",
     "--elements", "allowed: at most"},
    {"ResElementsUint32MaxCube7", "run --topology cube:7 --algorithm hc-dcycles-reduce --elements 4294967295",
     "--elements", "elements on cube:7 here"},
    {"ResElementsUint32MaxCube12", "run --topology cube:12 --algorithm hc-dcycles-reduce --elements 4294967295",
     "--elements", "a third of this machine's RAM"},
    {"ResElementsBillionCube6", "run --topology cube:6 --algorithm hc-dcycles-reduce --elements 1000000000",
     "--elements", "allowed: at most"},
    {"ResElementsGrayOrder", "run --topology cube:4 --algorithm hc-dcycles-reduce --order gray --elements 3000000000",
     "--elements", "allowed: at most"},
    {"ResElementsOnePort", "run --topology cube:5 --ports one --algorithm hc-dcycles-reduce --elements 2147483648",
     "--elements", "allowed: at most"},
    {"ResElementsNamedNotBytes", "run --topology cube:12 --algorithm hc-dcycles-reduce --elements 4294967295 --bytes 4",
     "--elements", "or 0"},
    {"ResElementsCheck", "check --topology cube:5 --algorithm hc-dcycles-reduce --elements 4294967295", "--elements",
     "allowed: at most"},
    {"ResElementsCheckSimulate",
     "check --simulate --topology cube:5 --algorithm hc-dcycles-reduce --elements 4000000000", "--elements",
     "allowed: at most"},
    {"ResElementsExport",
     "export --topology cube:5 --algorithm hc-dcycles-reduce --elements 4294967295 --out /tmp/wn_res_export.json",
     "--elements", "allowed: at most"},
    {"ResElementsCompare", "compare --topology cube:5 --algorithm hc-dcycles-reduce --elements 4294967295",
     "--elements", "allowed: at most"},
    {"ResElementsCompareList",
     "compare --topology cube:5 --algorithm hc-dcycles-reduce,hc-single-reduce --elements 4294967295", "--elements",
     "allowed: at most"},
    // torus-exchange: IN and OUT alone (2 N blocks a node) refused before the schedule is built.
    {"ResTorusExchangeBytes", "run --topology torus:64x64 --algorithm torus-t1 --bytes 1048576", "--bytes",
     "a third of this machine's RAM"},
    // synth: the routes and the encoding are estimated before anything is built (a cube:12
    // with all ports passed 2.5 GB and 30 s, --timeout 1 notwithstanding).
    {"ResSynthCube12AllPorts", "synth --topology cube:12 --ports all --timeout 1", "--topology",
     "a third of this machine's RAM"},
    {"ResSynthCube12OnePort", "synth --topology cube:12 --ports one --timeout 1", "--topology", "a smaller network"},
    {"ResSynthCube12Reduce", "synth --topology cube:12 --collective reduce --ports all", "--topology",
     "a smaller network"},
    {"ResSynthMesh64", "synth --topology mesh:64x64 --timeout 1", "--topology", "a third of this machine's RAM"},
    {"ResSynthMesh64AllSources", "synth --topology mesh:64x64 --all-sources --timeout 1", "--topology",
     "a smaller network"},
    {"ResSynthTorus64OnePort", "synth --topology torus:64x64 --ports one", "--topology", "a smaller network"},
    {"ResSynthMesh64WithSteps", "synth --topology mesh:64x64 --ports 3 --steps 7 --timeout 1", "--topology",
     "a smaller network"},
    {"ResSynthMesh64MaxHops", "synth --topology mesh:64x64 --ports 3 --max-hops 2 --timeout 1", "--topology",
     "a smaller network"},
    {"ResSynthMesh64MinHops", "synth --topology mesh:64x64 --ports 3 --min-hops --timeout 1", "--topology",
     "a smaller network"},
    {"ResSynthOutCube12", "synth --topology cube:12 --ports all --out /tmp/wn_res_synth.json", "--topology",
     "a smaller network"},
    {"ResSynthAlgorithmCube12", "run --topology cube:12 --ports all --algorithm synth-broadcast", "--topology",
     "a third of this machine's RAM"},
    {"ResSynthAlgorithmReduceMesh64", "check --topology mesh:64x64 --algorithm synth-reduce", "--topology",
     "a smaller network"},
    // Packet counts multiply a schedule's messages: nESBT's --packet and ft-broadcast's --packets are
    // named (they grew unbounded, or were refused naming --topology).
    {"ResCclBcastTinyPackets",
     "run --topology mesh:4x4 --algorithm ccl-bcast --ccl-alg nesbt --packet 4 --bytes 67108864", "--packet",
     "larger packets"},
    {"ResCclReduceTinyPackets",
     "check --topology cube:4 --algorithm ccl-reduce --ccl-alg nesbt --packet 4 --bytes 67108864", "--packet",
     "larger packets"},
    {"ResFtBroadcastManyPackets",
     "run --topology mesh:32x32 --algorithm ft-broadcast --packets 1000000 --bytes 4000000", "--packets",
     "fewer packets"},
    {"ResFtBroadcastManyPacketsCompare",
     "compare --topology mesh:32x32 --algorithm ft-broadcast,rd-broadcast --packets 1000000 --bytes 4000000",
     "--packets", "fewer packets"},
    // bench: its runs add up to a budget of router-cycles (about 20 minutes at the model's speed).
    {"ResBenchCyclesTrillion", "bench --cycles 1000000000000", "--cycles", "allowed: at most"},
    {"ResBenchRtlCyclesTrillion", "bench --rtl-cycles 1000000000000", "--rtl-cycles", "allowed: at most"},
    {"ResBenchLockstepCycles", "bench --backends lockstep --topologies mesh:8x8 --rtl-cycles 100000000", "--rtl-cycles",
     "allowed: at most 2604166"},
    {"ResBenchRepeatedBigMesh", "bench --topologies mesh:32x32 --backends model --cycles 10000000 --repeat 100",
     "--cycles", "allowed: at most 97656"},
    {"ResBenchManyTopologies", "bench --topologies cube:10,cube:10,cube:10 --backends model --cycles 5000000",
     "--cycles", "bench's budget"},
    {"ResBenchModelOnlyMesh4", "bench --topologies mesh:4x4 --backends model --cycles 1000000000 --repeat 1",
     "--cycles", "allowed: at most 625000000"},
    // traffic --source-queue-limit: packets per node's source queue (0: no limit).
    {"ResQueueLimitWord", "traffic --source-queue-limit many", "--source-queue-limit",
     "allowed: an integer 0..4294967295"},
    {"ResQueueLimitNegative", "traffic --source-queue-limit -1", "--source-queue-limit",
     "allowed: an integer 0..4294967295"},
    {"ResQueueLimitAboveMax", "traffic --source-queue-limit 4294967296", "--source-queue-limit",
     "allowed: an integer 0..4294967295"},
    {"ResQueueLimitFraction", "traffic --source-queue-limit 2.5", "--source-queue-limit",
     "allowed: an integer 0..4294967295"},
    {"ResQueueLimitExponent", "traffic --source-queue-limit 1e3", "--source-queue-limit",
     "allowed: an integer 0..4294967295"},
    {"ResQueueLimitEmpty", "traffic --source-queue-limit ''", "--source-queue-limit",
     "allowed: an integer 0..4294967295"},
};

}  // namespace

WN_BAD_INPUT_TABLE(Resources, kCases);
