// SPDX-License-Identifier: MIT
// `clawport_remove_tree <scratch dir> [files] [rounds]`: the cost of removing a bundle-shaped
// tree (what `export --force` does with the previous bundle) with fs::posix::remove_tree_at,
// plain and counting each entry for the progress line (fs::remove_tree, as export does), against
// `rm -rf` of an identical tree, side by side in one run (issue 44 item 1). Each round builds
// three copies (directories of 100 files of 200 bytes), removes one each way (rotating which
// goes first) and prints the wall times; the medians and their ratios to `rm -rf` last.
// `--remove <dir> <name>` removes one tree, for `strace -c` against `rm -rf`.
#include <clawport/fs.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

void build(const std::string& root, int files) {
  if (::mkdir(root.c_str(), 0755) != 0) std::perror(root.c_str()), std::exit(1);
  const std::string body(200, 'x');
  for (int i = 0; i < files; ++i) {
    const std::string dir = root + "/d" + std::to_string(i / 100);
    if (i % 100 == 0 && ::mkdir(dir.c_str(), 0755) != 0) std::perror(dir.c_str()), std::exit(1);
    const std::string f = dir + "/f" + std::to_string(i % 100) + ".md";
    const int fd = ::open(f.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 || ::write(fd, body.data(), body.size()) != static_cast<ssize_t>(body.size()))
      std::perror(f.c_str()), std::exit(1);
    ::close(fd);
  }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double with_clawport(const std::string& scratch, const std::string& name) {
  clawport::fs::posix fs;
  const auto parent = fs.open_root(scratch);
  const auto t = std::chrono::steady_clock::now();
  fs.remove_tree_at(parent, name);
  return seconds_since(t);
}

double with_count(const std::string& scratch, const std::string& name) {
  clawport::fs::posix fs;
  const auto parent = fs.open_root(scratch);
  volatile std::uint64_t seen = 0;  // what the CLI's progress line reads
  const auto t = std::chrono::steady_clock::now();
  clawport::fs::remove_tree(fs, parent, name, [&seen](std::uint64_t n) { seen = n; });
  const double s = seconds_since(t);
  if (seen == 0) std::fprintf(stderr, "the counting removal reported nothing\n");
  return s;
}

double with_rm(const std::string& path) {
  const auto t = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execlp("rm", "rm", "-rf", "--", path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::fprintf(stderr, "rm -rf failed\n");
  return seconds_since(t);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: clawport_remove_tree <scratch dir> [files] [rounds]\n"
                 "       clawport_remove_tree --remove <dir> <name>   (one removal, for strace)\n");
    return 2;
  }
  if (std::string(argv[1]) == "--remove" && argc == 4) {
    std::printf("%.3f s\n", with_clawport(argv[2], argv[3]));
    return 0;
  }
  const std::string scratch = argv[1];
  const int files = argc > 2 ? std::atoi(argv[2]) : 50000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  std::vector<double> ours, counted, rm;
  for (int r = 0; r < rounds; ++r) {
    build(scratch + "/a", files);
    build(scratch + "/b", files);
    build(scratch + "/c", files);
    ::sync();
    double a = 0, b = 0, c = 0;
    for (int k = 0; k < 3; ++k) {
      switch ((r + k) % 3) {
        case 0:
          a = with_clawport(scratch, "a");
          break;
        case 1:
          c = with_count(scratch, "c");
          break;
        default:
          b = with_rm(scratch + "/b");
          break;
      }
    }
    ours.push_back(a);
    counted.push_back(c);
    rm.push_back(b);
    std::printf("round %d: remove_tree_at %.3f s, counting %.3f s, rm -rf %.3f s\n", r + 1, a, c,
                b);
  }
  const double m_ours = median(ours), m_count = median(counted), m_rm = median(rm);
  std::printf(
      "%d files, median of %d: remove_tree_at %.3f s, counting %.3f s, rm -rf %.3f s, ratios "
      "%.2f and %.2f\n",
      files, rounds, m_ours, m_count, m_rm, m_ours / m_rm, m_count / m_rm);
  return 0;
}
