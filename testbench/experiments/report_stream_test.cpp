// Streamed reports (experiments/json_stream.h, stream_report): a run's JSON and CSV are written
// element by element and row by row, and must be the bytes the whole document and the whole
// string give, through the same atomic temporary file that refuses what is not a regular file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "experiments/collective_run.h"
#include "experiments/json_stream.h"
#include "experiments/report_file.h"
#include "testbench/app/cli_helpers.h"

namespace wn {
namespace {

namespace fs = std::filesystem;

using test::slurp;

std::string scratch(const std::string& name) { return test::fresh_dir("report_stream_test", name); }

// What write_json_report writes for the whole document.
std::string old_way(const nlohmann::json& j) { return with_identity(j).dump(2) + "\n"; }

// Files in `dir` other than `keep` (a temporary file left behind).
size_t others_in(const std::string& dir, const std::string& keep) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename() != keep;
  return n;
}

// A contended all-to-all with two injection channels: every list non-empty, blockers named,
// and the JSON over 1 MiB (the writer's chunk), so buffered and direct writes both happen.
fw::ScheduleRunResult small_run() {
  fw::ScheduleRunOptions o;
  o.algorithm = "direct-alltoall";
  o.topology = "mesh:6x6";
  o.ports = "2";
  o.bytes = 64;
  fw::ScheduleRunResult r = fw::run_schedule(o);
  EXPECT_TRUE(r.ok()) << r.run.error << r.data_error;
  return r;
}

TEST(ReportStream, RunJsonIsTheWholeDocumentByteForByte) {
  const fw::ScheduleRunResult r = small_run();
  const std::string d = scratch("run_json");
  stream_json_report(d + "/r.json", r.to_json_streamed());
  const std::string want = old_way(r.to_json(true));
  const std::string got = slurp(d + "/r.json");
  ASSERT_GT(want.size(), size_t(1) << 20);
  EXPECT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want) << "first difference at byte "
                           << std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin();
  const nlohmann::json j = nlohmann::json::parse(got);
  EXPECT_EQ(j["message_log"].size(), r.run.log.messages.size());
  EXPECT_EQ(j["node_steps"].size(), 36u);
  EXPECT_FALSE(j["channels"][0]["blockers"].empty() && j["channels"][1]["blockers"].empty());
  EXPECT_EQ(others_in(d, "r.json"), 0u);
}

TEST(ReportStream, RunCsvIsTheWholeStringByteForByte) {
  const fw::ScheduleRunResult r = small_run();
  const std::string d = scratch("run_csv");
  stream_report(
      d + "/m.csv", [&r](ReportOut& out) { r.messages_csv([&out](std::string_view s) { out.write(s); }); }, "--csv");
  stream_report(
      d + "/c.csv", [&r](ReportOut& out) { r.channels_csv([&out](std::string_view s) { out.write(s); }); }, "--csv");
  const std::string messages = r.messages_csv(), channels = r.channels_csv();
  EXPECT_EQ(slurp(d + "/m.csv"), messages);
  EXPECT_EQ(slurp(d + "/c.csv"), channels);
  // A header and one row per message / per output that carried or was waited for.
  EXPECT_EQ(size_t(std::count(messages.begin(), messages.end(), '\n')), r.run.log.messages.size() + 1);
  EXPECT_EQ(size_t(std::count(channels.begin(), channels.end(), '\n')), r.run.channels.size() + 1);
}

// The writer on its own: list keys among the head's (sorted as nlohmann sorts them), empty lists,
// nested values, escapes, and elements written across the chunk boundary.
TEST(ReportStream, ShapesAreWhatDumpWrites) {
  StreamedJson s;
  s.head = {{"a", 1},
            {"c", {{"x", nlohmann::json::array()}, {"y", {1, {{"z", "two\nlines \"quoted\" \u00e9"}}}}}},
            {"e", nlohmann::json::object()},
            {"B", nullptr}};
  s.lists.emplace_back("b", [](const StreamedJson::Emit& emit) {
    for (int i = 0; i < 40000; ++i) emit({{"i", i}, {"v", {i, {{"w", nlohmann::json::array({i, 0.5})}}}}});
  });
  s.lists.emplace_back("d", [](const StreamedJson::Emit&) {});
  s.lists.emplace_back("zz\t", [](const StreamedJson::Emit& emit) {
    emit(nlohmann::json::array());
    emit(nlohmann::json::array({nlohmann::json::array({1, 2}), "s"}));
    emit(3);
  });
  const std::string d = scratch("shapes");
  stream_json_report(d + "/s.json", s);
  const std::string want = old_way(s.whole());
  ASSERT_GT(want.size(), size_t(2) << 20);
  EXPECT_TRUE(slurp(d + "/s.json") == want);
  // Only lists: the head gets its identity and nothing else.
  StreamedJson only;
  only.lists.emplace_back("l", [](const StreamedJson::Emit& emit) { emit(1); });
  only.head = nlohmann::json::object();
  stream_json_report(d + "/o.json", only);
  EXPECT_EQ(slurp(d + "/o.json"), old_way(only.whole()));
}

TEST(ReportStream, NonRegularPathsAreRefusedNamingTheField) {
  const std::string d = scratch("refused");
  StreamedJson s;
  s.head = {{"schema", "x/1"}};
  s.lists.emplace_back("l", [](const StreamedJson::Emit& emit) { emit(1); });
  ASSERT_EQ(::mkfifo((d + "/fifo").c_str(), 0600), 0);
  fs::create_directory(d + "/dir");
  std::ofstream(d + "/target") << "kept\n";
  fs::create_symlink(d + "/target", d + "/link");
  for (const std::string& p : {d + "/fifo", d + "/dir", d + "/link", std::string("/dev/null")}) {
    try {
      stream_json_report(p, s);
      ADD_FAILURE() << p << " was written";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.field(), "json") << e.what();
      EXPECT_NE(std::string(e.what()).find("allowed: a regular file or a new path"), std::string::npos) << e.what();
    }
    try {
      stream_report(
          p, [](ReportOut& out) { out.write("x\n"); }, "--csv");
      ADD_FAILURE() << p << " was written";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.field(), "--csv") << e.what();
    }
  }
  EXPECT_TRUE(fs::is_fifo(d + "/fifo"));
  EXPECT_TRUE(fs::is_symlink(d + "/link"));
  EXPECT_EQ(slurp(d + "/target"), "kept\n");
  EXPECT_EQ(others_in(d, ""), 4u);  // fifo, dir, target, link: no temporary file left
}

// A producer that fails half-way (after more than a chunk went to the temporary file) leaves the
// report as it was and no temporary file.
TEST(ReportStream, AFailedProducerLeavesTheOldReport) {
  const std::string d = scratch("failed");
  std::ofstream(d + "/r.csv") << "old\n";
  EXPECT_THROW(stream_report(
                   d + "/r.csv",
                   [](ReportOut& out) {
                     for (int i = 0; i < 200000; ++i) out.write("a row of a report that is never finished\n");
                     throw std::runtime_error("stopped");
                   },
                   "--csv"),
               std::runtime_error);
  EXPECT_EQ(slurp(d + "/r.csv"), "old\n");
  EXPECT_EQ(others_in(d, "r.csv"), 0u);
}

}  // namespace
}  // namespace wn
