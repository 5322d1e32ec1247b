// SPDX-License-Identifier: MIT
// A consumer of the opt-in test backends: <clawport/testing.hpp> alone brings the library
// and fs::memory / fs::faulty.
#include <clawport/testing.hpp>

#include <iostream>

int main() {
  clawport::fs::faulty<clawport::fs::memory> fs;
  fs.inner().write_file("/install/config.toml", "x = 1\n", 0644);
  auto root = fs.open_root("/install");
  auto st = fs.stat_at(root, "config.toml");
  const bool ok = st && st->kind == clawport::fs::file_kind::regular && fs.count() > 0;
  std::cout << "testing backends: " << (ok ? "ok" : "FAILED") << "\n";
  return ok ? 0 : 1;
}
