#include "experiments/report_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "systemc/core/config_error.h"
#include "systemc/core/version.h"

namespace wn {

namespace {

// The temporary file being written, for the signal handler: a fixed buffer and a flag, because a
// handler may not allocate or take locks (only async-signal-safe calls: unlink, raise).
char g_temp[PATH_MAX + 64];
volatile sig_atomic_t g_temp_live = 0;
// The signals that end a run from outside (Ctrl-C, kill, a closed terminal, Ctrl-\).
constexpr int kEndSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void unlink_temp_and_reraise(int sig) {
  if (g_temp_live) ::unlink(g_temp);
  // SA_RESETHAND made the default action current again: the process dies of `sig` as it would
  // have without us (exit status 128 + sig for the shell), once this handler returns.
  ::raise(sig);
}

// A temporary file beside the report, removed on every path that does not rename it into place:
// errors (the destructor) and the end signals (the handler) alike. One at a time per process.
class TempFile {
 public:
  explicit TempFile(const std::string& path) : name_(fmt::format("{}.tmp.{}", path, getpid())) {
    struct sigaction sa {};
    sa.sa_handler = unlink_temp_and_reraise;
    sigfillset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < std::size(kEndSignals); ++i) {
      sigaction(kEndSignals[i], nullptr, &old_[i]);
      if (old_[i].sa_handler != SIG_IGN) sigaction(kEndSignals[i], &sa, nullptr);  // nohup stays nohup
    }
    // Past `ulimit -f` a write fails with EFBIG (reported) instead of a signal that kills us mid-file.
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ign, &old_xfsz_);
  }
  ~TempFile() {
    if (created_ && !kept_) ::unlink(name_.c_str());
    g_temp_live = 0;
    for (size_t i = 0; i < std::size(kEndSignals); ++i) sigaction(kEndSignals[i], &old_[i], nullptr);
    sigaction(SIGXFSZ, &old_xfsz_, nullptr);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  // A new file (never through a symlink or into an existing one); -1 with errno when not.
  int create() {
    if (name_.size() < sizeof g_temp) {
      std::memcpy(g_temp, name_.c_str(), name_.size() + 1);
      g_temp_live = 1;  // before open(): a signal right after it must find the name
    }
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = ::open(name_.c_str(), flags, 0666);
    if (fd < 0 && errno == EEXIST) {  // left by a killed earlier process that had our pid
      ::unlink(name_.c_str());
      fd = ::open(name_.c_str(), flags, 0666);
    }
    created_ = fd >= 0;
    if (!created_) g_temp_live = 0;
    return fd;
  }
  void kept() {
    kept_ = true;
    g_temp_live = 0;
  }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  bool created_ = false, kept_ = false;
  struct sigaction old_[std::size(kEndSignals)]{};
  struct sigaction old_xfsz_ {};
};

// Every byte or false with errno (a short write is followed by the write that says why). Chunks of
// 1 MiB so an end signal is handled within one chunk of a large report.

const char* kind_of(mode_t m) {
  if (S_ISLNK(m)) return "a symlink";  // rename() would replace the link itself, not write through it
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a fifo";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

// Empty when `path` is a new name or a regular file; else what it is.
std::string not_a_report_path(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "" : fmt::format("cannot be looked at ({})", std::strerror(errno));
  return S_ISREG(st.st_mode) ? "" : fmt::format("is {}, which a report must not replace", kind_of(st.st_mode));
}

// The report into `path` (checked by the caller): temporary file, every write, fsync and close
// checked, then rename. On failure `why` is the errno text and no temporary file is left.
bool write_atomic(const std::string& path, const ReportProducer& produce, std::string& why) {
  TempFile t(path);
  const int fd = t.create();
  bool ok = fd >= 0;
  int err = errno;
  if (ok) {
    try {
      ReportOut out(fd);
      produce(out);
      out.flush();
    } catch (const ReportOut::Failed& f) {
      ok = false, err = f.err;
    } catch (...) {
      ::close(fd);  // the temporary file goes with `t`
      throw;
    }
  }
  // fsync: a full or failing disk may only say so here (NFS, delayed allocation). EINVAL: a file
  // system without synchronisation, nothing to wait for.
  if (ok && ::fsync(fd) != 0 && errno != EINVAL) ok = false, err = errno;
  if (fd >= 0 && ::close(fd) != 0 && ok) ok = false, err = errno;
  if (ok && ::rename(t.name().c_str(), path.c_str()) != 0) ok = false, err = errno;
  if (!ok) {
    why = std::strerror(err);
    return false;
  }
  t.kept();
  return true;
}

bool write_stdout(const ReportProducer& produce, std::string& why) {
  // What the command printed before goes first; then the report straight to the descriptor.
  if (std::fflush(stdout) != 0) {
    why = std::strerror(errno);
    return false;
  }
  try {
    ReportOut out(STDOUT_FILENO);
    produce(out);
    out.flush();
  } catch (const ReportOut::Failed& f) {
    why = std::strerror(f.err);
    return false;
  }
  return true;
}

ReportProducer whole(const std::string& text) {
  return [&text](ReportOut& out) { out.write(text); };
}

}  // namespace

bool write_all(int fd, std::string_view text) {
  size_t off = 0;
  while (off < text.size()) {
    const ssize_t w = ::write(fd, text.data() + off, std::min<size_t>(text.size() - off, size_t(1) << 20));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    off += size_t(w);
  }
  return true;
}

void ReportOut::write(std::string_view s) {
  // A text larger than the buffer goes straight through: a whole report is never copied.
  if (buf_.size() + s.size() > kChunk) {
    flush();
    if (s.size() >= kChunk) {
      if (!write_all(fd_, s)) throw Failed{errno};
      return;
    }
  }
  buf_.append(s);
}

void ReportOut::flush() {
  if (!buf_.empty() && !write_all(fd_, buf_)) throw Failed{errno};
  buf_.clear();
}

void check_output_path(const std::string& path, const ConfigField& field, bool stdout_ok) {
  if (path.empty() || (stdout_ok && path == "-")) return;
  const std::string bad = not_a_report_path(path);
  if (!bad.empty())
    throw ConfigError(field, fmt::format("'{}' {}; allowed: a regular file or a new path{}", path, bad,
                                         stdout_ok ? ", or - for stdout" : ""));
}

void check_writable(const std::string& path, const ConfigField& field) {
  if (path.empty()) return;
  if (path == "-") {
    if (::fcntl(STDOUT_FILENO, F_GETFL) == -1)
      throw ConfigError(field, "'-' but stdout is closed; allowed: a path, or - with an open stdout");
    return;
  }
  check_output_path(path, field);
  TempFile t(path);
  const int fd = t.create();
  if (fd < 0)
    throw ConfigError(
        field, fmt::format("cannot write '{}' ({}); allowed: a path in a writable folder", path, std::strerror(errno)));
  ::close(fd);  // the destructor removes it
}

void write_report(const std::string& path, const std::string& text, const ConfigField& field) {
  stream_report(path, whole(text), field);
}

void stream_report(const std::string& path, const ReportProducer& produce, const ConfigField& field) {
  if (path.empty()) return;
  std::string why;
  if (path == "-") {
    if (!write_stdout(produce, why))
      throw ConfigError(field, fmt::format("cannot write to stdout ({}); allowed: a stdout with room, or a path", why));
    return;
  }
  check_output_path(path, field);  // again: the path may have changed while the simulation ran
  if (!write_atomic(path, produce, why))
    throw ConfigError(field, fmt::format("cannot write '{}' ({}), nothing written; allowed: a path in a writable "
                                         "folder with room for it",
                                         path, why));
}

bool write_file_atomic(const std::string& path, const std::string& text, std::string& why) {
  why = not_a_report_path(path);
  return why.empty() && write_atomic(path, whole(text), why);
}

nlohmann::json with_identity(nlohmann::json j) {
  if (j.is_object() && !j.contains("wormnet")) j["wormnet"] = version_json();
  return j;
}

void write_json_report(const std::string& path, nlohmann::json j, const ConfigField& field) {
  write_report(path, with_identity(std::move(j)).dump(2) + "\n", field);
}

}  // namespace wn
