// The progress line (app/progress.h): on stderr when asked for (or on a terminal), after the
// first two seconds, and never in the report: the JSON of a run with it equals the one without.
#include <gtest/gtest.h>

#include <string>

#include "testbench/app/cli_helpers.h"

namespace wn {
namespace {

using test::fresh_dir;
using test::slurp;
using test::wormnet;

// ~3 s of the model: past the line's two quiet seconds on any machine this suite runs on.
const std::string kLong = "traffic --topology mesh:8x8 --rate 0.2 --cycles 600000 --warmup 0";

TEST(CliProgress, ShownWhenAskedNeverInTheReport) {
  const std::string d = fresh_dir("progress", "traffic");
  const auto with = wormnet(kLong + " --progress --json " + d + "/with.json");
  ASSERT_EQ(with.code, 0) << with.out;
  EXPECT_NE(with.out.find("\r\033[Kcycle "), std::string::npos) << with.out;
  EXPECT_NE(with.out.find(" cycles/s, "), std::string::npos);
  EXPECT_NE(with.out.find(" to cycle 600000"), std::string::npos);  // the window's end
  // The last thing drawn clears the line (stdout and stderr interleave in the capture).
  const size_t last = with.out.rfind("\r\033[K");
  EXPECT_NE(with.out.compare(last, 9, "\r\033[Kcycle"), 0) << "the line is left standing";
  const auto without = wormnet(kLong + " --json " + d + "/without.json");  // stderr is a pipe here
  ASSERT_EQ(without.code, 0);
  EXPECT_EQ(without.out.find("\033[K"), std::string::npos) << without.out;
  EXPECT_EQ(slurp(d + "/with.json"), slurp(d + "/without.json"));
}

TEST(CliProgress, OnAndOffExcludeEachOther) {
  const auto r = wormnet("run --progress --no-progress --topology mesh:4x4");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--progress"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace wn
