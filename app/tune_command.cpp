// `wormnet tune`: the options, their checks (all before any simulation) and the candidates of each
// size: every algorithm of the operation that can run the call, crossed only with the knobs it
// reads (hybrid's kappa, nesbt's packet size, Bruck's radix), plus --ccl-alg auto's pick.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "algorithms/bruck/bruck.h"
#include "algorithms/ccl/ccl.h"
#include "algorithms/combine_op.h"
#include "algorithms/group.h"
#include "algorithms/pipeline.h"
#include "app/commands.h"
#include "app/options.h"
#include "app/tune.h"
#include "experiments/collective_run.h"
#include "experiments/report_file.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {

namespace ccl = alg::ccl;

bool given(const RunCli& c, const std::string& flag) {
  const CLI::Option* o = c.cmd->get_option_no_throw(flag);
  return o && o->count() > 0;
}

// The values of a knob flag the user listed, or tune's default grid.
std::vector<uint64_t> knob_values(const RunCli& c, const std::string& flag, std::vector<uint64_t> grid) {
  if (!given(c, flag)) return grid;
  std::vector<uint64_t> out;
  for (const auto& v : split_list(c.family_options.at(flag), flag)) {
    out.push_back(decimal(v, 0, 64u << 20, flag, "decimal numbers, comma-separated"));
    if (flag == "--packet" && out.back() % 4)
      throw ConfigError(flag, fmt::format("{} bytes; allowed: whole 32-bit words, multiples of 4", out.back()));
  }
  return out;
}

// Every candidate at `bytes`: the calls ccl::unsupported accepts (the others are skipped with why).
TuneSize candidates_at(const RunCli& c, const ccl::Call& proto, uint64_t bytes, const alg::CostParams& cost) {
  TuneSize s;
  s.bytes = bytes;
  ccl::Call call = proto;
  call.b = uint32_t(bytes / 4);
  const int k = alg::ceil_log2(call.n);
  std::vector<std::string> algs = ccl::algorithms(call.op);
  if (given(c, "--ccl-alg")) algs = split_list(c.family_options.at("--ccl-alg"), "--ccl-alg");
  auto add = [&](ccl::Call x) {
    const ccl::TunedOptions o = ccl::tuned_options(x);
    if (const std::string why = ccl::unsupported(x); !why.empty())
      s.skipped.push_back(ccl::tuned_label(o) + ": " + why);
    else if (std::find(s.candidates.begin(), s.candidates.end(), o) == s.candidates.end())
      s.candidates.push_back(o);
  };
  for (const auto& a : algs) {
    ccl::Call x = call;
    x.alg = a;
    if (a == "hybrid") {  // kappa 0 and d are butterfly and reduce-bcast, tried as themselves
      std::vector<uint64_t> grid;
      for (int j = 1; j < k; ++j) grid.push_back(uint64_t(j));
      for (uint64_t v : knob_values(c, "--kappa", grid)) x.kappa = int(std::min<uint64_t>(v, 64)), add(x);
    } else if (a == "nesbt" || a == "chain" || a == "circ-graph" || a == "dbtree") {
      // The whole message (dbtree: each half), then 2, 4, ... 1024 packets of whole words.
      const uint64_t whole = a == "dbtree" ? (bytes / 4 + 1) / 2 * 4 : bytes;
      std::vector<uint64_t> grid = {0};
      for (uint64_t m = 2; m <= 1024 && whole / m >= 4; m *= 2) grid.push_back(whole / m / 4 * 4);
      for (uint64_t v : knob_values(c, "--packet", grid)) x.packet = uint32_t(v / 4), add(x);
    } else if (a == "linear") {  // windows 1, 2, 4, ... and n - 1 (all at once)
      std::vector<uint64_t> grid;
      for (uint64_t w = 1; w < uint64_t(call.n) - 1; w *= 2) grid.push_back(w);
      grid.push_back(uint64_t(call.n) - 1);
      for (uint64_t v : knob_values(c, "--window", grid)) x.window = int(std::min<uint64_t>(v, 1u << 20)), add(x);
    } else if (a == "bruck") {
      std::vector<uint64_t> grid;
      for (uint64_t r = 2; r < uint64_t(call.n); r = r < 4 ? r + 1 : 2 * r) grid.push_back(r);
      for (uint64_t v : knob_values(c, "--radix", grid)) x.radix = int(std::min<uint64_t>(v, 1u << 20)), add(x);
    } else {
      add(x);
    }
  }
  ccl::Call a = call;  // --ccl-alg auto as the family resolves it
  a.alg.clear();
  if (a.op == ccl::Op::Index)
    a.radix = alg::bruck::choose_radix(a.n, 1, a.b, ccl::model_ts(cost), ccl::model_tc(cost)).r;
  a = ccl::auto_call(a, cost, false, nullptr);
  s.auto_pick = ccl::tuned_options(a);
  if (std::find(s.candidates.begin(), s.candidates.end(), s.auto_pick) == s.candidates.end())
    s.candidates.push_back(s.auto_pick);
  return s;
}

}  // namespace

TunePlan plan_tune(const RunCli& c) {
  TunePlan p;
  p.base = resolve(c);
  check_writable(c.json, "--json");
  for (const char* flag : {"--schedule", "--firmware", "--sources", "--tuning", "--partition"})
    if (given(c, flag))
      throw ConfigError(flag, fmt::format("not read by tune; allowed: one built-in ccl operation over --group{}",
                                          std::string(flag) == "--partition" ? " (tune one part as a group)" : ""));
  const auto algos = split_list(p.base.algorithm, "--algorithm");
  const std::string& name = algos.front();
  if (algos.size() != 1 || name.rfind("ccl-", 0) != 0) {
    std::string ops;
    for (const auto& o : ccl::op_names()) ops += (ops.empty() ? "" : ", ") + ("ccl-" + o);
    throw ConfigError("--algorithm", fmt::format("'{}'; allowed: one CCL operation ({}; or allreduce, bcast, ...)",
                                                 p.base.algorithm, ops));
  }
  const ccl::Op op = ccl::op_of(name.substr(4));
  if (split_list(p.base.ports, "--ports").size() != 1)
    throw ConfigError("--ports", fmt::format("'{}'; allowed: one port model (a table is for one)", p.base.ports));
  if (given(c, "--ccl-alg"))
    for (const auto& a : split_list(c.family_options.at("--ccl-alg"), "--ccl-alg")) {
      const auto& algs = ccl::algorithms(op);
      if (std::find(algs.begin(), algs.end(), a) == algs.end()) {
        std::string allowed;
        for (const auto& x : algs) allowed += (allowed.empty() ? "" : ", ") + x;
        throw ConfigError("--ccl-alg", fmt::format("'{}' is not an algorithm of {}; allowed: {}", a, name, allowed));
      }
    }
  std::set<uint64_t> sizes;
  for (const auto& item : split_list(c.bytes_list, "--bytes")) {
    const uint64_t b = decimal(item, 4, 64u << 20, "--bytes", "multiples of 4 in 4..67108864, comma-separated");
    if (b % 4) throw ConfigError("--bytes", fmt::format("'{}' is not whole 32-bit words; allowed: multiples of 4", b));
    sizes.insert(b);
  }
  // The call as the family builds it: the group, its root's rank, the operator, the mode.
  // Every run: the options given, but for the ones each candidate sets.
  for (const char* f : {"--ccl-alg", "--kappa", "--packet", "--radix", "--window"}) p.base.family_options.erase(f);
  fw::ScheduleRunOptions one = p.base;
  one.bytes = uint32_t(*sizes.begin());
  const NetworkSetup net = fw::resolve_network(one);
  const alg::AlgorithmArgs args =
      alg::check_schedule(fw::algorithm_of(one), net.topology, fw::algorithm_args(one, net));
  ccl::Call proto;
  proto.op = op;
  proto.n = int(args.group.size());
  proto.root = args.source_rank;
  proto.op_id = args.op;
  if (op == ccl::Op::Combine) proto.cols = ccl::ring_2d_cols_for(net.topology, args.group);
  proto.barrier = !ccl::has_barrier_mode(op) || !given(c, "--nonbarrier");
  if (op == ccl::Op::Shift) proto.shift = int(args.options.number("--shift"));
  p.scope = ccl::tuning_scope(name, net.topology.name(), proto.n, args);
  p.profile = c.profile;
  for (uint64_t b : sizes) {
    p.sizes.push_back(candidates_at(c, proto, b, args.cost));
    if (p.sizes.back().candidates.empty())
      throw ConfigError("--ccl-alg", fmt::format("no algorithm of {} runs {} bytes here ({}); allowed: others", name, b,
                                                 p.sizes.back().skipped.front()));
  }
  // Every candidate built once before any simulation: a call the family refuses (memory, size) is
  // skipped at that size, named; nothing fails halfway through.
  for (TuneSize& s : p.sizes) {
    std::vector<ccl::TunedOptions> ok;
    for (const auto& o : s.candidates) {
      fw::ScheduleRunOptions x = one;
      x.bytes = uint32_t(s.bytes);
      for (const auto& [f, v] : o) x.family_options[f] = v;
      try {
        alg::check_schedule(fw::algorithm_of(x), net.topology, fw::algorithm_args(x, net));
        ok.push_back(o);
      } catch (const ConfigError& e) {
        s.skipped.push_back(ccl::tuned_label(o) + ": " + e.what());
      }
    }
    if (ok.empty()) throw ConfigError("--bytes", fmt::format("{} bytes: {}", s.bytes, s.skipped.front()));
    s.candidates = std::move(ok);
  }
  // What else a result depends on: the options given, but for the ones tune varies or only names.
  static const std::set<std::string> varied = {"--bytes", "--ccl-alg", "--kappa", "--packet",  "--radix",
                                               "--json",  "--out",     "--jobs",  "--threads", "--help"};
  nlohmann::json key = {{"scope", ccl::tuning_scope_json(p.scope)}, {"profile", c.profile}};
  for (const CLI::Option* o : c.cmd->get_options())
    if (o->count() > 0 && !o->get_lnames().empty() && !varied.count("--" + o->get_lnames().front()))
      key["given"]["--" + o->get_lnames().front()] = o->as<std::string>();
  for (const auto& [flag, text] : one.family_options) key["given"][flag] = text;
  p.config_key = key.dump();
  return p;
}

void add_tune_command(CLI::App& app) {
  auto c = std::make_shared<RunCli>();
  c->opt.ports = "one";
  c->opt.algorithm = "ccl-combine";
  auto* cmd = app.add_subcommand("tune",
                                 "every algorithm (and knob) of one CCL operation measured at each message size: a "
                                 "tuning table for --ccl-alg tuned");
  add_common_options(cmd, *c, true);
  add_threads_option(cmd, c->opt.net.threads);
  auto a = std::make_shared<TuneArgs>();
  cmd->add_option("--out", a->out, "results, JSON lines, appended and resumed (a rerun runs only what is missing)")
      ->capture_default_str();
  runners()["tune"] = [c, a]() { return run_tune(*c, *a); };
}

}  // namespace wn::cli
