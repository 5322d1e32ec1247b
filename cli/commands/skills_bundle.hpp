// SPDX-License-Identifier: MIT
// `clawport skills bundle add|list|remove`: a `[skill_bundles.<alias>]` table appended to
// or removed from config.toml (backup kept), and the bundles listed. Parses options, calls
// the library, prints what it renders.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../app.hpp"
#include "skills_common.hpp"

namespace clawport::cli {

namespace skills_life {

// ---- bundle add -----------------------------------------------------------------------

struct bundle_add_options : common_options {
  std::string alias;
  std::string directory;
};

inline int run_bundle_add(const bundle_add_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const std::string config = clawport::zeroclaw::config_path_of(host, o.config);
  std::optional<std::string> dir;
  if (!o.directory.empty()) dir = o.directory;
  const clawport::timestamp now{host.now().seconds, 0};
  const sk::bundle_add_result r = sk::add_skill_bundle(fs, config, o.alias, dir, now);
  return print_result_and_warnings(r, o.json, host);
}

// ---- bundle list, bundle remove --------------------------------------------------------

inline int run_bundle_list(const common_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const std::vector<sk::bundle_entry> bundles = sk::list_bundles(fs, l.cfg, l.where.install_root);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(bundles)));
    return exit_ok;
  }
  out::rendered(sk::render_text(bundles, l.config_path));
  return exit_ok;
}

struct bundle_remove_options : common_options {
  std::string alias;
};

inline int run_bundle_remove(const bundle_remove_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const std::string config = clawport::zeroclaw::config_path_of(host, o.config);
  const clawport::timestamp now{host.now().seconds, 0};
  const sk::bundle_remove_result r = sk::remove_skill_bundle(fs, config, o.alias, now);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r)));
    return exit_ok;
  }
  out::rendered(sk::render_text(r, config, text::marks_for(host.plain_text)));
  return exit_ok;
}

}  // namespace skills_life

/// Registers `skills bundle add|list|remove` under `skills`.
inline void add_skills_bundle_commands(CLI::App& skills, action& selected,
                                       const host_environment& host) {
  namespace sl = skills_life;
  CLI::App* bundle = skills.add_subcommand("bundle", "Manage skill bundles in config.toml");
  bundle->require_subcommand(1);
  auto bo = std::make_shared<sl::bundle_add_options>();
  CLI::App* badd = bundle->add_subcommand(
      "add",
      "Append a [skill_bundles.<alias>] table to config.toml (backup kept) and create "
      "its directory");
  badd->add_option("alias", bo->alias, "bundle alias: a-z, 0-9 and _")->required();
  badd->add_option("--directory", bo->directory,
                   "bundle directory (default: <install>/shared/skills/<alias>); must stay "
                   "inside <install>/shared");
  sl::add_config_option(badd, *bo);
  badd->callback([bo, &selected, &host] {
    selected = action{[bo, &host] { return sl::run_bundle_add(*bo, host); }, bo->json};
  });

  auto blo = std::make_shared<sl::common_options>();
  CLI::App* blist = bundle->add_subcommand(
      "list", "List the configured skill bundles: directory, skills, the agents listing each");
  sl::add_config_option(blist, *blo);
  blist->callback([blo, &selected, &host] {
    selected = action{[blo, &host] { return sl::run_bundle_list(*blo, host); }, blo->json};
  });

  auto bro = std::make_shared<sl::bundle_remove_options>();
  CLI::App* brm = bundle->add_subcommand(
      "remove",
      "Remove a [skill_bundles.<alias>] table from config.toml (backup kept); refused while "
      "an agent lists it; its directory and skills stay on disk");
  brm->add_option("alias", bro->alias, "the bundle alias")->required();
  sl::add_config_option(brm, *bro);
  brm->callback([bro, &selected, &host] {
    selected = action{[bro, &host] { return sl::run_bundle_remove(*bro, host); }, bro->json};
  });
}

}  // namespace clawport::cli
