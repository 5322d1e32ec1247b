// SPDX-License-Identifier: MIT
// clawport_rusage <out> <command...>: runs the command with stdout on /dev/null, waits for
// it with wait4(2) and appends "<wall seconds> <peak RSS KiB> <exit status> <CPU seconds>"
// to <out> (CPU: user + system of the command and the children it reaped; on a shared
// machine it moves far less than the wall time).
// The peak is ru_maxrss of the child, which on Linux covers the children it reaped (so
// `bash -c 'a | b'` reports the larger of a and b). A small C++ program rather than a
// script: ru_maxrss survives exec, so the wrapper's own size is the floor of every figure.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: clawport_rusage <out> <command...>\n");
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    const int fd = ::open("/dev/null", O_WRONLY);
    if (fd >= 0) ::dup2(fd, 1);
    ::execvp(argv[2], argv + 2);
    ::_exit(127);
  }
  int status = 0;
  struct rusage ru {};
  if (::wait4(pid, &status, 0, &ru) != pid) return 127;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::FILE* out = std::fopen(argv[1], "a");
  if (out == nullptr) return 127;
  const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                     static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  std::fprintf(out, "%.4f %ld %d %.4f\n", secs, static_cast<long>(ru.ru_maxrss), code, cpu);
  return std::fclose(out) == 0 ? 0 : 127;
}
