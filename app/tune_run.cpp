// `wormnet tune`: the runs (each its own process, like compare's; results appended to --out as
// they finish, so a rerun of the same command runs only what is missing) and the table: per size
// the measured best, its margin over the runner-up and over --ccl-alg auto's pick; the ranges of
// equal winners; where the analytic pick loses and by how much.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "app/options.h"
#include "app/tune.h"
#include "experiments/collective_run.h"
#include "experiments/report_file.h"
#include "experiments/sweep.h"
#include "experiments/sweep_results.h"

namespace wn::cli {

namespace {

namespace ccl = alg::ccl;

struct Measured {
  ccl::TunedOptions options;
  bool ok = false;
  uint64_t cycles = 0;
  double us = 0;
  std::string error;
};

Measured measured_of(const ccl::TunedOptions& o, const nlohmann::json& line) {
  Measured m{o, line.value("ok", false), line.value("cycles", uint64_t(0)), line.value("microseconds", 0.0),
             line.value("error", std::string())};
  if (!m.ok && m.error.empty()) m.error = "data check failed";
  return m;
}

nlohmann::json measured_json(const Measured& m) {
  nlohmann::json j = {{"choice", ccl::tuned_label(m.options)}, {"options", m.options}, {"ok", m.ok}};
  if (m.ok) j["cycles"] = m.cycles, j["microseconds"] = m.us;
  if (!m.ok) j["error"] = m.error;
  return j;
}

std::string ratio(double a, double b) { return b > 0 ? fmt::format("{:.2f}x", a / b) : "-"; }

}  // namespace

int run_tune(const RunCli& c, const TuneArgs& a) {
  const TunePlan plan = plan_tune(c);
  ResultsAppender appender(a.out);
  const auto have = latest_by_key(read_result_lines(a.out));
  // Every (size, candidate) in order; the ones --out already has are not run again.
  struct Point {
    size_t size, cand;
    std::string key;
  };
  std::vector<Point> all;
  std::map<std::string, nlohmann::json> lines;
  std::vector<SweepPoint> pending;
  std::vector<size_t> pending_of;
  for (size_t i = 0; i < plan.sizes.size(); ++i)
    for (size_t j = 0; j < plan.sizes[i].candidates.size(); ++j) {
      const auto& o = plan.sizes[i].candidates[j];
      const std::string key =
          fmt::format("tune {} bytes={} {}", plan.config_key, plan.sizes[i].bytes, ccl::tuned_label(o));
      all.push_back({i, j, key});
      if (auto it = have.find(key); it != have.end() && line_ok(it->second)) {
        lines[key] = it->second;
        continue;
      }
      fw::ScheduleRunOptions x = plan.base;
      x.bytes = uint32_t(plan.sizes[i].bytes);
      for (const auto& [f, v] : o) x.family_options[f] = v;
      pending.push_back({fmt::format("{} bytes={}", ccl::tuned_label(o), x.bytes), [x]() -> nlohmann::json {
                           const nlohmann::json r = fw::run_schedule(x).to_json(false);
                           return {{"ok", r["ok"]},
                                   {"cycles", r["cycles"]},
                                   {"microseconds", r["microseconds"]},
                                   {"error", r["error"].get<std::string>().empty() ? r["data_error"] : r["error"]}};
                         }});
      pending_of.push_back(all.size() - 1);
    }
  const unsigned jobs = c.jobs;
  fmt::print("seed {}\n", plan.base.seed);
  fmt::print(
      "wormnet tune {} topology={} nodes={} ports={} profile={} backend={}: {} runs at {} sizes, {} in {}, "
      "{} to run with -j {}\n",
      plan.scope.operation, plan.scope.topology, plan.scope.nodes, plan.base.ports, plan.profile, c.backend, all.size(),
      plan.sizes.size(), all.size() - pending.size(), a.out, pending.size(), jobs);
  const bool tty = isatty(STDERR_FILENO);
  size_t done = 0;
  run_sweep(
      pending,
      [&](size_t n, const nlohmann::json& r) {
        const Point& p = all[pending_of[n]];
        nlohmann::json line = r;
        line["key"] = p.key;
        line["bytes"] = plan.sizes[p.size].bytes;
        line["options"] = plan.sizes[p.size].candidates[p.cand];
        appender.append(line);
        lines[p.key] = line;
        ++done;
        if (tty) std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, pending.size(), pending[n].label.c_str());
      },
      jobs, true, ResultOrder::Completion);
  if (tty && done) std::fprintf(stderr, "\r\033[K");

  // The table, in size order (never in the order runs finished: same bytes for any -j).
  const int w = 26;
  fmt::print("{:>9}  {:<{}} {:>10}  {:<{}} {:>10} {:>7}  {:<{}} {:>10} {:>9}\n", "bytes", "best", w, "cycles",
             "runner-up", w, "cycles", "margin", "analytic pick", w, "cycles", "auto/best");
  std::vector<std::pair<uint64_t, ccl::TunedOptions>> winners;
  nlohmann::json sizes_json = nlohmann::json::array();
  size_t failed = 0, auto_lost = 0;
  double worst = 1;
  uint64_t worst_bytes = 0;
  size_t next = 0;
  for (size_t i = 0; i < plan.sizes.size(); ++i) {
    const TuneSize& s = plan.sizes[i];
    std::vector<Measured> ms;
    for (; next < all.size() && all[next].size == i; ++next)
      ms.push_back(measured_of(s.candidates[all[next].cand], lines[all[next].key]));
    std::vector<const Measured*> ranked;
    for (const Measured& m : ms) {
      if (m.ok) ranked.push_back(&m);
      failed += m.ok ? 0 : 1;
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const Measured* x, const Measured* y) { return x->cycles < y->cycles; });
    const Measured* autom = nullptr;
    for (const Measured& m : ms)
      if (m.options == s.auto_pick) autom = &m;
    nlohmann::json sj = {{"bytes", s.bytes}, {"auto", ccl::tuned_label(s.auto_pick)}};
    if (!ranked.empty()) {
      const Measured& b = *ranked.front();
      const Measured* r = ranked.size() > 1 ? ranked[1] : nullptr;
      winners.push_back({s.bytes, b.options});
      sj["best"] = measured_json(b);
      if (r) sj["runner_up"] = measured_json(*r), sj["margin"] = double(r->cycles) / double(b.cycles);
      if (autom && autom->ok) {
        const double over = double(autom->cycles) / double(b.cycles);
        sj["auto_over_best"] = over;
        if (autom->cycles > b.cycles) ++auto_lost;
        if (over > worst) worst = over, worst_bytes = s.bytes;
      }
      fmt::print("{:>9}  {:<{}} {:>10}  {:<{}} {:>10} {:>7}  {:<{}} {:>10} {:>9}\n", s.bytes,
                 ccl::tuned_label(b.options), w, b.cycles, r ? ccl::tuned_label(r->options) : "-", w,
                 r ? fmt::format("{}", r->cycles) : "-", r ? ratio(double(r->cycles), double(b.cycles)) : "-",
                 ccl::tuned_label(s.auto_pick), w, autom && autom->ok ? fmt::format("{}", autom->cycles) : "-",
                 autom && autom->ok ? ratio(double(autom->cycles), double(b.cycles)) : "-");
    }
    nlohmann::json all_j = nlohmann::json::array();
    for (const Measured& m : ms) all_j.push_back(measured_json(m));
    sj["results"] = std::move(all_j);
    if (!s.skipped.empty()) sj["skipped"] = s.skipped;
    sizes_json.push_back(std::move(sj));
  }
  const auto ranges = ccl::tuning_ranges(winners);
  fmt::print(
      "margin: the runner-up's cycles over the best's; auto/best: --ccl-alg auto's pick (the linear model "
      "C1 t_s + C2 t_c) over the best\n");
  fmt::print("the table (--ccl-alg tuned):");
  uint64_t lo = 0;
  for (const auto& r : ranges) {
    fmt::print(" {}", r.max_bytes ? fmt::format("{}..{} B {};", lo, r.max_bytes, ccl::tuned_label(r.options))
                                  : fmt::format("{} B and up {}", lo, ccl::tuned_label(r.options)));
    lo = r.max_bytes + 1;
  }
  fmt::print("\nthe analytic pick lost at {} of {} sizes{}\n", auto_lost, winners.size(),
             auto_lost ? fmt::format(", by up to {:.2f}x (at {} bytes)", worst, worst_bytes) : "");
  const nlohmann::json report = {
      {"schema", ccl::kTuningSchema},
      {"scope", ccl::tuning_scope_json(plan.scope)},
      {"profile", plan.profile},
      {"network",
       {{"backend", c.backend}, {"ports", plan.base.ports}, {"vcs", plan.base.net.vcs}, {"buf", plan.base.net.buf}}},
      {"table", ccl::tuning_ranges_json(ranges)},
      {"analytic_pick", {{"lost_at", auto_lost}, {"sizes", winners.size()}, {"worst_over_best", worst}}},
      {"sizes", sizes_json}};
  write_json_report(c.json, report);
  if (failed)
    std::fprintf(stderr, "error: %zu runs failed (see %s; rerun the same command to retry)\n", failed, a.out.c_str());
  return failed ? 1 : 0;
}

}  // namespace wn::cli
