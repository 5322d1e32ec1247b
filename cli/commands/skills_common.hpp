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

inline void add_config_option(CLI::App* c, common_options& o) {
  cli::add_config_option(c, o.config);
  c->add_flag("--json", o.json, "print one JSON document");
}

}  // namespace clawport::cli::skills_life
