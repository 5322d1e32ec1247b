// SPDX-License-Identifier: MIT
// `clawport verify <bundle | plugin dir> [--allowed-signers <file> [--signer <principal>]] [--json]
// [--jobs <n>]`: checks a bundle as hostile input and lists every finding; with --allowed-signers,
// also its signature (ssh-keygen -Y). Exit 0 when it verifies (warnings allowed), 1 when it does
// not.
#pragma once

#include "../app.hpp"
#include "../progress.hpp"

#include <iostream>
#include <memory>
#include <string>

namespace clawport::cli {

struct verify_args {
  std::string bundle;
  std::string allowed_signers;
  std::string signer;
  bool json = false;
  bool strict = false;
  unsigned jobs = 1;
};

/// The SignatureVerifier of --allowed-signers/--signer (import's too): the library's one.
inline signing::verify_function bundle_verifier(const host_environment& host,
                                                const std::string& allowed_signers,
                                                const std::string& signer) {
  return verify::ssh_bundle_verifier(host, allowed_signers, signer);
}

/// `clawport verify <plugin dir>`: the Agent Plugins 1.0.0 rules, each finding at the
/// spec's failure boundary. Exit 0 when everything loads (warnings allowed), else 1.
inline int run_verify_plugin(const verify_args& a, const host_environment& host) {
  fs::posix backend;
  if (!a.allowed_signers.empty())
    throw error(errc::invalid_argument,
                a.bundle + " is an Agent Plugin, which has no signature; drop --allowed-signers",
                a.bundle);
  verify::plugin_report r =
      verify::check_plugin(verify::read_plugin_tree(backend, host.absolute(a.bundle)));
  r.plugin = a.bundle;
  if (a.json) {
    nlohmann::json j = verify::plugin_to_json(r);
    if (!r.ok()) {
      const verify::plugin_finding& f =
          *std::find_if(r.findings.begin(), r.findings.end(),
                        [](const verify::plugin_finding& x) { return !x.warning; });
      j = with_error(std::move(j),
                     error(errc::config_invalid,
                           "the plugin does not verify: " + f.path + ": " + f.detail, f.path));
    }
    out::document(json::dump(j));
  } else {
    out::rendered(verify::render_plugin_report(r));
  }
  return r.ok() ? exit_ok : exit_failed;
}

inline int run_verify(const verify_args& a, const host_environment& host) {
  fs::posix backend;
  if (verify::is_plugin_dir(backend, host.absolute(a.bundle))) return run_verify_plugin(a, host);
  verify::report r;
  {
    progress_line progress = progress_line::for_command(a.json);
    r = verify::verify_bundle(backend, host.absolute(a.bundle), {}, a.jobs,
                              [&progress](std::uint64_t n, std::uint64_t total) {
                                progress.count("verifying: hashing", n, total);
                              });
  }
  if (!a.allowed_signers.empty())
    verify::check_signature(r, bundle_verifier(host, a.allowed_signers, a.signer));
  if (a.strict) r.require_authenticated();
  if (a.json) {
    out::document(json::dump(verify::to_json_document(r, a.bundle)));
  } else {
    verify::report shown = r;
    shown.bundle = a.bundle;
    out::rendered(verify::render_report(shown));
  }
  return r.ok() ? exit_ok : exit_failed;
}

inline void add_verify_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<verify_args>();
  CLI::App* cmd =
      app.add_subcommand("verify",
                         "Check an agent bundle (digests, signature, layout, manifest, closure, "
                         "secrets, limits), or an Agent "
                         "Plugins 1.0.0 plugin directory (plugin.json, skills/, mcp.json)");
  cmd->add_option("bundle", args->bundle, "the bundle or plugin directory")
      ->required()
      ->check(non_empty());
  CLI::Option* allowed =
      cmd->add_option("--allowed-signers", args->allowed_signers,
                      "also check the signature (zeroclaw-agent.sha256.sig) against this "
                      "allowed_signers file (ssh-keygen's format); unsigned bundles fail")
          ->check(non_empty());
  cmd->add_option("--signer", args->signer,
                  "the principal that must have signed (default: any allowed signer)")
      ->check(non_empty())
      ->needs(allowed);
  cmd->add_flag("--json", args->json, "print one JSON document listing every finding");
  cmd->add_flag("--strict", args->strict,
                "refuse a bundle without a digest list (its bytes unauthenticated; upstream "
                "ZeroClaw writes none) instead of warning");
  add_jobs_option(cmd, args->jobs, "read and hash files");
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_verify(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
