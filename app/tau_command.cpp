// `wormnet tau`: the tau-model of Tsai's thesis (Chapter 5) fitted to collectives measured at
// several message sizes, from compare reports or sweep results (--from) or from a compare
// selection it runs (compare's options and runner). experiments/tau_fit.h does the arithmetic;
// here are the options, their checks (all before any simulation) and the printed tables.
#include <fmt/format.h>

#include <memory>
#include <set>

#include "app/commands.h"
#include "app/compare_run.h"
#include "app/options.h"
#include "app/run_options.h"
#include "experiments/report_file.h"
#include "experiments/tau_fit.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

void print_tau(const std::vector<tau::Fit>& fits, const std::vector<tau::PairCrossover>& pairs,
               const std::vector<tau::RegionRow>& regions, const tau::LengthLaw& law, tau::Metric metric,
               const std::string& around);

namespace {

struct TauArgs {
  std::vector<std::string> from;
  std::string law = "linear", metric = "max-latency", around;
};

// With --from the reports fix every run: an option that selects or shapes runs is not read.
void refuse_run_options(const CLI::App* cmd) {
  static const std::set<std::string> read = {"--from", "--law", "--metric", "--around", "--json"};
  auto refuse = [](const std::string& name) {
    throw ConfigError(name,
                      "not read with --from (the reports fix the runs); allowed: --from with --law, --metric, "
                      "--around, --json");
  };
  for (const CLI::Option* o : cmd->get_options())
    if (o->count() > 0 && !o->get_lnames().empty() && !read.count("--" + o->get_lnames().front()))
      refuse("--" + o->get_lnames().front());
  for (const auto& spec : alg::all_options()) {
    const CLI::Option* o = cmd->get_option_no_throw(spec.flag);
    if (o && o->count() > 0) refuse(spec.flag);
  }
}

// A live run needs two lengths f tells apart; checked on the text before compare runs anything.
void check_live_sizes(const RunCli& c, const tau::LengthLaw& law) {
  if (c.cmd->get_option_no_throw("--schedule")->count() > 0)
    throw ConfigError("--schedule",
                      "a schedule file fixes its own size and a fit needs two; allowed: --algorithm "
                      "or --firmware with --bytes");
  const CLI::Option* bytes = c.cmd->get_option_no_throw("--bytes");
  std::set<double> fs;
  std::set<std::string> sizes;
  for (const auto& item : split_list(c.bytes_list, "--bytes")) {
    const uint64_t b = decimal(item, 4, 64u << 20, "--bytes", "multiples of 4 in 4..67108864, comma-separated");
    sizes.insert(std::to_string(b));
    fs.insert(law(double(b)));
  }
  if (!bytes || bytes->count() == 0 || sizes.size() < 2)
    throw ConfigError("--bytes", fmt::format("{} size{}; allowed: two or more different message sizes, "
                                             "comma-separated (a fit needs two lengths)",
                                             sizes.size(), sizes.size() == 1 ? "" : "s"));
  if (fs.size() < 2)
    throw ConfigError("--bytes", fmt::format("{} all give f = {}; allowed: sizes in at least two different "
                                             "packet counts (or --law linear)",
                                             c.bytes_list, *fs.begin()));
}

void check_live_around(const RunCli& c, const std::string& around) {
  if (around.empty()) return;
  const auto algos = split_list(c.opt.algorithm, "--algorithm");
  for (const auto& a : algos)  // an algorithm, or one of its variants (ft-broadcast/4 with --packets 2,4)
    if (a == around || around.rfind(a + "/", 0) == 0) return;
  std::string names;
  for (const auto& a : algos) names += (names.empty() ? "" : ", ") + a;
  throw ConfigError("--around", fmt::format("'{}' is not among the algorithms run; allowed: one of {}", around, names));
}

int run_tau(const RunCli& c, const TauArgs& t) {
  std::string why;
  const auto law = tau::parse_length_law(t.law, why);
  if (!law) throw ConfigError("--law", why);
  const auto metric = tau::parse_metric(t.metric);
  if (!metric) throw ConfigError("--metric", fmt::format("'{}'; {}", t.metric, tau::kMetricsAllowed));
  check_writable(c.json, "--json");
  std::vector<tau::Series> all;
  int code = 0;
  if (!t.from.empty()) {
    refuse_run_options(c.cmd);
    for (const auto& f : t.from) {
      auto s = tau::read_series(f, "--from", *metric);
      all.insert(all.end(), s.begin(), s.end());
    }
    if (!t.around.empty() && !tau::names_series(all, t.around)) {
      std::set<std::string> names;
      for (const auto& s : all) names.insert(s.variant);
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw ConfigError("--around",
                        fmt::format("'{}' is in none of the --from files; allowed: one of {}", t.around, list));
    }
  } else {
    check_live_sizes(c, *law);
    check_live_around(c, t.around);
    RunCli run = c;
    run.json.clear();  // --json is the tau report
    nlohmann::json report;
    code = run_compare(run, false, RegressionArgs{}, &report, "tau");
    all = tau::series_of_compare(report, "", *metric);
  }
  std::vector<tau::Fit> fits;
  for (const auto& s : tau::merge_series(std::move(all))) fits.push_back(tau::fit_series(s, *law));
  bool any = false;
  for (const auto& f : fits) any = any || f.ok;
  if (!any)
    throw ConfigError(t.from.empty() ? "--bytes" : "--from",
                      fmt::format("no algorithm has results at two different lengths (f = {}); allowed: runs at two "
                                  "or more message sizes",
                                  law->name()));
  const auto pairs = tau::all_crossovers(fits);
  const auto regions = t.around.empty() ? std::vector<tau::RegionRow>{} : tau::regions_around(fits, t.around);
  print_tau(fits, pairs, regions, *law, *metric, t.around);
  write_json_report(c.json, tau::tau_json(fits, pairs, regions, *law, *metric, t.from, t.around));
  return code;
}

}  // namespace

void add_tau_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  c->opt.ports = "one,all";
  auto* cmd = app.add_subcommand(
      "tau",
      "the tau-model (Tsai's thesis, Ch 5): T(L) = T_s + T_n f(L) fitted per algorithm over message sizes, "
      "tau = T_n / T_s, crossovers and regions; runs a compare selection or reads --from reports");
  add_common_options(cmd, *c, true);
  add_threads_option(cmd, c->opt.net.threads);
  auto t = std::make_shared<TauArgs>();
  cmd->add_option("--from", t->from,
                  "fit these results instead of running: compare reports (compare --json) or sweep results of run "
                  "points; several files are joined");
  cmd->add_option("--law", t->law, std::string("f(L) of Eq 5.1: ") + tau::kLengthLawsAllowed)->capture_default_str();
  cmd->add_option("--metric", t->metric,
                  "the time fitted: max-latency (the thesis's broadcast time), avg-latency, or cycles (the whole run)")
      ->capture_default_str();
  cmd->add_option("--around", t->around,
                  "an algorithm (or variant): place every other one in Fig 5.2's regions A-D relative to it");
  runners()["tau"] = [c, t]() { return run_tau(*c, *t); };
}

}  // namespace wn::cli
