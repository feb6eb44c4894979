// Every bad input a reviewer tried (issue 13), as a table: exactly one line on
// stderr, naming the field and the allowed values, exit code 2, and no
// simulation started (nothing of a report on stdout).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct BadInput {
  const char* name;
  const char* args;
  const char* field;    // the error names this field...
  const char* allowed;  // ...and says what is allowed
};

std::ostream& operator<<(std::ostream& os, const BadInput& b) { return os << b.args; }

const BadInput kCases[] = {
    {"NegativeCycles", "traffic --cycles -5", "--cycles", "allowed: an integer 1.."},
    {"NegativeWarmup", "traffic --warmup -1", "--warmup", "allowed: an integer 0.."},
    {"HugeCycles", "traffic --cycles 18446744073709551615", "--cycles", "allowed: an integer 1..1000000000000"},
    {"NegativeSeed", "traffic --seed -1", "--seed", "allowed: an integer 0..18446744073709551615"},
    {"NegativeWatchdog", "traffic --watchdog -1", "--watchdog", "allowed: an integer 0.."},
    {"NegativeMaxCycles", "run --max-cycles -1", "--max-cycles", "allowed: an integer 1.."},
    {"ZeroMaxCycles", "run --max-cycles 0", "--max-cycles", "allowed: an integer 1.."},
    {"NanCopyCycles", "run --copy-cycles nan", "--copy-cycles", "allowed: a number 0..1000000"},
    {"InfCopyCycles", "run --copy-cycles inf", "--copy-cycles", "allowed: a number 0..1000000"},
    {"NanCombineCycles", "run --combine-cycles nan", "--combine-cycles", "allowed: a number 0..1000000"},
    {"InfIndexCycles", "run --index-cycles inf", "--index-cycles", "allowed: a number 0..1000000"},
    {"NegativeCombineCyclesNamesItself", "run --combine-cycles -1", "--combine-cycles", "allowed: a number 0.."},
    {"InfClock", "run --clock-ns inf", "--clock-ns", "allowed: a number"},
    {"GroupTrailingLetters", "run --group 3abc,4", "--group", "allowed: comma-separated node ids"},
    {"GroupFraction", "run --group 3.9,4", "--group", "allowed: comma-separated node ids"},
    {"TopologyTrailingX", "traffic --topology mesh:4x4x", "--topology", "allowed: mesh:AxB"},
    {"SyncWord", "run --sync maybe", "--sync", "allowed: free, barrier"},
    {"BarrierCyclesWithoutBarrier", "run --barrier-cycles 5", "--barrier-cycles", "allowed: only with --sync barrier"},
    {"NegativeBarrierCycles", "run --sync barrier --barrier-cycles -1", "--barrier-cycles", "allowed: an integer 0.."},
    {"CompareSourcesOutside", "compare --topology mesh:4x4 --sources 16", "--sources", "allowed: node ids 0..15"},
    {"TornadoOnTwoByTwo", "traffic --topology mesh:2x2 --pattern tornado", "--pattern", "k >= 3"},
    {"OpCopyNotListed", "run --algorithm binomial-reduce --op copy", "--op", "allowed: sum, max, min, affine"},
    {"EmptyBenchTopologies", "bench --topologies ''", "--topologies", "allowed: one or more"},
    {"CyclesExponent", "traffic --cycles 1e12", "--cycles", "allowed: an integer"},
    {"SeedWord", "traffic --seed abc", "--seed", "allowed: an integer"},
    {"BytesExponent", "run --bytes 1e15", "--bytes", "allowed: an integer 4..67108864"},
    {"BytesNotWholeWords", "run --bytes 50", "--bytes", "a multiple of 4"},
    {"UnknownFlag", "traffic --frobnicate 3", "--frobnicate", "allowed: the options `wormnet traffic --help` lists"},
    {"UnknownSubcommand", "frobnicate", "frobnicate", "allowed subcommands: traffic"},
    {"JsonNotWritable", "run --json /proc/x.json", "--json", "allowed: a path in a writable folder"},
    {"CsvNotWritable", "run --csv /nonexistent-dir/x", "--csv", "allowed: a path in a writable folder"},
    {"ScheduleTooBig", "check --topology cube:11 --algorithm direct-alltoall --bytes 4", "--topology",
     "a third of this machine's RAM"},
    {"FamilyOptionNotRead", "run --algorithm rd-broadcast --order gray", "--order", "allowed for rd-broadcast"},
    {"FamilyOptionBadWord", "run --topology cube:3 --algorithm hc-single --order spiral", "--order",
     "allowed: binary, gray"},
    {"FamilyOptionBadNumber", "run --topology cube:3 --algorithm hc-dcycles-reduce --elements -3", "--elements",
     "allowed: an integer 0..4294967295"},
    {"BruckRadixTooSmall", "run --algorithm bruck-index --radix 1", "--radix", "allowed: auto or an integer 2..4096"},
    {"BruckRadixAboveRanks", "run --algorithm bruck-index --radix 9 --group 0,1,2,3,4,5,6,7", "--radix",
     "allowed: auto or an integer 2..8"},
    {"BruckRadixWord", "run --algorithm bruck-index --radix best", "--radix", "allowed: auto or an integer"},
    {"BruckConcatNoRadix", "run --algorithm bruck-concat --radix 2", "--radix", "allowed for bruck-concat"},
    {"CclAlgOfAnotherOp", "run --algorithm ccl-bcast --ccl-alg butterfly", "--ccl-alg", "allowed: binomial, nesbt"},
    {"CclButterflyNotPow2", "run --topology mesh:3x3 --algorithm ccl-combine --ccl-alg butterfly", "--ccl-alg",
     "allowed: circulant (commutative operators), reduce-bcast"},
    {"CclCirculantNonCommutative", "run --topology mesh:3x3 --algorithm ccl-combine --ccl-alg circulant --op affine",
     "--op", "allowed: butterfly (n = 2^d), reduce-bcast, hybrid"},
    {"CclKappaTooBig", "run --topology cube:3 --algorithm ccl-combine --ccl-alg hybrid --kappa 4", "--kappa",
     "allowed: 0..3"},
    {"CclPacketNotWords", "run --topology cube:3 --algorithm ccl-bcast --ccl-alg nesbt --packet 6", "--packet",
     "allowed: whole 32-bit words"},
    {"CclPartitionRowsOnCube", "run --topology cube:3 --algorithm ccl-sync --partition row", "--partition",
     "allowed: even-odd"},
    {"CclPartitionWithGroup", "run --algorithm ccl-sync --partition row --group 1,2,3", "--partition",
     "allowed: one of --group and --partition"},
    {"SynthCollective", "synth --collective scatter", "--collective", "allowed: broadcast, reduce"},
    {"SynthAvoidRoot", "synth --topology mesh:4x4 --avoid 0", "--avoid", "allowed: nodes other than the root"},
    {"SynthFanoutAbovePorts", "synth --topology mesh:4x4 --ports 2 --fanout 3", "--fanout", "allowed: 1..2"},
    {"SynthStepsAboveNodes", "synth --topology mesh:2x2 --steps 9", "--steps", "allowed: 1..3"},
    {"SynthScheduleWithAlgorithm", "run --algorithm synth-broadcast --schedule /nonexistent.json", "--schedule",
     "allowed: --schedule FILE without --algorithm"},
    {"ScheduleWithAlgorithm", "run --algorithm rd-broadcast --schedule /nonexistent.json", "--algorithm",
     "allowed: one of them"},
    {"ScheduleMissing", "run --schedule /nonexistent.json", "/nonexistent.json", "allowed: a wormnet.schedule/1 JSON file"},
    {"ScheduleIsDirectory", "check --schedule /tmp", "/tmp", "allowed: a wormnet.schedule/1 JSON file"},
    {"ScheduleWithBytes", "run --schedule /nonexistent.json --bytes 8", "--bytes", "allowed: no --bytes with --schedule"},
    {"ScheduleWithFamilyOption", "run --schedule /nonexistent.json --order gray", "--order",
     "allowed: no --order with --schedule"},
    {"CompareScheduleMissing", "compare --schedule /nonexistent.json", "/nonexistent.json",
     "allowed: a wormnet.schedule/1 JSON file"},
    {"ExportNoOut", "export --algorithm rd-broadcast", "--out", "allowed"},
    {"ExportBackendRefused", "export --algorithm rd-broadcast --out /tmp/x.json --backend rtl", "--backend", "allowed"},
    {"SynthOpWithBroadcast", "synth --op max --out /tmp/x.json", "--op", "allowed: --op with --collective reduce"},
    {"SynthReduceNonCommutative", "run --algorithm synth-reduce --op affine", "--op", "allowed: sum, max, min"},
    {"CostBufNotPowerOfTwo", "cost --buf 5", "--buf", "allowed: 2, 4, 8, 16"},
    {"CostTorusOneVc", "cost --topology torus:4x4 --vcs 1", "--vcs", "allowed: 2, 4"},
    {"CostVcsWord", "cost --vcs two", "--vcs", "allowed: integers"},
    {"CompareCostBuf", "compare --cost --buf 3", "--buf", "allowed: 2, 4, 8, 16"},
    {"DeadlockNoDatelineOnMesh", "check --deadlock --topology mesh:4x4 --no-dateline", "--no-dateline",
     "allowed: a torus"},
    {"NoDatelineWithoutDeadlock", "check --topology torus:4x4 --no-dateline", "--no-dateline",
     "allowed: check --deadlock --no-dateline"},
    {"HypercubeOnMesh", "run --topology mesh:4x4 --algorithm hc-single", "--topology", "allowed: cube:1..cube:12"},
    {"GroupOnHypercube", "run --topology cube:3 --algorithm hc-single --group 1,2", "--group", "allowed: no --group"},
    {"HotspotFractionNan", "traffic --pattern hotspot --hotspot-fraction nan", "--hotspot-fraction",
     "allowed: a number 0..1"},
    {"RatesNegative", "sweep --rates 0.1,-0.2", "--rates", "allowed: a number 0..4096"},
    {"RatesEmptyItem", "sweep --rates 0.1,,0.2", "--rates", "allowed: a comma-separated list"},
    {"RepeatZero", "bench --repeat 0", "--repeat", "allowed: an integer 1..100"},
    {"FtPacketsZero", "run --algorithm ft-broadcast --packets 0", "--packets", "allowed: an integer 1.."},
    {"FtPacketsAboveWords", "run --algorithm ft-broadcast --bytes 16 --packets 5", "--packets", "allowed: 1..4"},
};

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, OneLineNamingFieldAndAllowedExitTwo) {
  const BadInput& c = GetParam();
  const std::string dir = std::string(WN_BINARY_DIR) + "/cli_bad_input";
  std::system(("mkdir -p " + dir).c_str());
  const std::string out = dir + "/" + c.name + ".out", err = dir + "/" + c.name + ".err";
  // No SYSTEMC_DISABLE_COPYRIGHT_MESSAGE here: the program must keep SystemC quiet itself.
  const std::string cmd = "env -u SYSTEMC_DISABLE_COPYRIGHT_MESSAGE " + std::string(WN_BINARY_DIR) + "/wormnet " +
                          c.args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2) << c.args;
  std::ifstream ef(err), of(out);
  std::stringstream es, os;
  es << ef.rdbuf();
  os << of.rdbuf();
  const std::string e = es.str(), o = os.str();
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << "stderr:\n" << e;
  EXPECT_EQ(e.rfind("error: ", 0), 0u) << e;
  EXPECT_NE(e.find(c.field), std::string::npos) << e;
  EXPECT_NE(e.find(c.allowed), std::string::npos) << e;
  // Nothing ran: no report lines on stdout (at most the seed line).
  EXPECT_EQ(o.find("cycles"), std::string::npos) << "stdout:\n" << o;
}

INSTANTIATE_TEST_SUITE_P(Issue13, BadInputTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadInput>& i) { return std::string(i.param.name); });

}  // namespace
