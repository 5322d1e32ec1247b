// SPDX-License-Identifier: MIT
// `clawport skills new|install|remove|restore|test|bundle`: bring a skill into an install
// (or upgrade it), scaffold one, remove one (archived) and restore it, run its TEST.sh;
// bundles are skills_bundle.hpp's. Parses options, calls the library, prints what it renders.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "../app.hpp"
#include "skills_bundle.hpp"
#include "skills_common.hpp"
#include "skills_test.hpp"

namespace clawport::cli {

namespace skills_life {

// ---- new ------------------------------------------------------------------------------

struct new_options : common_options {
  std::string name;
  std::string bundle;
  std::string description;
  bool no_subdirs = false;
};

inline int run_new(const new_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const sk::install_context l = sk::load_install(fs, host, o.config);
  sk::scaffold_options opt;
  opt.description = o.description;
  opt.create_subdirs = !o.no_subdirs;
  const sk::scaffold_result r =
      sk::scaffold_skill(fs, l.cfg, l.where.install_root, o.bundle, o.name, opt);
  return print_result_and_warnings(r, o.json, host);
}

// ---- install --------------------------------------------------------------------------

struct install_options : common_options {
  std::string source;
  std::string bundle;
  std::string agent;
  std::string skill;
  bool upgrade = false;
  bool allow_scripts = false;
};

inline int run_install(const install_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const sk::source_install r = sk::install_from_source(
      fs, host, l,
      sk::source_request{o.source, o.bundle, o.agent, o.skill, o.upgrade, o.allow_scripts},
      process_umask(), warn);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r.result, r.notices)));
    return exit_ok;
  }
  out::rendered(sk::render_text(r.result, text::marks_for(host.plain_text)));
  for (const auto& n : r.notices) warn(n);
  for (const auto& w : r.result.warnings) warn(w);
  return exit_ok;
}

// ---- remove ---------------------------------------------------------------------------

struct remove_options : common_options {
  std::string name;
  std::string bundle;
  std::string agent;
  bool purge = false;
};

inline int run_remove(const remove_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const sk::remove_result r = [&] {
    try {
      const sk::skills_dir_location loc =
          sk::locate_skill(fs, l.cfg, l.where, o.name, o.bundle, o.agent);
      return sk::remove_skill(fs, loc, l.where.install_root, o.name, o.purge, host.now().seconds);
    } catch (const error& e) {  // a name `skills list` shows is its manifest's: say which dir
      throw sk::with_directory_hint(fs, l.cfg, l.where, o.name, e);
    }
  }();
  return print_result_and_warnings(r, o.json, host);
}

// ---- restore --------------------------------------------------------------------------

struct restore_options : common_options {
  std::string name;
  std::string bundle;
  std::string from;
};

inline int run_restore(const restore_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const sk::restore_result r =
      sk::restore_skill(fs, l.cfg, l.where.install_root, o.name, o.bundle, o.from);
  print_result(r, o.json, host);
  return exit_ok;
}

}  // namespace skills_life

/// Registers `skills new|install|remove|restore|test|bundle add|list|remove` under `skills`.
inline void add_skills_lifecycle_commands(CLI::App& skills, action& selected,
                                          const host_environment& host) {
  namespace sl = skills_life;

  auto no = std::make_shared<sl::new_options>();
  CLI::App* nw = skills.add_subcommand(
      "new", "Scaffold a skill (SKILL.md, scripts/ references/ assets/) in a bundle");
  nw->add_option("name", no->name, "skill name: lowercase letters, digits and hyphens")->required();
  nw->add_option("--bundle", no->bundle, "the bundle (implied when only one is configured)");
  nw->add_option("--description", no->description, "the frontmatter description");
  nw->add_flag("--no-subdirs", no->no_subdirs, "do not create scripts/ references/ assets/");
  sl::add_config_option(nw, *no);
  nw->callback([no, &selected, &host] {
    selected = action{[no, &host] { return sl::run_new(*no, host); }, no->json};
  });

  auto io = std::make_shared<sl::install_options>();
  CLI::App* in = skills.add_subcommand(
      "install",
      "Install a skill from a local directory or a git URL, audited before and after "
      "the copy");
  in->add_option("source", io->source,
                 "a skill directory, or a git URL (https, http, ssh, git, "
                 "file, user@host:path)")
      ->required();
  in->add_option("--bundle", io->bundle, "install into this configured bundle");
  in->add_option("--agent", io->agent,
                 "install into this agent's single bundle (default: agent 'default')");
  in->add_option("--skill", io->skill, "pick skills/<name>/ from a catalogue repository");
  in->add_flag("--upgrade", io->upgrade,
               "replace an installed skill of the same name (staged and audited first; the "
               "old version is archived under shared/skills/_deleted/)");
  in->add_flag("--allow-scripts", io->allow_scripts,
               "allow script files, a TEST.sh included (skills.allow_scripts = true)");
  sl::add_config_option(in, *io);
  in->callback([io, &selected, &host] {
    selected = action{[io, &host] { return sl::run_install(*io, host); }, io->json};
  });

  auto ro = std::make_shared<sl::remove_options>();
  CLI::App* rm = skills.add_subcommand(
      "remove", "Remove a skill: archived under shared/skills/_deleted/, or deleted with --purge");
  rm->add_option("name", ro->name, "the skill directory's name")->required();
  auto* rb = rm->add_option("--bundle", ro->bundle, "the bundle holding the skill");
  auto* ra = rm->add_option("--agent", ro->agent, "look in this agent's bundles");
  rb->excludes(ra);
  rm->add_flag("--purge", ro->purge, "delete instead of archiving");
  sl::add_config_option(rm, *ro);
  rm->callback([ro, &selected, &host] {
    selected = action{[ro, &host] { return sl::run_remove(*ro, host); }, ro->json};
  });

  auto so = std::make_shared<sl::restore_options>();
  CLI::App* rs = skills.add_subcommand(
      "restore",
      "Put an archived skill (from `skills remove` or `install --upgrade`) back into its bundle");
  rs->add_option("name", so->name, "the skill directory's name")->required();
  rs->add_option("--bundle", so->bundle,
                 "restore the archive taken from this bundle (needed when several bundles "
                 "archived the name)");
  rs->add_option("--from", so->from,
                 "the archive to restore, a name under shared/skills/_deleted/ (default: the "
                 "newest archive of the skill)");
  sl::add_config_option(rs, *so);
  rs->callback([so, &selected, &host] {
    selected = action{[so, &host] { return sl::run_restore(*so, host); }, so->json};
  });

  add_skills_test_command(skills, selected, host);
  add_skills_bundle_commands(skills, selected, host);
}

}  // namespace clawport::cli
