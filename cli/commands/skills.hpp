// SPDX-License-Identifier: MIT
// `clawport skills list|audit`: which skills an agent really loads (and why the others
// are not loaded), and the static audit of skill directories.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../app.hpp"

namespace clawport::cli {

namespace skills_cmd {

namespace sk = clawport::skills;

struct list_options {
  std::string config;
  std::string agent;
  std::string bundle;
  bool json = false;
};

struct audit_options {
  std::vector<std::string> dirs;
  bool allow_scripts = false;
  bool json = false;
};

/// The width `s` takes once escaped for the terminal (columns line up as shown).
inline std::size_t shown_width(const std::string& s) {
  return clawport::text::escape_for_terminal(s).size();
}

/// The rows of `skills list`, each line escaped by the one terminal-safe renderer.
inline void print_rows(text::terminal_lines& line, const std::vector<const sk::skill_entry*>& rows,
                       const std::string& install, bool with_reason) {
  std::size_t wn = 0;
  std::size_t ws = 0;
  for (const auto* e : rows) {
    wn = std::max(wn, shown_width(e->name));
    ws = std::max(ws, shown_width(sk::source_of(*e)));
  }
  for (const auto* e : rows) {
    const std::string src = sk::source_of(*e);
    const std::string row = "  " + e->name + std::string(wn - shown_width(e->name) + 2, ' ') + src +
                            std::string(ws - shown_width(src) + 2, ' ');
    if (with_reason) {
      line(row + e->reason);
      line("    " + sk::shown_path(e->path, install));
    } else {
      line(row + sk::shown_path(e->path, install));
    }
  }
}

inline int run_list(const list_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  // The install as every skills command opens it (the export's config reader).
  const sk::install_context l = sk::load_install(fs, host, o.config);
  const std::string& install = l.where.install_root;
  const sk::skill_view view =
      sk::list_skills(fs, l.cfg, l.where, sk::list_request{o.agent, o.bundle});
  for (const std::string& w : view.warnings) out::warning(w);
  if (o.json) {
    out::document(clawport::json::dump(sk::to_json(view, install)));
    return exit_ok;
  }
  std::vector<const sk::skill_entry*> loaded;
  std::vector<const sk::skill_entry*> other;
  for (const auto& e : view.entries) (e.loaded() ? loaded : other).push_back(&e);
  text::terminal_lines line;
  if (!o.agent.empty()) {
    line("Agent '" + o.agent + "' loads " + std::to_string(loaded.size()) +
         (loaded.size() == 1 ? " skill" : " skills") + ", in precedence order:");
  } else {
    line("Loadable skills (" + std::to_string(loaded.size()) +
         "; bundle include/exclude not applied):");
  }
  print_rows(line, loaded, install, false);
  if (!other.empty()) {
    line("Not loaded (" + std::to_string(other.size()) + "):");
    print_rows(line, other, install, true);
  }
  out::lines(line);
  return exit_ok;
}

inline int run_audit(const audit_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const text::marks mk = text::marks_for(host.plain_text);
  std::vector<sk::audit_outcome> outcomes;
  bool blocked = false;
  for (const std::string& dir : o.dirs) {
    sk::audit_outcome one{dir, std::nullopt, std::nullopt};
    try {
      one.report =
          sk::audit_skill_directory(fs, host.absolute(dir), sk::audit_options{o.allow_scripts});
    } catch (const clawport::error& e) {
      one.failure = e;
    }
    blocked = blocked || one.failure || !one.report->clean();
    if (!o.json) {
      text::terminal_lines line;
      if (one.failure) {
        line("  " + std::string(mk.fail) + " Skill audit failed for " + dir);
        line("    - " + std::string(one.failure->what()));
      } else if (one.report->clean()) {
        line("  " + std::string(mk.ok) + " Skill audit passed for " + dir + " (" +
             text::counted(one.report->files_scanned, "file", "files") + " scanned).");
      } else {
        line("  " + std::string(mk.fail) + " Skill audit failed for " + dir);
      }
      if (one.report) {
        for (const auto& f : one.report->findings) {
          line((f.blocking ? "    - " : "    ! ") + f.message() +
               (f.blocking ? "" : " (warning, not blocking)"));
        }
      }
      out::lines(line);
    }
    outcomes.push_back(std::move(one));
  }
  const error e(errc::audit_blocked, "the skill audit found a blocking problem",
                o.dirs.size() == 1 ? o.dirs.front() : std::string());
  if (o.json)
    out::document(clawport::json::dump(blocked ? with_error(sk::to_json(outcomes), e)
                                               : sk::to_json(outcomes)));
  if (!blocked) return exit_ok;
  out::error(e, false);  // the line on stderr; the document carries it with --json
  return exit_failed;
}

}  // namespace skills_cmd

/// Registers `skills list` and `skills audit`.
inline void add_skills_command(CLI::App& app, action& selected, const host_environment& host) {
  CLI::App* skills = app.add_subcommand(
      "skills",
      "Manage ZeroClaw skills: list, audit, scaffold, install, remove, restore, test, bundles");
  skills->require_subcommand(1);

  auto lo = std::make_shared<skills_cmd::list_options>();
  CLI::App* list = skills->add_subcommand(
      "list", "Show the skills an agent loads at run time, and why the others are not loaded");
  add_config_option(list, lo->config);
  list->add_option("--agent", lo->agent, "the agent whose effective skill set to show");
  list->add_option("--bundle", lo->bundle,
                   "only this skill bundle (its filter is not applied "
                   "without --agent)");
  list->add_flag("--json", lo->json, "print one JSON document");
  list->callback([lo, &selected, &host] {
    selected = action{[lo, &host] { return skills_cmd::run_list(*lo, host); }, lo->json};
  });

  auto ao = std::make_shared<skills_cmd::audit_options>();
  CLI::App* audit = skills->add_subcommand(
      "audit", "Statically audit skill directories; exit 1 when a finding blocks");
  audit->add_option("dirs", ao->dirs, "skill directories")->required();
  audit->add_flag("--allow-scripts", ao->allow_scripts,
                  "allow script files (skills.allow_scripts = true)");
  audit->add_flag("--json", ao->json, "print one JSON document");
  audit->callback([ao, &selected, &host] {
    selected = action{[ao, &host] { return skills_cmd::run_audit(*ao, host); }, ao->json};
  });
}

}  // namespace clawport::cli
