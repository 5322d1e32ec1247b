// SPDX-License-Identifier: MIT
// `clawport skills list|audit`: which skills an agent really loads (and why the others
// are not loaded), and the static audit of skill directories.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../app.hpp"
#include "../config_path.hpp"

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

/// Install-relative path for display when `path` lies inside the install.
inline std::string shown_path(const std::string& path, const std::string& install) {
  const std::string p = sk::paths::normalize(path);
  const std::string root = sk::paths::normalize(install);
  if (p != root && sk::paths::starts_with(p, root))
    return p.substr(root == "/" ? 1 : root.size() + 1);
  return path;
}

inline std::string source_of(const sk::skill_entry& e) {
  return e.origin == sk::skill_origin::bundle ? "bundle " + e.bundle
                                              : std::string(sk::to_string(e.origin));
}

/// Human output only: control characters in names, paths and reasons are escaped.
inline std::string esc(const std::string& s) { return clawport::text::escape_for_terminal(s); }

inline void print_rows(std::ostream& out, const std::vector<const sk::skill_entry*>& rows,
                       const std::string& install, bool with_reason) {
  std::size_t wn = 0;
  std::size_t ws = 0;
  for (const auto* e : rows) {
    wn = std::max(wn, esc(e->name).size());
    ws = std::max(ws, esc(source_of(*e)).size());
  }
  for (const auto* e : rows) {
    const std::string name = esc(e->name);
    const std::string src = esc(source_of(*e));
    out << "  " << name << std::string(wn - name.size() + 2, ' ') << src
        << std::string(ws - src.size() + 2, ' ');
    if (with_reason) {
      out << esc(e->reason) << "\n    " << esc(shown_path(e->path, install)) << "\n";
    } else {
      out << esc(shown_path(e->path, install)) << "\n";
    }
  }
}

inline int run_list(const list_options& o) {
  const std::string config = absolute_path(o.config.empty() ? default_config_path() : o.config);
  const std::string install = install_root_of(config);
  clawport::fs::posix fs;
  // The export's config reader: a symlinked config.toml is followed, anything but a regular
  // file below the size limit is refused, in the same words.
  const sk::skills_config cfg =
      sk::parse_skills_config(clawport::zeroclaw::read_install_config(fs, config), config);
  sk::install_paths where{install, ""};
  if (const char* d = std::getenv("ZEROCLAW_DATA_DIR"); d != nullptr && *d != '\0') {
    where.data_dir = absolute_path(d);
  }
  sk::skill_view view;
  if (!o.agent.empty()) {
    view = sk::agent_skills(fs, cfg, where, o.agent);
    if (!o.bundle.empty()) {
      if (!cfg.bundles.count(o.bundle)) (void)sk::resolve_directory(cfg, install, o.bundle);
      view.entries.erase(
          std::remove_if(view.entries.begin(), view.entries.end(),
                         [&](const sk::skill_entry& e) { return e.bundle != o.bundle; }),
          view.entries.end());
    }
  } else if (!o.bundle.empty()) {
    view = sk::bundle_skills(fs, cfg, where, o.bundle);
  } else {
    view = sk::all_skills(fs, cfg, where);
  }
  for (const std::string& w : view.warnings) std::cerr << "clawport: warning: " << esc(w) << "\n";
  if (o.json) {
    nlohmann::ordered_json skills = nlohmann::ordered_json::array();
    for (const auto& e : view.entries) {
      nlohmann::ordered_json row;
      row["name"] = e.name;
      row["bundle"] =
          e.bundle.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(e.bundle);
      row["origin"] = std::string(sk::to_string(e.origin));
      row["path"] = shown_path(e.path, install);
      row["loaded"] = e.loaded();
      row["reason"] = e.loaded() ? nlohmann::ordered_json() : nlohmann::ordered_json(e.reason);
      skills.push_back(std::move(row));
    }
    nlohmann::ordered_json doc;
    doc["skills"] = std::move(skills);
    doc["warnings"] = view.warnings;
    std::cout << doc.dump(2) << "\n";
    return exit_ok;
  }
  std::vector<const sk::skill_entry*> loaded;
  std::vector<const sk::skill_entry*> other;
  for (const auto& e : view.entries) (e.loaded() ? loaded : other).push_back(&e);
  if (!o.agent.empty()) {
    std::cout << "Agent '" << esc(o.agent) << "' loads " << loaded.size()
              << (loaded.size() == 1 ? " skill" : " skills") << ", in precedence order:\n";
  } else {
    std::cout << "Loadable skills (" << loaded.size() << "; bundle include/exclude not applied):\n";
  }
  print_rows(std::cout, loaded, install, false);
  if (!other.empty()) {
    std::cout << "Not loaded (" << other.size() << "):\n";
    print_rows(std::cout, other, install, true);
  }
  return exit_ok;
}

inline int run_audit(const audit_options& o) {
  clawport::fs::posix fs;
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  bool blocked = false;
  for (const std::string& dir : o.dirs) {
    const auto add = [&](const std::string& file, std::optional<std::size_t> line,
                         const std::string& reason, bool blocking) {
      nlohmann::ordered_json f;
      f["skill"] = dir;
      f["file"] = file.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(file);
      f["line"] = line ? nlohmann::ordered_json(*line) : nlohmann::ordered_json();
      f["reason"] = reason;
      f["blocking"] = blocking;
      findings.push_back(std::move(f));
    };
    sk::audit_report report;
    try {
      report =
          sk::audit_skill_directory(fs, absolute_path(dir), sk::audit_options{o.allow_scripts});
    } catch (const clawport::error& e) {
      blocked = true;
      add("", std::nullopt, e.what(), true);
      if (!o.json)
        std::cout << "  ✗ Skill audit failed for " << esc(dir) << "\n    - " << esc(e.what())
                  << "\n";
      continue;
    }
    for (const auto& f : report.findings) add(f.file, f.line, f.reason, f.blocking);
    if (report.clean()) {
      if (!o.json) {
        std::cout << "  ✓ Skill audit passed for " << esc(dir) << " (" << report.files_scanned
                  << " files scanned).\n";
      }
    } else {
      blocked = true;
      if (!o.json) std::cout << "  ✗ Skill audit failed for " << esc(dir) << "\n";
    }
    if (!o.json) {
      for (const auto& f : report.findings) {
        std::cout << (f.blocking ? "    - " : "    ! ") << esc(f.message())
                  << (f.blocking ? "" : " (warning, not blocking)") << "\n";
      }
    }
  }
  if (o.json) {
    nlohmann::ordered_json doc;
    doc["findings"] = std::move(findings);
    std::cout << doc.dump(2) << "\n";
  } else if (blocked) {
    std::cerr << "Skill audit failed.\n";
  }
  return blocked ? exit_failed : exit_ok;
}

}  // namespace skills_cmd

/// Registers `skills list` and `skills audit`.
inline void add_skills_command(CLI::App& app, action& selected) {
  CLI::App* skills = app.add_subcommand("skills", "List and audit ZeroClaw skills");
  skills->require_subcommand(1);

  auto lo = std::make_shared<skills_cmd::list_options>();
  CLI::App* list = skills->add_subcommand(
      "list", "Show the skills an agent loads at run time, and why the others are not loaded");
  list->add_option("--config", lo->config,
                   "config.toml (default: $ZEROCLAW_CONFIG_DIR/config.toml, else "
                   "~/.zeroclaw/config.toml)");
  list->add_option("--agent", lo->agent, "the agent whose effective skill set to show");
  list->add_option("--bundle", lo->bundle,
                   "only this skill bundle (its filter is not applied "
                   "without --agent)");
  list->add_flag("--json", lo->json, "print one JSON document");
  list->callback([lo, &selected] { selected = [lo] { return skills_cmd::run_list(*lo); }; });

  auto ao = std::make_shared<skills_cmd::audit_options>();
  CLI::App* audit = skills->add_subcommand(
      "audit", "Statically audit skill directories; exit 1 when a finding blocks");
  audit->add_option("dirs", ao->dirs, "skill directories")->required();
  audit->add_flag("--allow-scripts", ao->allow_scripts,
                  "allow script files (skills.allow_scripts = true)");
  audit->add_flag("--json", ao->json, "print one JSON document");
  audit->callback([ao, &selected] { selected = [ao] { return skills_cmd::run_audit(*ao); }; });
}

}  // namespace clawport::cli
