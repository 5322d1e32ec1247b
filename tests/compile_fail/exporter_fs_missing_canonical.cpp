// SPDX-License-Identifier: MIT
// expect: Fs policy: missing `optional<string> canonical(string_view abs)`
// errors: first
// The exporter over such a backend: the policy's message comes first.
#include <clawport/exporter.hpp>
#include <clawport/fs.hpp>

struct no_canonical : clawport::fs::posix {
  std::optional<std::string> canonical(std::string_view) = delete;
};

int main() {
  no_canonical fs;
  clawport::basic_exporter<no_canonical> exporter(fs);
  return exporter.run(clawport::export_options{}).dry_run ? 0 : 1;
}
