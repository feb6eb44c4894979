// The schedule-file reader (wormnet.schedule/1), its oracles and the ideal execution, without a
// simulator: what a file means, word for word. The CLI's errors are in testbench/schedule_files.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "algorithms/dataflow_run.h"
#include "algorithms/schedule_file.h"
#include "algorithms/schedule_oracle.h"
#include "systemc/core/config_error.h"

namespace {

using namespace wn::alg;

std::string file(const std::string& collective, const std::string& programs, int ranks = 2, int words = 4) {
  return R"({"schema": "wormnet.schedule/1", "name": "t", "ranks": )" + std::to_string(ranks) +
         R"(, "memory_words": )" + std::to_string(words) +
         (collective.empty() ? "" : ", \"collective\": " + collective) + R"(, "programs": )" + programs + "}";
}

// The message of a refused file: "FILE: PATH: ...".
std::string error_of(const std::string& text) {
  try {
    parse_schedule_file(text, "f.json");
  } catch (const wn::ConfigError& e) {
    return e.what();
  }
  return "";
}

const char* kSwap = R"([{"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 2]]}],
                                            "recvs": [{"src": 1, "dst": [[2, 2]]}]}]},
                       {"rank": 1, "steps": [{"step": 0, "sends": [{"dst": 0, "src": [[0, 2]]}],
                                            "recvs": [{"src": 0, "dst": [[2, 2]]}]}]}])";

TEST(ScheduleFile, ReadsStepsSendsReceivesAndDefaults) {
  const ScheduleFile f = parse_schedule_file(file("", kSwap), "f.json");
  EXPECT_EQ(f.name, "t");
  EXPECT_EQ(f.ranks, 2);
  EXPECT_EQ(f.steps, 1u);
  EXPECT_EQ(f.messages, 2u);
  ASSERT_EQ(f.programs[1].size(), 1u);
  const Step& st = f.programs[1][0];
  EXPECT_EQ(st.sends[0].tag, 0u);      // tag defaults to the step number
  EXPECT_EQ(st.sends[0].channel, -1);  // any channel
  EXPECT_EQ(st.recvs[0].combine.op, kCopy);
  EXPECT_EQ(st.recvs[0].dst[0].offset, 2u);
  EXPECT_EQ(f.program_paths[1], "programs[1]");
}

TEST(ScheduleFile, ErrorsNameFileAndJsonPath) {
  EXPECT_EQ(error_of(file("", R"([{"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[3, 2]]}]}]}])"))
                .rfind("f.json: programs[0].steps[0].sends[0].src[0]: [3, 2] ends at word 5, past memory_words 4", 0),
            0u);
  EXPECT_NE(error_of(file("", R"([{"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 2]]}]}]}])"))
                .find("programs[0].steps[0].sends[0]: rank 0 sends to rank 1 with tag 0, and rank 1 has no receive"),
            std::string::npos);
  EXPECT_NE(error_of("{\"schema\": ").find("f.json: (top level): not valid JSON: syntax error at line 1"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(100, '[')).find("nested more than 32 deep"), std::string::npos);
  EXPECT_NE(error_of(file(R"({"kind": "reduce", "words": 4})", kSwap)).find("collective: missing key 'root'"),
            std::string::npos);
}

// A step's receives see the messages of its own and earlier steps (barriers, the checker and the
// per-step reports assume it); a receive in an earlier step than its send is refused.
TEST(ScheduleFile, ReceiveBeforeItsSendsStepIsRefused) {
  const char* p = R"([{"rank": 0, "steps": [{"step": 0, "recvs": [{"src": 1, "tag": 1, "dst": [[0, 1]]}]}]},
                      {"rank": 1, "steps": [{"step": 1, "sends": [{"dst": 0, "src": [[0, 1]]}]}]}])";
  const std::string e = error_of(file("", p));
  EXPECT_EQ(e.rfind("f.json: programs[0].steps[0].recvs[0]: receives in step 0 the message rank 1 sends in step 1 "
                    "(programs[1].steps[0].sends[0])",
                    0),
            0u)
      << e;
}

// Sends of a step before its receives: a rank may receive in step 1 what its partner sends in step 1
// while both also wait on each other's step-0 messages (the ideal execution completes).
TEST(ScheduleFile, CrossingMessagesOfOneStepComplete) {
  const ScheduleFile f = parse_schedule_file(file("", kSwap), "f.json");
  const auto mem = dataflow_memory(f.programs, f.memory_words, [](int r, uint32_t a) { return Word(r * 100 + a); });
  EXPECT_EQ(mem[0][2], 100u);
  EXPECT_EQ(mem[1][3], 1u);
}

// Control characters and NULs in a file's strings never split or cut the one error line.
TEST(ScheduleFile, ErrorIsOneLineWhateverTheBytes) {
  const std::string text = file("", "[]").replace(file("", "[]").find("\"t\""), 3, "\"a\\nb\\u0000c\"");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("'a\\x0ab\\x00c' is not a name"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  EXPECT_EQ(e.find('\0'), std::string::npos);
}

TEST(ScheduleFile, DuplicateKeysAndHugeNumbersAreRefused) {
  EXPECT_NE(error_of(R"({"schema": "wormnet.schedule/1", "schema": "x"})").find("the key 'schema' twice"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"ranks": 1e400})").find("a number too large for 64 bits"), std::string::npos);
  EXPECT_NE(error_of(file("", "[]", 2, 4).replace(file("", "[]", 2, 4).find("\"ranks\": 2"), 10, "\"ranks\": -0"))
                .find("ranks: 0 is out of range"),
            std::string::npos);
}

// Distinct over every word of a machine (a keyed bijection), and the seed changes every word.
TEST(ScheduleOracle, PatternWordsAreDistinctAndSeeded) {
  std::set<Word> seen;
  for (int r = 0; r < 64; ++r)
    for (uint32_t a = 0; a < 256; ++a) EXPECT_TRUE(seen.insert(pattern_word(1, r, a, 256)).second);
  int same = 0;
  for (uint32_t a = 0; a < 256; ++a) same += pattern_word(1, 3, a, 256) == pattern_word(2, 3, a, 256);
  EXPECT_EQ(same, 0);
}

// Each claim's oracle against the ideal execution of a schedule that does (or does not) compute it.
TEST(ScheduleOracle, AllreduceSumClaimHoldsForExchangeAndAdd) {
  const char* p = R"([{"rank": 0, "steps": [{"step": 0, "sends": [{"dst": 1, "src": [[0, 2]]}],
                                            "recvs": [{"src": 1, "dst": [[0, 2]], "op": "sum"}]}]},
                      {"rank": 1, "steps": [{"step": 0, "sends": [{"dst": 0, "src": [[0, 2]]}],
                                            "recvs": [{"src": 0, "dst": [[0, 2]], "op": "sum"}]}]}])";
  const ScheduleFile f = parse_schedule_file(file(R"({"kind": "allreduce", "words": 2, "op": "sum"})", p), "f.json");
  const FileOracle o = file_oracle(f, 7);
  const auto mem = dataflow_memory(f.programs, f.memory_words, o.initial);
  for (int r = 0; r < 2; ++r)
    for (uint32_t a = 0; a < 2; ++a) {
      ASSERT_TRUE(o.expected(r, a).has_value());
      EXPECT_EQ(*o.expected(r, a), o.initial(0, a) + o.initial(1, a));
      EXPECT_EQ(mem[size_t(r)][a], *o.expected(r, a));
    }
  EXPECT_FALSE(o.expected(0, 3).has_value());  // scratch: not checked
  // Rank 1 forgetting to add: the oracle (not the execution) is what rank 1 must end with.
  EXPECT_NE(o.expected(1, 0), o.initial(0, 0));
}

TEST(ScheduleOracle, AlltoallLayoutIsTheTables) {
  const ScheduleFile f = parse_schedule_file(file(R"({"kind": "alltoall", "words": 1})", kSwap, 2, 4), "f.json");
  const FileOracle o = file_oracle(f, 1);
  // rank q word n*w + j*w + i = block j -> q = rank j's word q*w + i
  EXPECT_EQ(*o.expected(0, 2), o.initial(0, 0));
  EXPECT_EQ(*o.expected(0, 3), o.initial(1, 0));
  EXPECT_EQ(*o.expected(1, 2), o.initial(0, 1));
  EXPECT_EQ(*o.expected(1, 3), o.initial(1, 1));
  EXPECT_FALSE(o.expected(0, 0).has_value());
}

TEST(ScheduleOracle, WithoutClaimTheIdealExecutionAndExplicitWords) {
  const ScheduleFile f = parse_schedule_file(file("", kSwap), "f.json");
  const FileOracle o = file_oracle(f, 1);
  EXPECT_EQ(o.description, "reference execution (no collective declared)");
  EXPECT_EQ(*o.expected(0, 2), o.initial(1, 0));  // rank 1's words arrived at rank 0's [2, 4)
  EXPECT_EQ(*o.expected(0, 0), o.initial(0, 0));  // untouched words stay
  const std::string text = file("", kSwap).substr(0, file("", kSwap).size() - 1) +
                           R"(, "initial": [{"rank": 1, "offset": 0, "words": [5, 6]}],
                                "expected": [{"rank": 0, "offset": 2, "words": [5, 6]}]})";
  const FileOracle e = file_oracle(parse_schedule_file(text, "f.json"), 1);
  EXPECT_EQ(e.initial(1, 1), 6u);
  EXPECT_EQ(*e.expected(0, 3), 6u);
  EXPECT_FALSE(e.expected(0, 0).has_value());  // only the words the file names
}

TEST(ScheduleFile, WrittenTextReadsBackTheSame) {
  const ScheduleFile f = parse_schedule_file(file(R"({"kind": "allgather", "words": 2})", kSwap), "f.json");
  const ScheduleFile g = parse_schedule_file(schedule_file_text(f), "g.json");
  EXPECT_EQ(schedule_file_text(g), schedule_file_text(f));
  EXPECT_EQ(g.messages, f.messages);
  ASSERT_TRUE(g.collective.has_value());
  EXPECT_EQ(g.collective->kind, CollectiveKind::Allgather);
}

}  // namespace
