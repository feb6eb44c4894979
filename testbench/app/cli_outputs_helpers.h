// Helpers of cli_outputs_test.cpp: running wormnet with stdout and stderr apart, a small tmpfs
// that fills up (root only), background processes and their children from /proc.
#pragma once
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "testbench/app/cli_helpers.h"

namespace wn::test {
namespace {

namespace fs = std::filesystem;

const std::string kBin = std::string(WN_BINARY_DIR) + "/wormnet";
// 16 points of a few ms each.
constexpr const char* kSpec =
    "command: run\ntopology: mesh:4x4\nalgorithm: [rd-broadcast, binomial-scatter]\n"
    "ports: [one, all]\nbytes: [32, 64]\nsources: [0, 5]\n";

std::string dir_for(const std::string& name) {
  const std::string d = std::string(WN_BINARY_DIR) + "/cli_outputs_test/" + name;
  std::system(("umount -l " + d + "/disk 2>/dev/null").c_str());  // a tmpfs an aborted run left
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

struct Sh {
  int code;
  std::string out, err;
};
// wormnet as a user runs it, in `d`, stdout and stderr apart; `prefix` runs first in the same shell
// (a ulimit, variables). `timeout`: a fifo that blocked the open would otherwise hang the suite.
Sh sh(const std::string& d, const std::string& args, const std::string& prefix = "") {
  const int st = std::system(
      ("cd " + d + " && " + prefix + " timeout 300 " + kBin + " " + args + " >" + d + "/.stdout 2>" + d + "/.stderr")
          .c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(d + "/.stdout"), slurp(d + "/.stderr")};
}
void expect_refused(const Sh& r, const std::string& field, const std::string& args) {
  EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
  EXPECT_EQ(r.err.rfind("error: " + field + ": ", 0), 0u) << args << "\n" << r.err;
  EXPECT_EQ(r.out.find("cycles"), std::string::npos) << args << ": something ran\n" << r.out;
}
std::vector<std::string> temp_files(const std::string& d) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(d))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) out.push_back(e.path().string());
  return out;
}

// A 64 KiB tmpfs at d/disk (root only): a disk that fills up. Unmounted at the end of the test.
struct SmallDisk {
  std::string path;
  bool ok;
  explicit SmallDisk(const std::string& d) : path(d + "/disk") {
    fs::create_directories(path);
    ok = geteuid() == 0 && std::system(("mount -t tmpfs -o size=64k tmpfs " + path + " 2>/dev/null").c_str()) == 0;
  }
  ~SmallDisk() {
    if (ok) std::system(("umount -l " + path).c_str());
  }
  // Fills it up, then frees `room` bytes (rounded to pages by tmpfs).
  void fill(size_t room = 0) const {
    const std::string f = path + "/filler";
    std::FILE* p = std::fopen(f.c_str(), "w");
    const std::string page(4096, 'x');
    while (p && std::fwrite(page.data(), 1, page.size(), p) == page.size() && std::fflush(p) == 0) {
    }
    if (p) std::fclose(p);
    if (room) fs::resize_file(f, fs::file_size(f) > room ? fs::file_size(f) - room : 0);
  }
};

pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen(log.c_str(), "w", stdout);
    std::freopen((log + ".err").c_str(), "w", stderr);
    std::vector<char*> argv{const_cast<char*>(kBin.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(kBin.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}
// Processes whose parent is `pid` (from /proc/*/stat), and whether a process still runs (a
// zombie waiting for a reaper has stopped).
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string s = slurp(e.path().string() + "/stat");
    const size_t rp = s.rfind(')');
    if (rp == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(s.c_str() + rp + 1, " %c %d", &state, &ppid) == 2 && ppid == pid)
      out.push_back(std::stoi(e.path().filename().string()));
  }
  return out;
}
bool running(pid_t pid) {
  const std::string s = slurp("/proc/" + std::to_string(pid) + "/stat");
  const size_t rp = s.rfind(')');
  return rp != std::string::npos && rp + 2 < s.size() && s[rp + 2] != 'Z' && s[rp + 2] != 'X';
}
size_t lines_in(const std::string& path) {
  const std::string t = slurp(path);
  return size_t(std::count(t.begin(), t.end(), '\n'));
}

}  // namespace
}  // namespace wn::test
