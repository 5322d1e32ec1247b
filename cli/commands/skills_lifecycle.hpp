// SPDX-License-Identifier: MIT
// `clawport skills new|install|remove|restore|test|bundle`: bring a skill into an install
// (or upgrade it), scaffold one, remove one (archived) and restore it, run its TEST.sh,
// manage bundles. Parses options, calls the library, prints.
#pragma once

#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../app.hpp"
#include "../input.hpp"

namespace clawport::cli {

namespace skills_life {

namespace sk = clawport::skills;

struct common_options {
  std::string config;
  bool json = false;
};

inline void warn(const std::string& w) { out::warning(w); }

// ---- new ------------------------------------------------------------------------------

struct new_options : common_options {
  std::string name;
  std::string bundle;
  std::string description;
  bool no_subdirs = false;
};

inline int run_new(const new_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const text::marks mk = text::marks_for(host.plain_text);
  const sk::install_context l = sk::load_install(fs, host, o.config);
  sk::scaffold_options opt;
  opt.description = o.description;
  opt.create_subdirs = !o.no_subdirs;
  const sk::scaffold_result r =
      sk::scaffold_skill(fs, l.cfg, l.where.install_root, o.bundle, o.name, opt);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r)));
  } else {
    text::terminal_lines line;
    line("  " + std::string(mk.ok) + " Scaffolded skill '" + r.ref.display() + "' at " +
         r.directory);
    for (const auto& c : r.created) line("    " + c);
    out::lines(line);
  }
  for (const auto& w : r.warnings) warn(w);
  return exit_ok;
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
  const text::marks mk = text::marks_for(host.plain_text);
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const sk::source_install r = sk::install_from_source(
      fs, host, l,
      sk::source_request{o.source, o.bundle, o.agent, o.skill, o.upgrade, o.allow_scripts},
      process_umask(), warn);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r.result, r.notices)));
  } else {
    text::terminal_lines line;
    line("  " + std::string(mk.ok) + " Skill " + (r.result.upgraded ? "upgraded" : "installed") +
         " and audited: " + r.result.directory + " (" + std::to_string(r.result.files_scanned) +
         " files scanned)");
    if (r.result.upgraded) {
      line("    previous version " + (r.result.archived_to.empty()
                                          ? std::string("deleted (global directory)")
                                          : "archived at " + r.result.archived_to));
    }
    out::lines(line);
    for (const auto& n : r.notices) warn(n);
    for (const auto& w : r.result.warnings) warn(w);
  }
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
  const text::marks mk = text::marks_for(host.plain_text);
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const sk::skills_dir_location loc =
      sk::locate_skill(fs, l.cfg, l.where, o.name, o.bundle, o.agent);
  const sk::remove_result r =
      sk::remove_skill(fs, loc, l.where.install_root, o.name, o.purge, host.now().seconds);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r)));
  } else if (!r.archived_to.empty()) {
    out::line("  " + std::string(mk.ok) + " Skill '" + r.name + "' removed from bundle '" +
              r.bundle + "' and archived at " + r.archived_to);
  } else {
    out::line("  " + std::string(mk.ok) + " Skill '" + r.name + "' deleted from " + r.directory);
  }
  for (const auto& w : r.warnings) warn(w);
  return exit_ok;
}

// ---- restore --------------------------------------------------------------------------

struct restore_options : common_options {
  std::string name;
  std::string bundle;
  std::string from;
};

inline int run_restore(const restore_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const text::marks mk = text::marks_for(host.plain_text);
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const sk::restore_result r =
      sk::restore_skill(fs, l.cfg, l.where.install_root, o.name, o.bundle, o.from);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r)));
    return exit_ok;
  }
  text::terminal_lines line;
  line("  " + std::string(mk.ok) + " Skill '" + r.name + "' restored into bundle '" + r.bundle +
       "' at " + r.directory);
  line("    from " + r.restored_from);
  if (!r.other_archives.empty()) {
    std::string kept = "    " + std::to_string(r.other_archives.size()) + " older archive(s) kept:";
    for (const auto& a : r.other_archives) kept += " " + a;
    line(kept);
  }
  out::lines(line);
  return exit_ok;
}

// ---- test -----------------------------------------------------------------------------

struct test_options : common_options {
  std::string name;
  std::string bundle;
  bool verbose = false;
  bool yes = false;
  unsigned timeout = 60;
};

/// On a terminal, asks before running the tests of a skill whose audit fails.
inline bool confirm_unaudited(const sk::test_target& t, const std::string& why, bool yes) {
  warn("skill '" + t.name + "' fails the static audit (" + why +
       "); its TEST.sh runs shell commands with your permissions and no sandbox");
  if (yes || !stdin_is_terminal() || !::isatty(2)) return true;
  out::prompt("Run the tests of '" + t.name + "' anyway? [y/N] ");
  const std::optional<std::string> answer = read_input_line("the answer");
  if (!answer) return false;
  return *answer == "y" || *answer == "Y" || *answer == "yes";
}

/// The --verbose report of each command.
inline void print_case(const sk::test_case& c, const sk::command_outcome& r) {
  text::terminal_lines line;
  line("    running: " + c.command);
  if (!r.output.empty()) line("    output: " + std::string(sk::detail::trim(r.output)));
  line("    exit: " + std::to_string(r.exit) + (r.timed_out ? " (timed out)" : ""));
  out::lines(line);
}

inline int run_test(const test_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const sk::test_selection sel = sk::select_tests(fs, host, o.config, o.name, o.bundle);
  const sk::posix_runner runner(host.child_env);
  sk::test_options topt;
  topt.timeout = std::chrono::seconds(o.timeout);
  if (o.verbose && !o.json) topt.on_case = print_case;
  std::vector<sk::skill_test_result> results;
  std::vector<std::string> skipped;
  for (const sk::test_target& t : sel.targets) {
    const std::string why = sk::audit_before_test(fs, t.directory, sel.allow_scripts);
    if (!why.empty() && !confirm_unaudited(t, why, o.yes || o.json)) {
      skipped.push_back(t.name);
      continue;
    }
    if (o.verbose && !o.json) out::line("  Testing skill: " + t.name + " (" + t.directory + ")");
    results.push_back(sk::test_skill(fs, runner, t.directory, t.name, topt));
  }
  if (!o.name.empty() && results.size() == 1 && !results.front().has_test_file && !o.json) {
    out::line("  - No TEST.sh found for skill '" + o.name + "'.");
    return exit_ok;
  }
  const bool failed = sk::aggregate(results).failed() > 0;
  if (o.json) {
    const error e(errc::skill_test_failed, "some skill tests failed", o.name);
    out::document(clawport::json::dump(failed ? with_error(sk::to_json(results, skipped), e)
                                              : sk::to_json(results, skipped)));
  } else {
    out::rendered(sk::render_test_results(results, text::marks_for(host.plain_text)));
  }
  if (failed) out::line("Some skill tests failed.", out::to::err);
  return failed ? exit_failed : exit_ok;
}

// ---- bundle add -----------------------------------------------------------------------

struct bundle_add_options : common_options {
  std::string alias;
  std::string directory;
};

inline int run_bundle_add(const bundle_add_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const text::marks mk = text::marks_for(host.plain_text);
  const std::string config = clawport::zeroclaw::config_path_of(host, o.config);
  std::optional<std::string> dir;
  if (!o.directory.empty()) dir = o.directory;
  const clawport::timestamp now{host.now().seconds, 0};
  const sk::bundle_add_result r = sk::add_skill_bundle(fs, config, o.alias, dir, now);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r)));
  } else if (!r.created) {
    out::line("skill bundle '" + r.alias + "' already exists (no change)");
  } else {
    text::terminal_lines line;
    line("  " + std::string(mk.ok) + " created skill_bundles." + r.alias + " (dir: " + r.directory +
         ")");
    line("    previous config saved as " + r.backup);
    out::lines(line);
  }
  for (const auto& w : r.warnings) warn(w);
  return exit_ok;
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
  if (bundles.empty()) {
    out::line("No skill bundles configured in " + l.config_path +
              " (`clawport skills bundle add <alias>` adds one).");
    return exit_ok;
  }
  const auto listed = [](const std::vector<std::string>& names, const char* none) {
    std::string s = names.empty() ? std::string(none) : std::string();
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
    return s;
  };
  text::terminal_lines line;
  line(std::to_string(bundles.size()) + " skill bundle(s) in " + l.config_path + ":");
  for (const sk::bundle_entry& b : bundles) {
    line("  " + b.alias + "  " + b.directory + (b.exists ? "" : " (missing: ZeroClaw creates it)"));
    line("    skills: " + listed(b.skills, "none"));
    line("    agents: " + listed(b.agents, "none (no agent loads it)"));
  }
  out::lines(line);
  return exit_ok;
}

struct bundle_remove_options : common_options {
  std::string alias;
};

inline int run_bundle_remove(const bundle_remove_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const text::marks mk = text::marks_for(host.plain_text);
  const std::string config = clawport::zeroclaw::config_path_of(host, o.config);
  const clawport::timestamp now{host.now().seconds, 0};
  const sk::bundle_remove_result r = sk::remove_skill_bundle(fs, config, o.alias, now);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(r)));
    return exit_ok;
  }
  text::terminal_lines line;
  line("  " + std::string(mk.ok) + " removed skill_bundles." + r.alias + " from " + config);
  line("    previous config saved as " + r.backup);
  line("    its directory " + r.directory + " stays on disk (" +
       std::to_string(r.skills_left.size()) + " skill(s)); delete it by hand if no longer wanted");
  out::lines(line);
  return exit_ok;
}

inline void add_config_option(CLI::App* c, common_options& o) {
  cli::add_config_option(c, o.config);
  c->add_flag("--json", o.json, "print one JSON document");
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

  auto to = std::make_shared<sl::test_options>();
  CLI::App* ts = skills.add_subcommand(
      "test", "Run skills' TEST.sh checks (each line: command | exit code | output pattern)");
  ts->add_option("name", to->name, "a skill name, or a path to a skill directory (default: all)");
  ts->add_option("--bundle", to->bundle, "only skills of this bundle");
  ts->add_flag("--verbose", to->verbose, "show each command, its output and exit status");
  ts->add_flag("--yes", to->yes, "do not ask before testing a skill whose audit fails");
  ts->add_option("--timeout", to->timeout, "seconds each command may run (default 60)")
      ->check(CLI::Range(1u, 86400u));
  sl::add_config_option(ts, *to);
  ts->callback([to, &selected, &host] {
    selected = action{[to, &host] { return sl::run_test(*to, host); }, to->json};
  });

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
