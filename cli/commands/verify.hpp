// SPDX-License-Identifier: MIT
// `clawport verify <bundle> [--json]`: checks a bundle as hostile input and lists every
// finding. Exit 0 when it verifies (warnings allowed), 1 when it does not.
#pragma once

#include "../app.hpp"

#include <iostream>
#include <memory>
#include <string>

namespace clawport::cli {

struct verify_args {
  std::string bundle;
  bool json = false;
};

/// The error of a bundle that does not verify: its first error finding.
inline error first_error(const verify::report& r, const std::string& bundle) {
  for (const verify::finding& f : r.findings)
    if (!f.warning)
      return error(errc::bundle_invalid, "the bundle does not verify: " + f.path + ": " + f.detail,
                   f.path.empty() ? bundle : f.path);
  return error(errc::bundle_invalid, "the bundle does not verify", bundle);
}

inline int run_verify(const verify_args& a, const host_environment& host) {
  fs::posix backend;
  const verify::report r = verify::verify_bundle(backend, host.absolute(a.bundle));
  if (a.json) {
    nlohmann::json j = verify::to_json(r);
    j["bundle"] = a.bundle;
    if (!r.ok()) j = with_error(std::move(j), first_error(r, a.bundle));
    std::cout << json::dump(j) << "\n";
  } else {
    verify::report shown = r;
    shown.bundle = a.bundle;
    std::cout << verify::render_report(shown);
  }
  return r.ok() ? exit_ok : exit_failed;
}

inline void add_verify_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<verify_args>();
  CLI::App* cmd = app.add_subcommand(
      "verify", "check an agent bundle (digests, layout, manifest, closure, secrets, limits)");
  cmd->add_option("bundle", args->bundle, "the bundle directory")->required()->check(non_empty());
  cmd->add_flag("--json", args->json, "print one JSON document listing every finding");
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_verify(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
