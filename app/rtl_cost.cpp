// Area of one router from yosys: the synthesis top fixes the configuration at
// elaboration, ABC maps the logic onto NAND2 / NOR2 / NOT (`abc -g cmos2`), and
// flip-flops stay yosys's generic cells; every cell type has a weight below.
#include "app/rtl_cost.h"

#include "experiments/report_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "systemc/core/cache_dir.h"
#include "systemc/core/config_error.h"
#include "systemc/topology/port_model.h"

#ifndef WN_RTL_DIR
#define WN_RTL_DIR "rtl"
#endif

namespace wn::cli {

namespace fs = std::filesystem;

namespace {

// NAND2 equivalents = static-CMOS transistor count / 4 (a NAND2 has four), as yosys's
// `stat -tech cmos` counts gates. A flip-flop is 24 transistors (master-slave with
// transmission gates: 6); an enable adds a 2:1 mux (3), a synchronous reset or set
// adds a gate on D (1.5), an asynchronous one 1.
const std::vector<std::pair<std::string, double>> kWeights = {
    {"$_NOT_", 0.5},   {"$_NAND_", 1.0},   {"$_NOR_", 1.0},     {"$_DFF_N", 6.0},     {"$_DFF_P", 6.0},
    {"$_DFF_PP", 7.0}, {"$_DFF_PN", 7.0},  {"$_DFFE_", 9.0},    {"$_DFFE_PP0", 10.0}, {"$_DFFE_PP1", 10.0},
    {"$_SDFF_", 7.5},  {"$_SDFFE_", 10.5}, {"$_SDFFCE_", 10.5},
};

// The weight of a yosys cell type: gates by name, flip-flops by the longest matching
// prefix ("$_SDFFE_PP0P_" -> "$_SDFFE_"). A type without a weight (a latch, an
// unmapped cell) is an error, never a silent zero.
double weight_of(const std::string& type) {
  double w = -1;
  size_t best = 0;
  for (const auto& [prefix, v] : kWeights) {
    const bool gate = prefix.find("FF") == std::string::npos;
    const bool match = gate ? type == prefix : type.rfind(prefix, 0) == 0;
    if (match && prefix.size() > best) best = prefix.size(), w = v;
  }
  if (w < 0)
    throw std::runtime_error(
        fmt::format("yosys produced cell type {} that has no area weight (app/rtl_cost.cpp)", type));
  return w;
}

bool is_flop(const std::string& type) { return type.find("DFF") != std::string::npos; }

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

std::string rtl_dir() {
  if (const char* d = std::getenv("WORMNET_RTL_DIR"); d && *d) return d;
  return WN_RTL_DIR;
}

std::string cost_cache_dir() { return cache_dir("WORMNET_COST_CACHE", "cost"); }

std::vector<fs::path> rtl_sources(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".sv" || e.path().extension() == ".svh") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  out.push_back(fs::path(dir) / "cost" / "wn_router_cost.sv");
  if (!fs::exists(out.back()))
    throw std::runtime_error(fmt::format("the RTL is not at {} (set WORMNET_RTL_DIR to the repository's rtl/)", dir));
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text synthesis sees: `ifdef FORMAL sections (proof lemmas, never synthesized) are
// dropped, so adding a lemma does not invalidate every cached area.
std::string synthesized_text(const std::string& src) {
  std::istringstream in(src);
  std::string line, out;
  std::vector<bool> formal;  // per open `ifdef: is it `ifdef FORMAL
  bool skipping = false, in_else = false;
  for (size_t skip_depth = 0; std::getline(in, line);) {
    const auto b = line.find_first_not_of(" \t");
    const std::string t = b == std::string::npos ? "" : line.substr(b);
    if (t.rfind("`ifdef", 0) == 0 || t.rfind("`ifndef", 0) == 0) {
      formal.push_back(t.rfind("`ifdef FORMAL", 0) == 0 && (t.size() == 13 || (!std::isalnum(t[13]) && t[13] != '_')));
      if (formal.back() && !skipping) skipping = true, skip_depth = formal.size(), in_else = false;
    } else if (t.rfind("`else", 0) == 0 && skipping && formal.size() == skip_depth) {
      in_else = !in_else;
      continue;
    } else if (t.rfind("`endif", 0) == 0 && !formal.empty()) {
      formal.pop_back();
      if (skipping && formal.size() < skip_depth) {
        skipping = false;
        continue;
      }
    }
    if (!skipping || in_else) out += line + "\n";
  }
  return out;
}

struct Elaboration {
  std::string kind, params;
  int radix = 0, channels = 0;
};

Elaboration elaborate(const CostRequest& req) {
  const Topology topo = Topology::parse(req.topology);
  Elaboration e;
  e.radix = topo.ports();
  e.channels = parse_port_model(req.ports, topo);
  e.kind = topo.kind_name();
  const RouterConfig rc = topo.router_config(0, RouterConfig{});
  const int kind = topo.kind() == TopoKind::Mesh ? 0 : topo.kind() == TopoKind::Torus ? 1 : 2;
  e.params = fmt::format(
      "-set ports_p {} -set vcs_p {} -set buf_p {} -set inj_p {} -set ej_p {} -set kind_p {} "
      "-set ndims_p {}",
      e.radix, req.vcs, req.buf, e.channels, e.channels, kind, rc.ndims);
  for (int d = 0; d < 3; ++d) e.params += fmt::format(" -set k{}_p {} -set w{}_p {}", d, rc.k[d], d, rc.width[d]);
  return e;
}

}  // namespace

const std::vector<std::pair<std::string, double>>& cell_weights() { return kWeights; }

void validate_cost(const CostRequest& req) {
  const Topology topo = Topology::parse(req.topology);
  parse_port_model(req.ports, topo);
  if (req.vcs < 1 || req.vcs > kMaxVcs)
    throw ConfigError("--vcs", fmt::format("{} VCs; allowed: 1..{}", req.vcs, kMaxVcs));
  if (topo.kind() == TopoKind::Torus && req.vcs % 2)
    throw ConfigError("--vcs",
                      fmt::format("{} VCs on a torus: the dateline needs two VC classes; allowed: 2, 4", req.vcs));
  if (req.buf < 2 || req.buf > kMaxBuf || (req.buf & (req.buf - 1)))
    throw ConfigError("--buf", fmt::format("{} flits: the synthesized FIFO is a ring of a power-of-two size; "
                                           "allowed: 2, 4, 8, 16",
                                           req.buf));
}

nlohmann::json CostReport::to_json() const {
  return {{"topology", req.topology},
          {"kind", kind},
          {"radix", radix},
          {"ports", req.ports},
          {"channels", channels},
          {"vcs", req.vcs},
          {"buf", req.buf},
          {"cells", cells},
          {"cell_count", cell_count},
          {"flops", flops},
          {"logic_nand2", logic_nand2},
          {"flop_nand2", flop_nand2},
          {"nand2", nand2()},
          {"yosys_seconds", yosys_seconds}};
}

CostReport synthesize_cost(const CostRequest& req, bool use_cache) {
  validate_cost(req);
  const Elaboration e = elaborate(req);
  const std::string dir = rtl_dir();
  const auto sources = rtl_sources(dir);
  std::string files;
  uint64_t h = fnv1a(e.params);
  for (const auto& s : sources) {
    if (s.extension() == ".sv") files += " " + s.string();
    h = fnv1a(synthesized_text(slurp(s)), h);
  }
  CostReport r;
  r.req = req;
  r.kind = e.kind;
  r.radix = e.radix;
  r.channels = e.channels;
  const std::string cache = fmt::format("{}/{}{}_{}_{}v_{}b_{:016x}.json", cost_cache_dir(), e.kind, e.radix,
                                        e.channels, req.vcs, req.buf, h);
  nlohmann::json stat;
  if (use_cache && fs::exists(cache)) {
    const auto j = nlohmann::json::parse(slurp(cache), nullptr, false);
    // A cache file is input: an entry of any other shape is synthesized again and replaced.
    bool whole = !j.is_discarded() && j.is_object() && j.contains("cells") && j["cells"].is_object() &&
                 j.contains("yosys_seconds") && j["yosys_seconds"].is_number();
    if (whole)
      for (const auto& [type, n] : j["cells"].items()) whole = whole && n.is_number_unsigned();
    if (whole) {
      stat = j;
      r.cached = true;
    }
  }
  if (!r.cached) {
    char tmpl[] = "/tmp/wormnet-cost-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("cost: cannot create a temporary directory in /tmp");
    const fs::path tmp = tmpl;
    // wn_pkg.sv first: yosys resolves wn_pkg:: names as it parses (its second read is harmless).
    const std::string script = fmt::format(
        "read_verilog -sv -I{} {}/wn_pkg.sv{}\nchparam {} wn_router_cost\nsynth -top wn_router_cost -flatten -noabc\n"
        "abc -g cmos2\nopt_clean\ntee -q -o {} stat -json\n",
        dir, dir, files, e.params, (tmp / "stat.json").string());
    std::ofstream(tmp / "cost.ys") << script;
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = std::system(
        fmt::format("yosys -q -l {} -s {} > /dev/null 2>&1", (tmp / "yosys.log").string(), (tmp / "cost.ys").string())
            .c_str());
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rc != 0)
      throw std::runtime_error(
          fmt::format("yosys failed (exit {}) on {}; is yosys installed (scripts/setup.sh)? "
                      "log: {}",
                      rc, req.topology, (tmp / "yosys.log").string()));
    const auto j = nlohmann::json::parse(slurp(tmp / "stat.json"), nullptr, false);
    if (j.is_discarded() || !j.contains("design"))
      throw std::runtime_error("yosys wrote no statistics (" + (tmp / "stat.json").string() + ")");
    stat = {{"cells", j["design"]["num_cells_by_type"]}, {"yosys_seconds", secs}};
    fs::remove_all(tmp);
    if (use_cache) {
      std::error_code ec;
      fs::create_directories(cost_cache_dir(), ec);
      std::string why;  // a cache that can not be written is only slower (and never left half-written)
      write_file_atomic(cache, stat.dump(1) + "\n", why);
    }
  }
  r.yosys_seconds = stat["yosys_seconds"].get<double>();
  for (const auto& [type, n] : stat["cells"].items()) {
    const long count = n.get<long>();
    r.cells[type] = count;
    r.cell_count += count;
    const double w = weight_of(type) * double(count);
    if (is_flop(type)) {
      r.flops += count;
      r.flop_nand2 += w;
    } else {
      r.logic_nand2 += w;
    }
  }
  return r;
}

}  // namespace wn::cli
