// Numbers are what the user typed, in decimal: hex integers, hex floats, words
// for infinities, trailing letters, signs and fractions where an integer belongs are refused in
// one line naming the option; leading zeros are decimal (cli_numbers_test.cpp).
#include "bad_input_table.h"

namespace {

const BadInput kCases[] = {
    {"NumHexSeed", "traffic --seed 0x10", "--seed", "allowed: an integer 0.."},
    {"NumHexCycles", "traffic --cycles 0x100", "--cycles", "allowed: an integer 1.."},
    {"NumExponentCycles", "traffic --cycles 1e3", "--cycles", "allowed: an integer 1.."},
    {"NumHexFloatRate", "traffic --rate 0x0.4p0", "--rate", "allowed: a number 0..4096"},
    {"NumHexRate", "traffic --rate 0x1", "--rate", "allowed: a number 0..4096"},
    {"NumInfinityRate", "traffic --rate infinity", "--rate", "allowed: a number 0..4096"},
    {"NumNanUpperRate", "traffic --rate NAN", "--rate", "allowed: a number 0..4096"},
    {"NumHexFraction", "traffic --pattern hotspot --hotspot-fraction 0x0.8p0", "--hotspot-fraction",
     "allowed: a number 0..1"},
    {"NumHexBytes", "run --bytes 0x100", "--bytes", "allowed: an integer 4.."},
    {"NumPlusBytes", "run --bytes +64", "--bytes", "allowed: an integer 4.."},
    {"NumHexBuf", "traffic --buf 0x8", "--buf", "allowed: an integer 1.."},
    {"NumHexClock", "run --clock-ns 0x1p0", "--clock-ns", "allowed: a number"},
    {"NumHexCopyCycles", "run --copy-cycles 0x1", "--copy-cycles", "allowed: a number 0..1000000"},
    {"NumMaxPacketBytesNotWords", "run --max-packet-bytes 6", "--max-packet-bytes",
     "allowed: 0 (no limit) or a multiple of 4"},
    {"NumMaxPacketBytesHex", "run --max-packet-bytes 0x10", "--max-packet-bytes", "allowed: an integer 0.."},
    {"NumSourcePlus", "run --source +5", "--source", "allowed: 0..15 or random"},
    {"NumSourceSpace", "run --source ' 5'", "--source", "allowed: 0..15 or random"},
    {"NumSourceHex", "run --source 0x5", "--source", "allowed: 0..15 or random"},
    {"NumGroupHex", "run --algorithm ring-allgather --group 0x1,2", "--group", "allowed: comma-separated node ids"},
    {"NumGroupPlus", "run --algorithm ring-allgather --group +1,2", "--group", "allowed: comma-separated node ids"},
    {"NumAvoidHex", "synth --avoid 0x5", "--avoid", "allowed: node ids 0..15"},
    {"NumAvoidTrailing", "synth --avoid 5x", "--avoid", "allowed: node ids 0..15"},
    {"NumAvoidFraction", "synth --avoid 3.9", "--avoid", "allowed: node ids 0..15"},
    {"NumAvoidNegative", "synth --avoid -1", "--avoid", "allowed: node ids 0..15"},
    {"NumAvoidBeyond", "synth --avoid 16", "--avoid", "allowed: node ids 0..15"},
    {"NumCompareBytesHex", "compare --bytes 32,0x20", "--bytes", "allowed: multiples of 4"},
    {"NumSourcesHex", "compare --sources 0x1,2", "--sources", "allowed: node ids"},
    {"NumFamilyOptionHex", "run --algorithm ft-broadcast --packets 0x3", "--packets", "allowed: "},
    {"NumFamilyOptionPlus", "run --algorithm ft-broadcast --packets +3", "--packets", "allowed: "},
    {"NumSynthSourceHex", "synth --source 0x1", "--source", "allowed: an integer 0.."},
    {"NumMemWordsHex", "run --mem-words-per-cycle 0x10", "--mem-words-per-cycle",
     "allowed: a decimal number 0.001..1000000, or all"},
    {"NumMemWordsZero", "run --mem-words-per-cycle 0", "--mem-words-per-cycle",
     "allowed: a decimal number 0.001..1000000, or all"},
    {"NumMemWordsTooFine", "run --mem-words-per-cycle 0.0001", "--mem-words-per-cycle",
     "allowed: a decimal number 0.001..1000000, or all"},
    {"NumMemWordsNan", "compare --mem-words-per-cycle 1,nan", "--mem-words-per-cycle",
     "allowed: a decimal number 0.001..1000000, or all"},
    {"MemWordsListInRun", "run --mem-words-per-cycle 1,2", "--mem-words-per-cycle", "allowed: one (compare takes"},
    {"MemWordsListInTune", "tune --mem-words-per-cycle 1,2", "--mem-words-per-cycle", "allowed: one (compare takes"},
    {"MemWordsNotReadByExport", "export --out /tmp/x.json --mem-words-per-cycle 2", "--mem-words-per-cycle",
     "allowed: with run, compare or check --simulate"},
    {"NumSynthTimeoutHex", "synth --timeout 0x10", "--timeout", "allowed: a number"},
    {"NumVcsWord", "traffic --vcs two", "--vcs", "allowed: an integer 1.."},
    // --tolerance: a relative change, decimal (checked before the spec or the baseline is read).
    {"NumToleranceHex", "sweep s.yaml --baseline b.jsonl --tolerance 0x1", "--tolerance", "allowed: a number 0..1000"},
    {"NumToleranceNegative", "sweep s.yaml --baseline b.jsonl --tolerance -1", "--tolerance",
     "allowed: a number 0..1000"},
    {"NumToleranceNan", "sweep s.yaml --baseline b.jsonl --tolerance nan", "--tolerance", "allowed: a number 0..1000"},
    {"NumToleranceHexFloat", "compare --baseline b.json --tolerance 0x0.1p0", "--tolerance",
     "allowed: a number 0..1000"},
    {"NumToleranceInfinity", "compare --baseline b.json --tolerance inf", "--tolerance", "allowed: a number 0..1000"},
    {"NumToleranceNegativeCompare", "compare --baseline b.json --tolerance -0.5", "--tolerance",
     "allowed: a number 0..1000"},
};

}  // namespace

WN_BAD_INPUT_TABLE(Numbers, kCases);
