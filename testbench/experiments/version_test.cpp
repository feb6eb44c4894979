// Identity of a build: the version compiled in is the one CMakeLists.txt's project() declares (and
// CITATION.cff repeats), the git revision is this checkout's, and every JSON report, sweep line
// and `wormnet --version` carry them.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "experiments/report_file.h"
#include "experiments/sweep_results.h"
#include "systemc/core/version.h"
#include "testbench/app/cli_helpers.h"

namespace wn {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The first capture of `re` in the file, "" when it does not match.
std::string find_in(const std::string& path, const std::string& re) {
  std::smatch m;
  const std::string text = slurp(path);
  return std::regex_search(text, m, std::regex(re)) ? m[1].str() : "";
}

std::string scratch(const std::string& name) {
  const std::string d = std::string(WN_BINARY_DIR) + "/version_test/" + name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Output of a shell command, trailing newline dropped; "" when it fails.
std::string shell(const std::string& cmd) {
  FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  if (!p) return "";
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof buf, p)) out += buf;
  if (pclose(p) != 0) return "";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

TEST(Version, IsTheCMakeProjectVersion) {
  const std::string declared = find_in(std::string(WN_SOURCE_DIR) + "/CMakeLists.txt",
                                       R"(project\(wormnet\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+))");
  ASSERT_FALSE(declared.empty()) << "no `project(wormnet VERSION x.y.z` in CMakeLists.txt";
  EXPECT_EQ(version(), declared);
  const nlohmann::json j = version_json();
  EXPECT_EQ(j, (nlohmann::json{{"version", version()}, {"git", git_revision()}}));
}

TEST(Version, CitationFileAgrees) {
  EXPECT_EQ(find_in(std::string(WN_SOURCE_DIR) + "/CITATION.cff", R"re(\nversion:\s*"?([0-9][0-9.]*)"?)re"), version());
}

// The build looks the revision up on every build: it is a commit of this checkout, HEAD's right
// after `cmake --build` (a commit made since, without a rebuild, is an ancestor's: still valid).
TEST(Version, GitRevisionIsACommitOfTheCheckout) {
  const std::string head = shell("git -C '" + std::string(WN_SOURCE_DIR) + "' rev-parse HEAD");
  if (head.empty()) {
    EXPECT_STREQ(git_revision(), "unknown");
    GTEST_SKIP() << "not a git checkout";
  }
  std::string rev = git_revision();
  if (rev.size() > 6 && rev.compare(rev.size() - 6, 6, "-dirty") == 0) rev.resize(rev.size() - 6);
  const size_t g = rev.rfind("-g");  // after a tag: <tag>-<n>-g<hash>
  const std::string hash = g == std::string::npos ? rev : rev.substr(g + 2);
  EXPECT_GE(hash.size(), 12u) << git_revision();
  const std::string full =
      shell("git -C '" + std::string(WN_SOURCE_DIR) + "' rev-parse --verify --quiet '" + hash + "^{commit}'");
  EXPECT_EQ(full.compare(0, hash.size(), hash), 0) << git_revision() << " is not a commit of this checkout";
  const std::string base =
      shell("git -C '" + std::string(WN_SOURCE_DIR) + "' merge-base --is-ancestor " + hash + " HEAD && echo ancestor");
  EXPECT_EQ(base.rfind("ancestor", 0), 0u) << git_revision() << " is not HEAD " << head << " or one of its ancestors";
}

TEST(Version, JsonReportsCarryTheIdentity) {
  const std::string d = scratch("report");
  write_json_report(d + "/a.json", {{"schema", "x/1"}, {"cycles", 7}});
  const nlohmann::json a = nlohmann::json::parse(slurp(d + "/a.json"));
  EXPECT_EQ(a["wormnet"], version_json());
  EXPECT_EQ(a["cycles"], 7);
  // Same content, same bytes: the identity is fixed for a build, nothing of the moment goes in.
  write_json_report(d + "/b.json", {{"schema", "x/1"}, {"cycles", 7}});
  EXPECT_EQ(slurp(d + "/a.json"), slurp(d + "/b.json"));
  // As golden.sh finds it: its own lines at 2-space indent, "git" first (keys are sorted).
  EXPECT_NE(slurp(d + "/a.json").find(std::string("  \"wormnet\": {\n    \"git\": \"") + git_revision() + "\",\n"),
            std::string::npos);
  // A report that names its build already keeps it; a non-object gets nothing.
  write_json_report(d + "/c.json", {{"wormnet", "kept"}});
  EXPECT_EQ(nlohmann::json::parse(slurp(d + "/c.json"))["wormnet"], "kept");
  write_json_report(d + "/d.json", nlohmann::json::array({1, 2}));
  EXPECT_EQ(slurp(d + "/d.json"), "[\n  1,\n  2\n]\n");
}

TEST(Version, SweepLinesCarryTheIdentity) {
  const std::string d = scratch("sweep");
  {
    ResultsAppender out(d + "/r.jsonl");
    out.append({{"key", "p0"}, {"ok", true}});
  }
  const auto lines = read_result_lines(d + "/r.jsonl");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["wormnet"], version_json());
}

TEST(Version, CliPrintsIt) {
  const test::CliRun r = test::wormnet("--version");
  EXPECT_EQ(r.code, 0) << r.out;
  // The revision is the binary's own: after a commit, building only this test leaves it behind.
  const std::string head = std::string("wormnet ") + version() + " (git ";
  ASSERT_EQ(r.out.rfind(head, 0), 0u) << r.out;
  EXPECT_TRUE(std::regex_match(r.out.substr(head.size()), std::regex(R"re([0-9A-Za-z._/-]+\)\n)re"))) << r.out;
}

}  // namespace
}  // namespace wn
