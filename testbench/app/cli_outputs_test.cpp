// Report paths, the behaviours a table cannot set up: a symlink, fifo or device node of our
// own as an output path, "-" for stdout, a signal in the middle of a write, a write past `ulimit -f`
// or onto a full disk (a small tmpfs, root only), two sweeps on one results file, and forked points
// outliving a killed parent. The tables (cli_bad_input_outputs_test.cpp) cover system paths.
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "testbench/app/cli_outputs_helpers.h"

namespace wn::test {
namespace {

using namespace std::chrono_literals;

// A symlink as the path of every output option: refused before anything runs; the link and the
// file it points to stay as they were (before: the link was replaced by a regular file).
TEST(CliOutputs, NoOutputOptionReplacesASymlink) {
  const auto d = dir_for("symlink");
  const auto spec = write_file(d + "/s.yaml", kSpec), target = d + "/target", empty = write_file(d + "/e.jsonl", "");
  const std::string l = d + "/link";
  const std::string links[] = {l, d + "/p-channels.csv", d + "/emit/jobs.txt"};
  fs::create_directories(d + "/emit");
  const std::pair<std::string, std::string> cases[] = {{"run --topology mesh:4x4 --json " + l, "--json"},
                                                       {"run --topology mesh:4x4 --csv " + d + "/p", "--csv"},
                                                       {"traffic --cycles 300 --json " + l, "--json"},
                                                       {"compare --json " + l, "--json"},
                                                       {"sweep --rates 0.1 --cycles 300 --json " + l, "--json"},
                                                       {"sweep " + spec + " --out " + l, "--out"},
                                                       {"sweep --summarize " + empty + " --csv " + l, "--csv"},
                                                       {"sweep --merge " + empty + " --out " + l, "--out"},
                                                       {"synth --topology mesh:2x2 --no-cache --out " + l, "--out"},
                                                       {"export --algorithm rd-broadcast --out " + l, "--out"},
                                                       {"sweep " + spec + " --emit parallel " + d + "/emit", "--emit"}};
  for (const auto& [args, field] : cases) {
    write_file(target, "keep\n");
    for (const auto& link : links) fs::remove(link), fs::create_symlink(target, link);
    expect_refused(sh(d, args), field, args);
    for (const auto& link : links) EXPECT_TRUE(fs::is_symlink(link)) << args << " replaced " << link;
    EXPECT_EQ(slurp(target), "keep\n") << args;
  }
  EXPECT_EQ(temp_files(d), std::vector<std::string>{});
}

// A fifo is refused at once (before: the report replaced it, and sweep --out blocked in open()
// forever); a directory named like a CSV report too.
TEST(CliOutputs, FifoAndDirectoryAreRefusedUpFront) {
  const auto d = dir_for("fifo");
  const auto spec = write_file(d + "/s.yaml", kSpec);
  for (const auto& [args, field] :
       std::vector<std::pair<std::string, std::string>>{{"traffic --cycles 300 --json " + d + "/f", "--json"},
                                                        {"sweep " + spec + " --out " + d + "/f", "--out"},
                                                        {"synth --topology mesh:2x2 --out " + d + "/f", "--out"},
                                                        {"run --csv " + d + "/p", "--csv"}}) {
    fs::remove_all(d + "/f"), fs::remove_all(d + "/p-messages.csv");
    ASSERT_EQ(mkfifo((d + "/f").c_str(), 0644), 0);
    fs::create_directories(d + "/p-messages.csv");
    expect_refused(sh(d, args), field, args);
    EXPECT_TRUE(fs::is_fifo(d + "/f")) << args;
    EXPECT_TRUE(fs::is_directory(d + "/p-messages.csv")) << args;
  }
}

// As root a device node can be opened for writing and replaced by rename: never (once
// /dev/full, here a node of our own with the same numbers).
TEST(CliOutputs, DeviceNodeIsNeverReplaced) {
  if (geteuid() != 0) GTEST_SKIP() << "mknod needs root";
  const auto d = dir_for("device");
  const auto spec = write_file(d + "/s.yaml", kSpec), empty = write_file(d + "/e.jsonl", "");
  const std::string full = d + "/full";
  ASSERT_EQ(mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
  for (const auto& [args, field] :
       std::vector<std::pair<std::string, std::string>>{{"traffic --cycles 300 --json " + full, "--json"},
                                                        {"sweep " + spec + " --out " + full, "--out"},
                                                        {"sweep --merge " + empty + " --out " + full, "--out"},
                                                        {"sweep --summarize " + empty + " --csv " + full, "--csv"},
                                                        {"synth --topology mesh:2x2 --out " + full, "--out"},
                                                        {"export --algorithm rd-broadcast --out " + full, "--out"}}) {
    expect_refused(sh(d, args), field, args);
    struct stat st {};
    ASSERT_EQ(lstat(full.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 7)) << args << " replaced the device";
  }
}

// "-" is stdout, said explicitly: the report is printed and no file named "-" appears.
TEST(CliOutputs, DashIsStdout) {
  const auto d = dir_for("dash");
  const Sh t = sh(d, "traffic --topology mesh:4x4 --cycles 300 --json -");
  ASSERT_EQ(t.code, 0) << t.err;
  const size_t brace = t.out.find("\n{");
  ASSERT_NE(brace, std::string::npos) << t.out;
  EXPECT_TRUE(nlohmann::json::parse(t.out.substr(brace + 1)).contains("throughput")) << t.out;
  const Sh e = sh(d, "export --algorithm rd-broadcast --out -");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("\"programs\""), std::string::npos) << e.out;
  EXPECT_FALSE(fs::exists(d + "/-"));
}

// Ctrl-C or kill in the middle of writing a large report: the process dies of the signal, the
// temporary file goes with it, and the previous report is untouched (before: r.json.tmp.PID of
// 10-58 MB stayed behind).
TEST(CliOutputs, EndSignalDuringTheWriteLeavesNoTempFile) {
  const auto d = dir_for("signal");
  for (int sig : {SIGINT, SIGTERM}) {
    const std::string r = write_file(d + "/r.json", "old\n");
    const pid_t pid =
        spawn({"run", "--topology", "mesh:12x12", "--algorithm", "direct-alltoall", "--bytes", "64", "--json", r},
              d + "/log");
    bool sent = false;
    for (auto t0 = std::chrono::steady_clock::now(); !sent && std::chrono::steady_clock::now() - t0 < 300s;) {
      for (const auto& e : fs::directory_iterator(d)) {
        std::error_code ec;  // the probe's empty file is not the write; a file with bytes is
        if (e.path().filename().string().rfind("r.json.tmp.", 0) == 0 && fs::file_size(e.path(), ec) > 0 && !ec) {
          kill(pid, sig);
          sent = true;
          break;
        }
      }
      if (waitpid(pid, nullptr, WNOHANG) == pid) break;
    }
    ASSERT_TRUE(sent) << "the run ended before its report was being written";
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
    EXPECT_EQ(temp_files(d), std::vector<std::string>{}) << strsignal(sig);
    EXPECT_EQ(slurp(r), "old\n");
  }
}

// Past `ulimit -f` the write fails (EFBIG, not a SIGXFSZ that kills the process mid-file): one line
// with the errno text, the old report kept, no temporary file.
TEST(CliOutputs, WritePastFileSizeLimitSaysWhyAndKeepsTheOldReport) {
  const auto d = dir_for("fsize");
  const std::string r = write_file(d + "/r.json", "old\n");
  const Sh s = sh(d, "run --topology mesh:8x8 --algorithm direct-alltoall --bytes 64 --json " + r, "ulimit -f 200;");
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_EQ(s.err.rfind("error: --json: cannot write '" + r + "' (File too large)", 0), 0u) << s.err;
  EXPECT_EQ(slurp(r), "old\n");
  EXPECT_EQ(temp_files(d), std::vector<std::string>{});
}

// A full disk: the report is an error naming ENOSPC (never "Success", never a 0-byte file and exit
// 0), for --json and for synth --out; a synth cache that cannot be written is no error and
// leaves no partial entry.
TEST(CliOutputs, FullDiskIsAnErrorWithItsErrnoText) {
  const auto d = dir_for("full");
  const SmallDisk disk(d);
  if (!disk.ok) GTEST_SKIP() << "mounting a tmpfs needs root";
  const std::string r = write_file(disk.path + "/r.json", "old\n");
  fs::create_directories(disk.path + "/cache");
  disk.fill();
  const Sh t = sh(d, "run --topology mesh:8x8 --algorithm direct-alltoall --bytes 64 --json " + r);
  EXPECT_EQ(t.code, 2) << t.err;
  EXPECT_NE(t.err.find("(No space left on device)"), std::string::npos) << t.err;
  EXPECT_EQ(slurp(r), "old\n");
  const Sh s = sh(d, "synth --topology mesh:4x4 --no-cache --out " + disk.path + "/s.json");
  EXPECT_EQ(s.code, 2) << s.out << s.err;
  EXPECT_NE(s.err.find("error: --out: cannot write"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("(No space left on device)"), std::string::npos) << s.err;
  EXPECT_EQ(s.out.find("written"), std::string::npos) << s.out;
  EXPECT_FALSE(fs::exists(disk.path + "/s.json"));
  const Sh c = sh(d, "synth --topology mesh:4x4", "WORMNET_SYNTH_CACHE=" + disk.path + "/cache");
  EXPECT_EQ(c.code, 0) << c.out << c.err;
  for (const auto& e : fs::directory_iterator(disk.path + "/cache"))
    ADD_FAILURE() << "partial cache entry " << e.path();
  EXPECT_EQ(temp_files(disk.path), std::vector<std::string>{});
}

// sweep --out on a disk that fills up: the failed append is cut back off (every line whole), the
// error names ENOSPC, and with room again the sweep resumes to every point once.
TEST(CliOutputs, SweepAppendOnAFullDiskKeepsWholeLines) {
  const auto d = dir_for("append");
  const SmallDisk disk(d);
  if (!disk.ok) GTEST_SKIP() << "mounting a tmpfs needs root";
  const auto spec = write_file(d + "/s.yaml", kSpec);
  const std::string out = disk.path + "/s.jsonl";
  disk.fill(6000);
  const Sh s = sh(d, "sweep " + spec + " -j 2 --out " + out);
  EXPECT_EQ(s.code, 2) << s.out << s.err;
  EXPECT_EQ(s.err.rfind("error: --out: cannot append to '" + out + "' (No space left on device)", 0), 0u) << s.err;
  EXPECT_EQ(s.err.find("Success"), std::string::npos) << s.err;
  const std::string text = slurp(out);
  EXPECT_TRUE(text.empty() || text.back() == '\n') << "a torn last line";
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) EXPECT_NO_THROW(nlohmann::json::parse(line)) << line;
  const size_t kept = lines_in(out);
  EXPECT_LT(kept, 16u);
  fs::remove(disk.path + "/filler");
  const Sh again = sh(d, "sweep " + spec + " -j 2 --out " + out);
  EXPECT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find(fmt::format("16 points of `run`, {} already in", kept)), std::string::npos) << again.out;
  EXPECT_EQ(lines_in(out), 16u);
}

// Two sweeps on one results file would run every point twice: the second is refused in one line
// while the first runs (and so is a merge into it); once the first is gone the file is free.
TEST(CliOutputs, SecondSweepOnTheSameOutIsRefused) {
  const auto d = dir_for("lock");
  const auto spec = write_file(d + "/s.yaml",
                               "command: run\ntopology: mesh:8x8\nalgorithm: [rd-broadcast, binomial-scatter]\n"
                               "ports: [one, all]\nbytes: [256, 1024, 4096]\nsources: random:4\nseed: 3\n");
  const std::string out = d + "/r.jsonl", empty = write_file(d + "/e.jsonl", "");
  const pid_t first = spawn({"sweep", spec, "-j", "1", "--out", out}, d + "/first.log");
  for (int i = 0; i < 6000 && lines_in(out) < 1; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_GE(lines_in(out), 1u);
  const bool first_running = waitpid(first, nullptr, WNOHANG) == 0;
  const Sh second = sh(d, "sweep " + spec + " -j 1 --out " + out);
  const Sh merge = sh(d, "sweep --merge " + empty + " --out " + out);
  kill(first, SIGKILL);
  waitpid(first, nullptr, 0);
  ASSERT_TRUE(first_running) << "the first sweep ended before the second started";
  expect_refused(second, "--out", "second sweep");
  EXPECT_NE(second.err.find("another wormnet sweep"), std::string::npos) << second.err;
  expect_refused(merge, "--out", "merge");
  // Its points die with it (PR_SET_PDEATHSIG) and release the lock: wait for that, not for a time.
  for (int i = 0; i < 6000; ++i, std::this_thread::sleep_for(5ms)) {
    const int fd = ::open(out.c_str(), O_RDONLY);
    const bool free = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (fd >= 0) ::close(fd);
    if (free) break;
  }
  const Sh after = sh(d, "sweep " + spec + " -j 2 --out " + out);
  EXPECT_EQ(after.code, 0) << after.out << after.err;
  EXPECT_EQ(lines_in(out), 48u);
}

// compare -j 2 and sweep -j 2 fork a child per point; SIGKILL of the parent takes them along
// (before: they ran on as orphans).
TEST(CliOutputs, ForkedPointsDieWithTheirParent) {
  const auto d = dir_for("orphans");
  const auto spec = write_file(d + "/s.yaml",
                               "command: run\ntopology: mesh:16x16\nalgorithm: direct-alltoall\n"
                               "bytes: [256, 512, 1024, 2048]\n");
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"compare", "--topology", "mesh:16x16", "--algorithm",
                                              "direct-alltoall,binomial-scatter", "--bytes", "1024,2048", "-j", "2"},
                                             {"sweep", spec, "-j", "2", "--out", d + "/r.jsonl"}}) {
    const pid_t parent = spawn(args, d + "/log");
    std::vector<pid_t> kids;
    for (int i = 0; i < 6000 && kids.size() < 2; ++i, std::this_thread::sleep_for(5ms)) kids = children_of(parent);
    ASSERT_EQ(kids.size(), 2u) << args[0] << ": no two points running";
    kill(parent, SIGKILL);
    waitpid(parent, nullptr, 0);
    for (int i = 0; i < 400 && (running(kids[0]) || running(kids[1])); ++i) std::this_thread::sleep_for(5ms);
    for (pid_t k : kids) EXPECT_FALSE(running(k)) << args[0] << ": point " << k << " outlived its parent";
    for (pid_t k : kids) kill(k, SIGKILL);  // a failed expectation leaves no orphan behind either
  }
}

}  // namespace
}  // namespace wn::test
