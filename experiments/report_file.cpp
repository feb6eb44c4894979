#include "experiments/report_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "systemc/core/config_error.h"
#include "systemc/core/version.h"

namespace wn {

namespace {

std::string temp_name(const std::string& path) { return fmt::format("{}.tmp.{}", path, getpid()); }

}  // namespace

void check_writable(const std::string& path, const std::string& field) {
  if (path.empty()) return;
  const std::string tmp = temp_name(path);
  {
    std::ofstream f(tmp);
    if (!f) throw ConfigError(field, fmt::format("cannot write '{}' ({}); allowed: a path in a writable folder", path,
                                                 std::strerror(errno)));
  }
  std::remove(tmp.c_str());
}

void write_report(const std::string& path, const std::string& text, const std::string& field) {
  if (path.empty()) return;
  const std::string tmp = temp_name(path);
  bool ok;
  {
    std::ofstream f(tmp, std::ios::binary);
    ok = bool(f);
    if (ok) {
      f << text;
      f.flush();
      ok = bool(f);
    }
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return;
  const std::string why = std::strerror(errno);
  std::remove(tmp.c_str());
  throw ConfigError(field, fmt::format("cannot write '{}' ({}); allowed: a path in a writable folder", path, why));
}

nlohmann::json with_identity(nlohmann::json j) {
  if (j.is_object() && !j.contains("wormnet")) j["wormnet"] = version_json();
  return j;
}

void write_json_report(const std::string& path, nlohmann::json j, const std::string& field) {
  write_report(path, with_identity(std::move(j)).dump(2) + "\n", field);
}

}  // namespace wn
