// Peak resident memory of commands, for the ctest cases that keep memory flat
// in run length:
//   peak_rss bound MIB -- CMD...                 CMD succeeds, its peak RSS <= MIB MiB
//   peak_rss growth MIB -- SHORT... -- LONG...   both succeed, LONG's peak RSS exceeds
//                                                SHORT's by less than MIB MiB
// A compiled helper, not a script: a child's ru_maxrss includes the memory of
// the process it was forked from (the kernel carries the pre-exec high-water
// mark over exec), so a Python wrapper would put a ~13 MiB floor under a
// ~12 MiB wormnet. This one is a few hundred KiB of libc. CMD's stdout is dropped.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "peak_rss: %s\n", what);
  std::exit(2);
}

// Runs argv, returns its peak RSS in KiB; exits 1 when it fails.
long run(const std::vector<char*>& argv) {
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) die("fork failed");
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 1);
    std::vector<char*> args = argv;
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::perror(args[0]);
    _exit(127);
  }
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid) die("wait4 failed");
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("peak RSS %.1f MiB, %.1f s wall:", double(ru.ru_maxrss) / 1024, wall);
  for (char* a : argv) std::printf(" %s", a);
  std::printf("\n");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::printf("peak_rss: the command failed (status %d)\n", status);
    std::exit(1);
  }
  return ru.ru_maxrss;  // KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || (std::strcmp(argv[1], "bound") != 0 && std::strcmp(argv[1], "growth") != 0))
    die("usage: peak_rss bound MIB -- CMD... | peak_rss growth MIB -- SHORT... -- LONG...");
  const bool bound = std::strcmp(argv[1], "bound") == 0;
  const double limit_kib = std::atof(argv[2]) * 1024;
  std::vector<std::vector<char*>> cmds;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0)
      cmds.emplace_back();
    else if (cmds.empty())
      die("a command starts after --");
    else
      cmds.back().push_back(argv[i]);
  }
  for (const auto& c : cmds)
    if (c.empty()) die("empty command");
  if (cmds.size() != (bound ? 1u : 2u)) die(bound ? "bound takes one command" : "growth takes SHORT and LONG");
  std::fflush(stdout);
  if (bound) {
    const long rss = run(cmds[0]);
    if (double(rss) > limit_kib) {
      std::printf("peak_rss: %.1f MiB exceeds the bound of %s MiB\n", double(rss) / 1024, argv[2]);
      return 1;
    }
    return 0;
  }
  const long a = run(cmds[0]);
  std::fflush(stdout);
  const long b = run(cmds[1]);
  std::printf("growth %.1f MiB (limit %s MiB)\n", double(b - a) / 1024, argv[2]);
  if (double(b - a) >= limit_kib) {
    std::printf("peak_rss: the long run needs %.1f MiB more than the short one\n", double(b - a) / 1024);
    return 1;
  }
  return 0;
}
