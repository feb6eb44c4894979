// `wormnet tau`: the tau-model of Tsai's thesis (Ch 5) fitted to a live compare selection and to
// the same runs saved by compare --json (the same fits), to a sweep of run points, and bad input
// refused with exit 2 before anything runs.
#include <gtest/gtest.h>

#include <string>

#include "testbench/app/cli_helpers.h"

namespace {

using wn::test::CliRun;
using wn::test::expect_config_error;
using wn::test::fresh_dir;
using wn::test::read_json;
using wn::test::slurp;
using wn::test::wormnet;
using wn::test::write_file;

const std::string kSelection =
    "--topology mesh:8x8 --algorithm rd-broadcast,edn-broadcast --ports 3 --bytes 64,256,1024";

const nlohmann::json* fit_of(const nlohmann::json& report, const std::string& variant) {
  for (const auto& f : report["fits"])
    if (f["variant"] == variant) return &f;
  return nullptr;
}

TEST(CliTau, LiveRunAndSavedCompareGiveTheSameFit) {
  const std::string d = fresh_dir("cli_tau", "live");
  const CliRun cmp = wormnet("compare " + kSelection + " --json " + d + "/cmp.json");
  ASSERT_EQ(cmp.code, 0) << cmp.out;
  const CliRun live = wormnet("tau " + kSelection + " --around edn-broadcast --json " + d + "/live.json");
  ASSERT_EQ(live.code, 0) << live.out;
  const CliRun from = wormnet("tau --from " + d + "/cmp.json --around edn-broadcast --json " + d + "/from.json");
  ASSERT_EQ(from.code, 0) << from.out;
  EXPECT_NE(live.out.find("tau model"), std::string::npos) << live.out;
  EXPECT_NE(live.out.find("regions around edn-broadcast"), std::string::npos) << live.out;
  auto a = read_json(d + "/live.json"), b = read_json(d + "/from.json");
  EXPECT_EQ(a["schema"], "wormnet.tau/1");
  EXPECT_TRUE(a["wormnet"].contains("version") && a["wormnet"].contains("git")) << a["wormnet"];
  ASSERT_EQ(a["fits"].size(), 2u);
  for (auto* j : {&a, &b}) {
    (*j).erase("inputs");
    for (auto& f : (*j)["fits"]) f.erase("input");
  }
  EXPECT_EQ(a, b);  // the same points give the same numbers, to the last bit
  const auto* rd = fit_of(a, "rd-broadcast");
  const auto* edn = fit_of(a, "edn-broadcast");
  ASSERT_TRUE(rd && edn);
  for (const auto* f : {rd, edn}) {
    EXPECT_TRUE((*f)["ok"].get<bool>());
    EXPECT_EQ((*f)["points"].size(), 3u);
    EXPECT_GT((*f)["fit"]["r2"].get<double>(), 0.99) << *f;
    EXPECT_GT((*f)["fit"]["T_s_cycles"].get<double>(), 0) << *f;
    EXPECT_GT((*f)["fit"]["T_n_cycles"].get<double>(), 0) << *f;
    ASSERT_TRUE(f->contains("predicted")) << *f;  // Table 5.3 on a 2^n x 2^n mesh
  }
  // Per byte, RD carries the message 2n = 6 times and EDN n + 1 = 4 times one after the other
  // (Table 5.3, n = 3): RD's T_n is the larger, and neither is far from the thesis's.
  const double rd_tn = (*rd)["fit"]["T_n_cycles"], edn_tn = (*edn)["fit"]["T_n_cycles"];
  EXPECT_GT(rd_tn / edn_tn, 1.1);
  EXPECT_LT(rd_tn / edn_tn, 2.5);
  for (const auto* f : {rd, edn}) {
    const double ratio = (*f)["fit"]["T_n_cycles"].get<double>() / (*f)["predicted"]["T_n_cycles"].get<double>();
    EXPECT_GT(ratio, 0.5) << *f;
    EXPECT_LT(ratio, 2.0) << *f;
  }
  ASSERT_EQ(a["crossovers"].size(), 1u);
  ASSERT_EQ(a["regions"].size(), 1u);
  EXPECT_EQ(a["regions"][0]["point"], "rd-broadcast ports=3 mesh:8x8 ideal");
  // The same input, the same bytes.
  const CliRun again = wormnet("tau --from " + d + "/cmp.json --around edn-broadcast --json " + d + "/again.json");
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(slurp(d + "/from.json"), slurp(d + "/again.json"));
}

// A schedule file fixes its own size: one exported file per size, with the same name, compared
// one by one and joined by --from, fits like the built-in algorithm it was exported from.
TEST(CliTau, ScheduleFilesOfSeveralSizesFitLikeTheBuiltIn) {
  const std::string d = fresh_dir("cli_tau", "schedules");
  std::string from;
  for (const char* bytes : {"64", "256", "1024"}) {
    const std::string file = d + "/edn" + bytes + ".json", cmp = d + "/cmp" + bytes + ".json";
    const CliRun ex = wormnet("export --topology mesh:8x8 --ports 3 --algorithm edn-broadcast --bytes " +
                              std::string(bytes) + " --out " + file);
    ASSERT_EQ(ex.code, 0) << ex.out;
    const CliRun c = wormnet("compare --topology mesh:8x8 --ports 3 --schedule " + file + " --json " + cmp);
    ASSERT_EQ(c.code, 0) << c.out;
    from += " " + cmp;
  }
  const CliRun files = wormnet("tau --from" + from + " --json " + d + "/files.json");
  ASSERT_EQ(files.code, 0) << files.out;
  const CliRun builtin = wormnet("tau " + kSelection + " --json " + d + "/builtin.json");
  ASSERT_EQ(builtin.code, 0) << builtin.out;
  const auto a = read_json(d + "/files.json"), b = read_json(d + "/builtin.json");
  ASSERT_EQ(a["fits"].size(), 1u) << a;
  const auto* f = fit_of(a, "edn-broadcast");
  const auto* g = fit_of(b, "edn-broadcast");
  ASSERT_TRUE(f && g);
  EXPECT_EQ((*f)["points"].size(), 3u);
  EXPECT_EQ((*f)["fit"], (*g)["fit"]);  // the same cycles at every size
}

TEST(CliTau, PacketLawAndSweepResults) {
  const std::string d = fresh_dir("cli_tau", "sweep");
  write_file(d + "/s.yaml",
             "command: run\ntopology: mesh:4x4\nalgorithm: [rd-broadcast, ft-broadcast]\nports: 3\n"
             "bytes: [64, 128, 512]\n");
  const CliRun sw = wormnet("sweep " + d + "/s.yaml --out " + d + "/r.jsonl");
  ASSERT_EQ(sw.code, 0) << sw.out;
  const CliRun t = wormnet("tau --from " + d + "/r.jsonl --law packets:64 --metric cycles --json " + d + "/t.json");
  ASSERT_EQ(t.code, 0) << t.out;
  const auto j = read_json(d + "/t.json");
  EXPECT_EQ(j["f"], "packets:64");
  EXPECT_EQ(j["metric"], "cycles");
  ASSERT_EQ(j["fits"].size(), 2u);
  for (const auto& f : j["fits"]) {
    EXPECT_TRUE(f["ok"].get<bool>()) << f;
    EXPECT_EQ(f["distinct_lengths"], 3);
    EXPECT_EQ(f["points"][2]["f"], 8.0);
    EXPECT_FALSE(f.contains("predicted")) << f;  // the thesis's forms are linear in L
  }
}

TEST(CliTau, BadInputExits2BeforeAnyRun) {
  const std::string d = fresh_dir("cli_tau", "bad");
  const std::string live = "tau --topology mesh:4x4 --algorithm rd-broadcast,edn-broadcast --ports 3 ";
  for (const auto& [args, field, allowed] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {live, "--bytes", "two or more different message sizes"},
           {live + "--bytes 64", "--bytes", "two or more different message sizes"},
           {live + "--bytes 64,064", "--bytes", "two or more different message sizes"},
           {live + "--bytes 64,66", "--bytes", "multiples of 4"},
           {live + "--bytes 64,128 --law packets:1024", "--bytes", "at least two different packet counts"},
           {live + "--bytes 64,128 --law cubic", "--law", "allowed: linear (f(L) = L) or packets:B"},
           {live + "--bytes 64,128 --law packets:0", "--law", "allowed: linear"},
           {live + "--bytes 64,128 --metric p99", "--metric", "allowed: max-latency, avg-latency, cycles"},
           {live + "--bytes 64,128 --around sc-broadcast", "--around", "allowed: one of rd-broadcast, edn-broadcast"},
       }) {
    expect_config_error(args, field, allowed);
    EXPECT_EQ(wormnet(args).out.find("wormnet tau"), std::string::npos) << args;  // nothing ran
  }
  const std::string garbled = write_file(d + "/garbled.json", "{\"schema\": \"wormnet.compare/3\", \"runs\": [\n");
  const std::string traffic = write_file(d + "/traffic.jsonl", "{\"command\": \"traffic\", \"ok\": true}\n");
  const std::string other = write_file(d + "/other.json", "{\"schema\": \"wormnet.run/2\"}\n");
  const std::string cmp = d + "/one.json";
  ASSERT_EQ(wormnet("compare --topology mesh:4x4 --algorithm rd-broadcast --ports 3 --bytes 64 --json " + cmp).code, 0);
  expect_config_error("tau --from " + d + "/missing.json", "--from", "does not exist");
  expect_config_error("tau --from " + d, "--from", "is a directory");
  expect_config_error("tau --from " + garbled, "--from", "line 1 is not JSON");
  expect_config_error("tau --from " + traffic, traffic + ": line 1", "field \"command\" is 'traffic'; allowed: run");
  expect_config_error("tau --from " + other, other, "is not a compare report (field \"schema\" \"wormnet.run/2\"");
  expect_config_error("tau --from " + cmp, "--from", "no algorithm has results at two different lengths");
  expect_config_error("tau --from " + cmp + " --topology mesh:8x8", "--topology", "not read with --from");
  expect_config_error("tau --from " + cmp + " --packets 2", "--packets", "not read with --from");
  expect_config_error("tau --from " + cmp + " --around edn-broadcast", "--around", "allowed: one of rd-broadcast");
  // compare's own options (--baseline, --tolerance, --cost) are not tau's.
  expect_config_error("tau --from " + cmp + " --tolerance 1", "The following arguments were not expected",
                      "--tolerance");
}

}  // namespace
