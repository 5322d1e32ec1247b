// SPDX-License-Identifier: MIT
// The OpenClaw agent workspace (docs/openclaw.md, "Workspace"): where OpenClaw resolves it
// (`resolve_workspace`, with the rule that decided), seeding the missing standard files
// without ever overwriting one (`bootstrap_workspace`), and what must not live in it
// (`doctor_workspace`, read-only).
#pragma once

#include "../fs/modes.hpp"
#include "../fs/write_new_file.hpp"
#include "lifecycle.hpp"
#include "state.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// Where an agent's workspace is, and the rule that decided:
/// `clawport.openclawWorkspaceResolve.v1` as data.
struct workspace_location {
  std::string agent_id;
  std::string workspace;
  std::string rule;  ///< what decided (`--workspace`, the agent's entry, the default, ...)
  std::string state_dir;
};

inline value to_json(const workspace_location& w) {
  value d = value::object();
  d["schemaVersion"] = "clawport.openclawWorkspaceResolve.v1";
  d["agentId"] = w.agent_id;
  d["workspace"] = w.workspace;
  d["rule"] = w.rule;
  d["stateDir"] = w.state_dir;
  return d;
}

/// Resolves the workspace of `agent_id` (default: the default agent, default_agent_id)
/// from the environment and `config` (the parsed openclaw.json, or an empty object) by the
/// one rule every command uses (`agent_workspace`, environment.hpp). Pure. A
/// `workspace_option` (--workspace) decides over everything else. An `agent_id` that is no
/// agent id is refused (errc::invalid_argument, naming --agent-id).
inline workspace_location locate_workspace(
    const value& config, const environment& env, const std::optional<std::string>& agent_id,
    const std::optional<std::string>& workspace_option = std::nullopt) {
  if (agent_id) check_agent_id_option(*agent_id);
  const std::optional<std::string> owner = agent_id ? agent_id : default_agent_id(config);
  if (!owner)  // upstream's AgentSelectionRequiredError
    throw error(errc::invalid_argument,
                "Multiple agents are configured, but this operation has no explicit owner. "
                "Select an agent explicitly with --agent-id <id>.",
                "--agent-id");
  const std::string& id = *owner;
  workspace_resolution ws = agent_workspace(config, env, id);
  if (workspace_option) ws = {operator_path(*workspace_option, env), "--workspace"};
  return {id, ws.path, ws.rule, state_dir_of(env)};
}

/// locate_workspace's document `{schemaVersion:"clawport.openclawWorkspaceResolve.v1",
/// agentId, workspace, rule, stateDir}`.
inline value resolve_workspace(const value& config, const environment& env,
                               const std::optional<std::string>& agent_id,
                               const std::optional<std::string>& workspace_option = std::nullopt) {
  return to_json(locate_workspace(config, env, agent_id, workspace_option));
}

/// Whether `config` (the parsed openclaw.json) sets `agents.defaults.skipBootstrap`.
inline bool skip_bootstrap(const value& config) {
  const value* agents = detail::get(config, "agents");
  const value* defaults = agents ? detail::get(*agents, "defaults") : nullptr;
  const value* skip = defaults ? detail::get(*defaults, "skipBootstrap") : nullptr;
  return skip != nullptr && skip->is_boolean() && skip->get<bool>();
}

/// Reads `<state-dir>/openclaw.json` (JSON5) for `resolve_workspace`; an empty object when
/// absent. An unreadable file, or a roster OpenClaw refuses (`roster_problem`), is an
/// error naming it.
template <class Fs>
value read_openclaw_config(Fs& fs, const std::string& state_dir) {
  const std::optional<std::string> bytes = detail::read_state_file(fs, state_dir, config_file_name);
  if (!bytes) return value::object();
  json5::result r = json5::parse(*bytes);
  const std::string shown = paths::join(state_dir, config_file_name);
  if (!r.ok() || !r.data.is_object()) {
    throw error(errc::config_parse,
                shown + (r.ok() ? std::string(" is not an object")
                                : ":" + std::to_string(r.line) + ":" + std::to_string(r.column) +
                                      ": " + *r.error),
                shown);
  }
  if (const auto problem = roster_problem(r.data))
    throw error(errc::invalid_config, "OpenClaw config is invalid: " + shown + ": " + *problem,
                shown);
  return std::move(r.data);
}

// ---------------------------------------------------------------------------------------
// bootstrap
// ---------------------------------------------------------------------------------------

/// The suggested `.gitignore` of the OpenClaw workspace docs.
inline constexpr const char* workspace_gitignore =
    ".DS_Store\n.env\n**/*.key\n**/*.pem\n**/secrets*\n";

/// The standard files seeded when missing (clawport's own short starters), in order.
inline std::vector<std::pair<std::string, std::string>> bootstrap_templates() {
  return {
      {"AGENTS.md",
       "# AGENTS.md\n\nOperating instructions for this agent, and how it uses memory.\n"},
      {"SOUL.md", "# SOUL.md\n\nPersona, tone and boundaries.\n"},
      {"TOOLS.md", "# TOOLS.md\n\nNotes on local tools and conventions (guidance only).\n"},
      {"IDENTITY.md", "# IDENTITY.md\n\nName, vibe and emoji.\n"},
      {"USER.md", "# USER.md\n\nWho the user is and how to address them.\n"},
      {"HEARTBEAT.md", "# HEARTBEAT.md\n\nA tiny checklist for heartbeat runs.\n"},
  };
}

inline constexpr const char* bootstrap_ritual =
    "# BOOTSTRAP.md\n\nFirst-run ritual: get to know the user, fill in IDENTITY.md and USER.md, "
    "then delete this file.\n";

/// Where clawport records upstream's workspace setup marker: upstream keeps
/// `{bootstrapSeededAt, setupCompletedAt}` per workspace in its state database under the
/// state directory (before that, in `<workspace>/.openclaw/workspace-state.json`, which its
/// runtime now refuses until `openclaw doctor --fix` imports it). Offline, clawport keeps
/// the same fields, keyed by workspace path, in this file beside `openclaw.json`.
inline constexpr const char* setup_file_name = "clawport-workspaces.json";
inline constexpr const char* setup_schema = "clawport.openclawWorkspaceSetup.v1";

/// The setup-marker document (`{schemaVersion, workspaces: {<path>: {bootstrapSeededAt?,
/// setupCompletedAt?}}}`); an empty one when absent. One clawport cannot read is an error.
template <class Fs>
value read_workspace_setup(Fs& fs, const std::string& state_dir) {
  const std::optional<std::string> bytes = detail::read_state_file(fs, state_dir, setup_file_name);
  if (!bytes)
    return value::object({{"schemaVersion", setup_schema}, {"workspaces", value::object()}});
  value doc = value::parse(*bytes, nullptr, false);
  const std::string shown = paths::join(state_dir, setup_file_name);
  if (doc.is_discarded() || !doc.is_object() || doc.value("schemaVersion", "") != setup_schema ||
      !doc.contains("workspaces") || !doc["workspaces"].is_object())
    throw error(errc::config_parse,
                shown + " is not a " + std::string(setup_schema) +
                    " document; move it aside and run the bootstrap again",
                shown);
  return doc;
}

/// Where and when the bootstrap records its setup marker (`bootstrap_workspace`).
struct setup_marker_store {
  std::string state_dir;  ///< the file lives here (setup_file_name)
  std::string now;        ///< the instant recorded as bootstrapSeededAt (RFC 3339)
};

namespace detail {

/// Whether the workspace's marker says setup already began or finished.
inline bool has_setup_marker(const value& setup, const std::string& dir) {
  const value& ws = setup["workspaces"];
  if (!ws.contains(dir) || !ws[dir].is_object()) return false;
  for (const char* k : {"bootstrapSeededAt", "setupCompletedAt"})
    if (ws[dir].contains(k) && ws[dir][k].is_string() && !ws[dir][k].get<std::string>().empty())
      return true;
  return false;
}

/// Whether a workspace without BOOTSTRAP.md and without a marker is one upstream treats as
/// already set up (workspace.ts, workspaceProfileLooksConfigured and its user-content
/// evidence): `memory/`, `.git`, `MEMORY.md`, a workspace skill (`skills/<name>/SKILL.md`),
/// or a legacy `.openclaw/workspace-state.json` whose `setupCompletedAt` is set. Upstream
/// also compares SOUL/IDENTITY/USER with its own templates, which clawport does not ship.
template <class Fs>
bool looks_set_up(Fs& fs, const typename Fs::dir& root) {
  for (const char* evidence : {"memory", ".git", "MEMORY.md"})
    if (fs.stat_at(root, evidence)) return true;
  const auto dir_kind = [&](const typename Fs::dir& d, const std::string& n) {
    const auto st = fs.stat_at(d, n);
    return st && st->kind == fs::file_kind::directory;
  };
  if (dir_kind(root, "skills")) {
    auto skills = fs.open_dir_at(root, "skills");
    std::vector<std::string> names;
    fs.for_each_entry(skills, [&](std::string_view n) { names.emplace_back(n); });
    for (const auto& e : names)
      if (dir_kind(skills, e) && fs.stat_at(fs.open_dir_at(skills, e), "SKILL.md")) return true;
  }
  const file_read legacy = read_in_root(fs, root, ".openclaw/workspace-state.json", 1024 * 1024);
  if (legacy.status != read_status::ok) return false;
  const value state = value::parse(legacy.bytes, nullptr, false);
  const value* done = state.is_object() ? get(state, "setupCompletedAt") : nullptr;
  return done != nullptr && done->is_string() && !done->get<std::string>().empty();
}

/// Creates `name` in `root` with `text`, create-only; a half-written file is removed.
template <class Fs>
void seed_file(Fs& fs, const typename Fs::dir& root, const std::string& dir,
               const std::string& name, const std::string& text) {
  try {
    fs::write_new_file(fs, root, name, text, fs::modes::file);
  } catch (const error& e) {
    throw with_context(e, "failed to write " + paths::join(dir, name), paths::join(dir, name),
                       reason_of(e));
  }
}

}  // namespace detail

/// What a bootstrap did: `clawport.openclawWorkspaceBootstrap.v1` as data.
struct bootstrap_result {
  std::string workspace;
  std::optional<std::string> skipped;  ///< why nothing was seeded
  bool brand_new = false;              ///< the workspace was absent or empty
  std::vector<std::string> created;
  std::vector<std::string> kept;           ///< already there, untouched
  std::optional<std::string> marker_file;  ///< where the setup marker was recorded
  std::string seeded_at;                   ///< the marker's bootstrapSeededAt (or setupCompletedAt)
  bool setup_completed = false;  ///< the workspace looked set up: no BOOTSTRAP.md, completed
};

inline value to_json(const bootstrap_result& r) {
  value d = value::object();
  d["schemaVersion"] = "clawport.openclawWorkspaceBootstrap.v1";
  d["workspace"] = r.workspace;
  if (r.skipped) {
    d["skipped"] = *r.skipped;
  } else {
    if (r.marker_file)
      d["setupMarker"] = value::object(
          {{"file", *r.marker_file},
           {r.setup_completed ? "setupCompletedAt" : "bootstrapSeededAt", r.seeded_at}});
    d["brandNew"] = r.brand_new;
  }
  d["created"] = r.created;
  d["kept"] = r.kept;
  return d;
}

/// Seeds the missing standard files into `dir` (created when absent), create-only: an
/// existing file is never touched. `BOOTSTRAP.md` whenever the workspace has no setup
/// marker (upstream's ensureAgentWorkspace), and the marker (`bootstrapSeededAt`) is then
/// recorded in `marker`'s file; without a store there is no marker, so BOOTSTRAP.md is
/// always seeded when missing. `.gitignore` when none exists. `skip_bootstrap`
/// (`agents.defaults.skipBootstrap`) seeds nothing.
template <class Fs>
bootstrap_result seed_workspace(Fs& fs, const std::string& dir, bool skip_bootstrap,
                                const std::optional<setup_marker_store>& marker = std::nullopt) {
  bootstrap_result out;
  out.workspace = dir;
  if (skip_bootstrap) {
    out.skipped = "agents.defaults.skipBootstrap is true";
    return out;
  }
  value setup = marker ? read_workspace_setup(fs, marker->state_dir) : value();
  const bool marked = marker && detail::has_setup_marker(setup, dir);
  std::vector<std::string> made;
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(detail::open_dir_path(fs, dir));
    out.brand_new = fs.is_empty(*root);
  } catch (const error& e) {
    if (e.code() != errc::not_found) throw;
    root.emplace(detail::open_dir_path(fs, dir, &made));
    out.brand_new = true;
  }
  // Upstream's peer rule: no BOOTSTRAP.md for a workspace that is already set up; its
  // marker says setup completed instead.
  out.setup_completed =
      !marked && !fs.stat_at(*root, "BOOTSTRAP.md") && detail::looks_set_up(fs, *root);
  auto files = bootstrap_templates();
  if (!marked && !out.setup_completed) files.emplace_back("BOOTSTRAP.md", bootstrap_ritual);
  files.emplace_back(".gitignore", workspace_gitignore);
  for (const auto& f : files) {
    if (fs.stat_at(*root, f.first)) {
      out.kept.push_back(f.first);
      continue;
    }
    detail::seed_file(fs, *root, dir, f.first, f.second);
    out.created.push_back(f.first);
  }
  fs.sync_filesystem(*root);
  if (marker && !marked) {
    setup["workspaces"][dir] = value::object(
        {{out.setup_completed ? "setupCompletedAt" : "bootstrapSeededAt", marker->now}});
    auto sd = detail::open_state_dir(fs, marker->state_dir, &made);
    publish::replace_file(fs, sd, setup_file_name, ledger_text(setup),
                          paths::join(marker->state_dir, setup_file_name));
    out.marker_file = paths::join(marker->state_dir, setup_file_name);
    out.seeded_at = marker->now;
  }
  return out;
}

/// seed_workspace's document `clawport.openclawWorkspaceBootstrap.v1`.
template <class Fs>
value bootstrap_workspace(Fs& fs, const std::string& dir, bool skip_bootstrap,
                          const std::optional<setup_marker_store>& marker = std::nullopt) {
  return to_json(seed_workspace(fs, dir, skip_bootstrap, marker));
}

// ---------------------------------------------------------------------------------------
// doctor
// ---------------------------------------------------------------------------------------

/// Limits the doctor checks injection against (OpenClaw's defaults).
struct doctor_limits {
  std::uint64_t bootstrap_max_chars = 20000;
  std::uint64_t bootstrap_total_max_chars = 60000;
};

namespace detail {

inline bool ends_with(const std::string& s, const std::string& t) {
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

/// Whether the suggested `.gitignore` patterns (or the user's, read literally) cover `rel`.
inline bool gitignored(const std::vector<std::string>& patterns, const std::string& rel) {
  const std::string base = paths::file_name(rel);
  for (const auto& p : patterns) {
    if (p == rel || p == base || p == "/" + rel) return true;
    if (p == "**/*.key" && ends_with(base, ".key")) return true;
    if (p == "**/*.pem" && ends_with(base, ".pem")) return true;
    if (p == "*.key" && ends_with(base, ".key")) return true;
    if (p == "*.pem" && ends_with(base, ".pem")) return true;
    if ((p == "**/secrets*" || p == "secrets*") && base.rfind("secrets", 0) == 0) return true;
  }
  return false;
}

/// What must not live in a workspace (the doctor reports it, `claw export` never carries
/// it): `state_file_in_workspace`, `credentials_in_workspace`, `session_store_in_workspace`,
/// `secret_in_workspace` (`.env`, `*.key`, `*.pem`, `secrets*`) and `legacy_state_file`,
/// each with what to do.
struct misplaced {
  errc code;
  std::string message;
};

inline std::optional<misplaced> misplaced_file(const std::string& rel) {
  const std::string base = paths::file_name(rel);
  const std::string top = rel.substr(0, rel.find('/'));
  for (const char* n :
       {"openclaw.json", "openclaw.sqlite", "openclaw-agent.sqlite", "auth-profiles.json"})
    if (base == n)
      return misplaced{errc::state_file_in_workspace,
                       base +
                           " belongs in the OpenClaw state directory (~/.openclaw), not the "
                           "workspace; move it out and keep it out of version control."};
  if (top == "credentials" || rel.find("/credentials/") != std::string::npos)
    return misplaced{errc::credentials_in_workspace,
                     "Credentials belong in ~/.openclaw/credentials/; move them out of the "
                     "workspace."};
  if (rel.find("sessions/") != std::string::npos && ends_with(base, ".jsonl"))
    return misplaced{errc::session_store_in_workspace,
                     "Session transcripts belong under ~/.openclaw/agents/<id>/; move them out."};
  if (base == ".env" || ends_with(base, ".key") || ends_with(base, ".pem") ||
      base.rfind("secrets", 0) == 0)
    return misplaced{errc::secret_in_workspace,
                     rel +
                         " looks like a secret; secrets never belong in a workspace or a "
                         "package."};
  if (rel == "openclaw-workspace-state.json" || rel == ".openclaw/workspace-state.json" ||
      base == ".attested" || ends_with(base, ".attested"))
    return misplaced{errc::legacy_state_file,
                     "A legacy workspace state file: run `openclaw doctor --fix`, which imports "
                     "it into the state database and deletes it after verifying the rows."};
  return std::nullopt;
}

/// The number of UTF-16 code units (JavaScript's string length) of UTF-8 bytes.
inline std::uint64_t js_length(const std::string& s) {
  std::uint64_t n = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const unsigned char c = static_cast<unsigned char>(s[k]);
    if ((c & 0xC0) == 0x80) continue;
    n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

/// The patterns of the workspace's `.gitignore` (none when it cannot be read): one a line,
/// trailing `\r` and spaces dropped, blank lines and `#` comments left out.
template <class Fs>
std::vector<std::string> ignore_patterns(Fs& fs, const typename Fs::dir& root) {
  std::vector<std::string> patterns;
  const file_read g = read_in_root(fs, root, ".gitignore", 1024 * 1024);
  if (g.status != read_status::ok) return patterns;
  std::size_t from = 0;
  while (from <= g.bytes.size()) {
    std::size_t nl = g.bytes.find('\n', from);
    if (nl == std::string::npos) nl = g.bytes.size();
    std::string line = g.bytes.substr(from, nl - from);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty() && line[0] != '#') patterns.push_back(line);
    from = nl + 1;
  }
  return patterns;
}

}  // namespace detail

/// One finding of the doctor: what is wrong where, and what to do.
struct workspace_finding {
  errc code = errc::invalid_argument;
  level severity = level::error;
  std::string path;
  std::string message;
};

/// The doctor's report: `clawport.openclawWorkspaceDoctor.v1` as data.
struct doctor_report {
  std::string workspace;
  std::vector<workspace_finding> findings;

  bool ok() const { return findings.empty(); }
};

inline value to_json(const doctor_report& r) {
  value findings = value::array();
  for (const auto& f : r.findings)
    findings.push_back(value::object({{"code", std::string(to_string(f.code))},
                                      {"level", std::string(to_string(f.severity))},
                                      {"path", f.path},
                                      {"message", f.message}}));
  value d = value::object();
  d["schemaVersion"] = "clawport.openclawWorkspaceDoctor.v1";
  d["workspace"] = r.workspace;
  d["ok"] = r.ok();
  d["findings"] = std::move(findings);
  return d;
}

/// Checks `dir` for what must not live in a workspace, legacy state files, a second
/// workspace (`~/openclaw`), missing required bootstrap files and files over the injection
/// limits. Read-only.
template <class Fs>
doctor_report check_workspace(Fs& fs, const std::string& dir, const std::string& home,
                              const doctor_limits& lim = {}) {
  doctor_report report;
  report.workspace = dir;
  const auto find = [&](errc code, level severity, const std::string& path,
                        const std::string& message) {
    report.findings.push_back({code, severity, path, message});
  };
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(detail::open_dir_path(fs, dir));
  } catch (const error& e) {
    find(errc::workspace_missing, level::error, dir,
         std::string(e.what()) + "; run `clawport workspace bootstrap` or `openclaw setup`.");
  }
  std::vector<std::string> all;
  if (root) detail::list_tree(fs, *root, "", all, 32);
  const std::vector<std::string> patterns =
      root ? detail::ignore_patterns(fs, *root) : std::vector<std::string>{};
  for (const auto& rel : all) {
    const std::optional<detail::misplaced> f = detail::misplaced_file(rel);
    if (!f) continue;
    if (f->code == errc::secret_in_workspace) {
      if (!detail::gitignored(patterns, rel))
        find(errc::secret_not_ignored, level::error, rel,
             rel +
                 " looks like a secret and .gitignore does not exclude it; add the suggested "
                 ".gitignore (`.env`, `**/*.key`, `**/*.pem`, `**/secrets*`) or move it out.");
      continue;
    }
    find(f->code, f->code == errc::legacy_state_file ? level::warning : level::error, rel,
         f->message);
  }
  // Required bootstrap files, and the injection limits.
  std::uint64_t total = 0;
  for (const char* name : {"AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md",
                           "HEARTBEAT.md", "BOOTSTRAP.md", "MEMORY.md"}) {
    const bool required = std::string(name) != "USER.md" && std::string(name) != "MEMORY.md" &&
                          std::string(name) != "BOOTSTRAP.md";
    if (!root) break;
    const detail::file_read r = detail::read_in_root(fs, *root, name, 2 * 1024 * 1024);
    if (r.status == detail::read_status::missing) {
      if (required)
        find(errc::bootstrap_file_missing, level::warning, name,
             std::string(name) +
                 " is missing: OpenClaw injects a missing-file marker; run "
                 "`clawport workspace bootstrap` to seed it.");
      continue;
    }
    if (r.status != detail::read_status::ok) {
      find(errc::bootstrap_file_unreadable, level::error, name,
           detail::read_problem(r.status, name, 2 * 1024 * 1024, r.detail));
      continue;
    }
    const std::uint64_t n = detail::js_length(r.bytes);
    total += n;
    if (n > lim.bootstrap_max_chars)
      find(errc::bootstrap_file_too_large, level::warning, name,
           std::string(name) + " has " + std::to_string(n) +
               " characters; injection truncates "
               "it at bootstrapMaxChars (" +
               std::to_string(lim.bootstrap_max_chars) + "). Shorten it.");
  }
  if (total > lim.bootstrap_total_max_chars)
    find(errc::bootstrap_total_too_large, level::warning, ".",
         "The bootstrap files total " + std::to_string(total) +
             " characters; injection truncates at bootstrapTotalMaxChars (" +
             std::to_string(lim.bootstrap_total_max_chars) + ").");
  // A second workspace directory.
  const std::string legacy = home + "/openclaw";
  if (!home.empty() && legacy != dir) {  // no home: nothing to look beside
    try {
      auto parent = detail::open_below_anchor(fs, home, home);  // home is the operator's
      const auto st = fs.stat_at(parent, "openclaw");
      if (st && st->kind == fs::file_kind::directory)
        find(errc::extra_workspace, level::warning, legacy,
             "A second workspace directory (~/openclaw, from older installs) can cause auth "
             "confusion or state divergence: only one workspace is active; merge or remove it.");
    } catch (const error&) {
    }
  }
  return report;
}

/// check_workspace's document `clawport.openclawWorkspaceDoctor.v1`, with `findings[]`,
/// each `{code, level, path, message}` (what to do).
template <class Fs>
value doctor_workspace(Fs& fs, const std::string& dir, const std::string& home,
                       const doctor_limits& lim = {}) {
  return to_json(check_workspace(fs, dir, home, lim));
}

/// Human lines of a resolved workspace, a bootstrap and a doctor report, each through the
/// one terminal-safe renderer (core/text.hpp).
inline std::string workspace_text(const workspace_location& w) {
  text::terminal_lines line;
  line(w.workspace);
  line("  agent: " + w.agent_id);
  line("  rule:  " + w.rule);
  return std::move(line.text);
}

inline std::string workspace_text(const bootstrap_result& r) {
  text::terminal_lines line;
  if (r.skipped) line("Nothing seeded: " + *r.skipped);
  for (const auto& c : r.created) line("created " + c);
  for (const auto& k : r.kept) line("kept    " + k);
  if (r.marker_file) line("marked  bootstrapSeededAt " + r.seeded_at + " in " + *r.marker_file);
  return std::move(line.text);
}

inline std::string workspace_text(const doctor_report& r) {
  text::terminal_lines line;
  for (const auto& f : r.findings)
    line((f.severity == level::error ? "ERROR " : "WARNING ") + std::string(to_string(f.code)) +
         " " + f.path + ": " + f.message);
  if (r.findings.empty()) line("No findings for " + r.workspace);
  return std::move(line.text);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
