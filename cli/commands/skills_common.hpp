// SPDX-License-Identifier: MIT
// What the `skills` lifecycle commands share: `--config` and `--json`, and warnings.
#pragma once

#include <string>

#include "../app.hpp"

namespace clawport::cli::skills_life {

namespace sk = clawport::skills;

struct common_options {
  std::string config;
  bool json = false;
};

inline void warn(const std::string& w) { out::warning(w); }

/// Prints a lifecycle result: its JSON document with --json, else its text.
template <class Result>
void print_result(const Result& r, bool json, const host_environment& host) {
  if (json) {
    out::document(clawport::json::dump(sk::to_json(r)));
  } else {
    out::rendered(sk::render_text(r, text::marks_for(host.plain_text)));
  }
}

/// print_result, then the result's warnings on stderr (with --json too: the document has them).
template <class Result>
int print_result_and_warnings(const Result& r, bool json, const host_environment& host) {
  print_result(r, json, host);
  for (const auto& w : r.warnings) warn(w);
  return exit_ok;
}

inline void add_config_option(CLI::App* c, common_options& o) {
  cli::add_config_option(c, o.config);
  c->add_flag("--json", o.json, "print one JSON document");
}

}  // namespace clawport::cli::skills_life
