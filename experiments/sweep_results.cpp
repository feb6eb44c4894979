#include "experiments/sweep_results.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "experiments/report_file.h"
#include "systemc/core/config_error.h"

namespace wn {

ResultsAppender::ResultsAppender(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw ConfigError("--out", "'" + path + "' cannot be written (" + std::strerror(errno) +
                                              "); allowed: a writable file path");
  // A writer killed inside write() can leave a line without its newline; start ours on a fresh line.
  struct stat st {};
  if (fstat(fd_, &st) == 0 && st.st_size > 0) {
    const int rd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    char last = '\n';
    if (rd >= 0) {
      if (pread(rd, &last, 1, st.st_size - 1) != 1) last = '\n';
      ::close(rd);
    }
    if (last != '\n' && ::write(fd_, "\n", 1) != 1) throw std::runtime_error("cannot write " + path);
  }
}

ResultsAppender::~ResultsAppender() {
  if (fd_ >= 0) ::close(fd_);
}

void ResultsAppender::append(const nlohmann::json& line) {
  const std::string s = with_identity(line).dump() + "\n";
  // One write(): with O_APPEND the kernel places it whole at the end (regular files).
  const ssize_t w = ::write(fd_, s.data(), s.size());
  if (w != ssize_t(s.size())) throw std::runtime_error("cannot append to " + path_ + ": " + std::strerror(errno));
  fsync(fd_);  // a finished point survives a killed sweep and a crashed node
}

std::vector<nlohmann::json> read_result_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("key")) continue;  // a torn line of a killed writer
    out.push_back(std::move(j));
  }
  return out;
}

std::map<std::string, nlohmann::json> latest_by_key(const std::vector<nlohmann::json>& lines) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& j : lines) {
    const std::string k = j["key"].get<std::string>();
    auto it = out.find(k);
    if (it == out.end()) out.emplace(k, j);
    else if (line_ok(j) || !line_ok(it->second)) it->second = j;
  }
  return out;
}

MergeReport merge_results(const std::vector<std::string>& files, const std::vector<std::string>& expected) {
  MergeReport rep;
  std::vector<nlohmann::json> all;
  for (const auto& f : files) {
    std::ifstream probe(f);
    if (!probe) throw ConfigError("--merge", "'" + f + "' cannot be read; allowed: results files (JSON lines)");
    for (auto& j : read_result_lines(f)) all.push_back(std::move(j));
  }
  rep.lines_read = all.size();
  auto by_key = latest_by_key(all);
  rep.duplicates = all.size() - by_key.size();
  for (const auto& k : expected) {
    auto it = by_key.find(k);
    if (it == by_key.end()) {
      rep.missing.push_back(k);
      continue;
    }
    rep.merged.push_back(std::move(it->second));
    by_key.erase(it);
  }
  for (auto& [k, j] : by_key) rep.merged.push_back(std::move(j));
  for (const auto& j : rep.merged) rep.failed += line_ok(j) ? 0 : 1;
  return rep;
}

}  // namespace wn
