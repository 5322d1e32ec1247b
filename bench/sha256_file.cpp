// SPDX-License-Identifier: MIT
// clawport_sha256_file <file>...: prints `<hex>  <file>` per file, as sha256sum does, hashing
// with clawport's digest::sha256 (SHA-NI where the CPU has it) through a 128 KiB read buffer
// (CLAWPORT_BENCH_BUFFER=<bytes> to try another size).
// The throughput baseline of bench/run.sh (c).
#include <clawport/digest/sha256.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  // 128 KiB, the size verify and the copy use (CLAWPORT_COPY_BUFFER_SIZE): a buffer that
  // stays in the L2 cache while it is hashed.
  const char* env = std::getenv("CLAWPORT_BENCH_BUFFER");
  std::vector<char> buf(env != nullptr ? std::strtoul(env, nullptr, 10)
                                       : CLAWPORT_COPY_BUFFER_SIZE);
  clawport::digest::sha256 h;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    const int fd = ::open(argv[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::perror(argv[i]);
      status = 1;
      continue;
    }
    h.reset();
    for (;;) {
      const ssize_t n = ::read(fd, buf.data(), buf.size());
      if (n < 0) {
        std::perror(argv[i]);
        status = 1;
        break;
      }
      if (n == 0) break;
      h.update(buf.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    std::printf("%s  %s\n", clawport::digest::to_hex(h.finish()).c_str(), argv[i]);
  }
  return status;
}
