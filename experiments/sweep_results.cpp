#include "experiments/sweep_results.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "experiments/report_file.h"
#include "systemc/core/config_error.h"

namespace wn {

namespace {

const char* kAllowedOut = "allowed: a regular file or a new path (one sweep at a time)";

// Writes all of `s` at the end (O_APPEND); false with errno on the first failed write.

}  // namespace

ResultsAppender::ResultsAppender(const std::string& path) : path_(path) {
  if (path == "-")
    throw ConfigError(Param::out, "'-': a sweep resumes from its results file, and stdout cannot be read back; " +
                                      std::string(kAllowedOut));
  check_output_path(path, Param::out, false);  // a device, symlink, directory or fifo is never opened
  // O_NOFOLLOW and O_NONBLOCK: a symlink or fifo put there since the check fails or is seen below,
  // instead of being written through or blocking the open.
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd_ < 0)
    throw ConfigError(Param::out, "'" + path + "' cannot be written (" + std::strerror(errno) + "); " + kAllowedOut);
  auto fail = [&](const std::string& what) {
    ::close(fd_);
    fd_ = -1;
    throw ConfigError(Param::out, "'" + path + "' " + what + "; " + kAllowedOut);
  };
  struct stat st {};
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) fail("is not a regular file");
  // A second sweep on the same file would run every point again and interleave its lines. The
  // lock is on the open file: forked points share it and it goes when the sweep dies (children
  // die with it, isolated_run.cpp). A file system without locks (ENOLCK) is written unlocked.
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    fail("is being written by another wormnet sweep right now (it holds the file's lock)");
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);  // blocking writes again
  // A writer killed inside write() can leave a line without its newline: that partial point is
  // cut off (it reruns), so the file holds whole result lines only and reads back as such.
  if (st.st_size > 0) {
    const int rd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    off_t keep = st.st_size;
    if (rd >= 0) {
      char buf[65536];
      for (off_t end = st.st_size; end > 0;) {
        const off_t begin = end > off_t(sizeof buf) ? end - off_t(sizeof buf) : 0;
        if (pread(rd, buf, size_t(end - begin), begin) != end - begin) break;
        off_t i = end - begin;
        while (i > 0 && buf[i - 1] != '\n') --i;
        if (i > 0 || begin == 0) {
          keep = begin + i;
          break;
        }
        end = begin;
      }
      ::close(rd);
    }
    if (keep != st.st_size && ::ftruncate(fd_, keep) != 0)
      fail(std::string("ends in a partial line that cannot be cut off (") + std::strerror(errno) + ")");
  }
}

ResultsAppender::~ResultsAppender() {
  if (fd_ >= 0) ::close(fd_);
}

void ResultsAppender::append(const nlohmann::json& line) {
  const std::string s = with_identity(line).dump() + "\n";
  struct stat st {};
  const off_t before = fstat(fd_, &st) == 0 ? st.st_size : -1;
  // Normally one write(): with O_APPEND the kernel places it whole at the end. fsync: a finished
  // point survives a killed sweep and a crashed node, and a disk that fails late says so here.
  if (before >= 0 && write_all(fd_, s) && ::fsync(fd_) == 0) return;
  const int err = errno;
  // Whole lines only: cut a partial line back off, so the file is as before this point.
  const bool cut = before >= 0 && ::ftruncate(fd_, before) == 0;
  throw ConfigError(Param::out,
                    fmt::format("cannot append to '{}' ({}); {}; allowed: a results file on a disk with room", path_,
                                std::strerror(err),
                                cut ? "the point's line was not kept, the file is as before it"
                                    : "the file could not be cut back and may end in a partial line"));
}

void check_results_not_in_use(const std::string& path, const std::string& field) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;  // new (or not a file: check_output_path says so)
  const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  if (busy)
    throw ConfigError(field, "'" + path +
                                 "' is being written by a wormnet sweep right now (it holds the file's lock); "
                                 "allowed: a results file no sweep is writing");
}

std::vector<nlohmann::json> read_result_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  size_t at = 0, number = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    const bool torn = nl == std::string::npos;  // the last line of a writer killed mid-line
    const std::string line = text.substr(at, torn ? std::string::npos : nl - at);
    at = torn ? text.size() : nl + 1;
    ++number;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    const bool result = !j.is_discarded() && j.is_object() && j.contains("key") && j["key"].is_string() &&
                        j.contains("ok") && j["ok"].is_boolean();
    if (result) {
      out.push_back(std::move(j));
    } else if (!torn) {
      // Anything else is not ours: a file of the wrong kind, or edited; never silently dropped.
      throw ConfigError(path, fmt::format("line {} is not a point's result; allowed: a results file of wormnet "
                                          "sweep (JSON lines with \"key\" and \"ok\"), at most its last line torn",
                                          number));
    }
  }
  return out;
}

std::map<std::string, nlohmann::json> latest_by_key(const std::vector<nlohmann::json>& lines) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& j : lines) {
    const std::string k = j["key"].get<std::string>();
    auto it = out.find(k);
    if (it == out.end())
      out.emplace(k, j);
    else if (line_ok(j) || !line_ok(it->second))
      it->second = j;
  }
  return out;
}

std::vector<nlohmann::json> in_point_order(const std::vector<nlohmann::json>& lines) {
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < lines.size(); ++i) first.emplace(lines[i]["key"].get<std::string>(), i);
  std::vector<nlohmann::json> out;
  for (auto& [k, j] : latest_by_key(lines)) out.push_back(std::move(j));
  auto rank = [&](const nlohmann::json& j) {
    const bool has = j.contains("point") && j["point"].is_number_unsigned();
    return std::make_pair(has ? j["point"].get<size_t>() : SIZE_MAX, first[j["key"].get<std::string>()]);
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& x, const auto& y) { return rank(x) < rank(y); });
  return out;
}

MergeReport merge_results(const std::vector<std::string>& files, const std::vector<std::string>& expected) {
  MergeReport rep;
  std::vector<nlohmann::json> all;
  for (const auto& f : files) {
    std::ifstream probe(f);
    if (!probe) throw ConfigError(Param::merge, "'" + f + "' cannot be read; allowed: results files (JSON lines)");
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
