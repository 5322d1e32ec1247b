// SPDX-License-Identifier: MIT
// `claw export <agent> --out <dir>` offline (docs/openclaw.md, "Export"): an added Claw's
// workspace back into a package — package.json, CLAW.md with the managed SOUL.md as its
// body, profiles/openclaw.yml from the agent's portable settings, the managed workspace
// files — refused on any drift, never carrying what must not live in a package (the
// workspace doctor's rule), staged, checked with the package reader and published with a
// no-replace rename into a new directory.
#pragma once

#include "../bundle/private_data.hpp"
#include "../formats/json.hpp"
#include "../formats/yaml_writer.hpp"
#include "../fs/copy.hpp"
#include "../fs/modes.hpp"
#include "lifecycle.hpp"
#include "workspace.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The largest CLAW.md an export writes with the SOUL body in it (OpenClaw's 1 MiB).
inline constexpr std::size_t export_claw_md_max = 1024 * 1024;

/// The name and version of a generated package: the one rule for `claw export` and
/// `claw migrate`.
struct package_naming {
  std::string name;
  std::string version;
  std::string naming = "generated";  ///< upstream's form, always (issue 42 §2.5)
  std::string note;                  ///< what the name does not carry over (empty: nothing to say)
};

namespace detail {

inline bool is_bootstrap_name(const std::string& rel) {
  for (const char* n : bootstrap_file_names)
    if (rel == n) return true;
  return false;
}

/// The portable OpenClaw settings of a live agent entry (the profile's `agent`): groupChat,
/// sandbox, tools {profile, allow, alsoAllow, deny, fs.workspaceOnly when true},
/// memory.search {enabled, rememberAcrossConversations, sources}, heartbeat, humanDelay;
/// empty arrays omitted.
inline value portable_settings(const value& entry) {
  value out = value::object();
  const auto drop_empty = [](value v) {
    if (!v.is_object()) return v;
    value o = value::object();
    for (auto it = v.begin(); it != v.end(); ++it)
      if (!(it.value().is_array() && it.value().empty())) o[it.key()] = it.value();
    return o;
  };
  if (const value* g = get(entry, "groupChat")) {
    value x = drop_empty(*g);
    if (!x.empty()) out["groupChat"] = x;
  }
  if (const value* s = get(entry, "sandbox")) out["sandbox"] = *s;
  if (const value* t = get(entry, "tools"); t && t->is_object()) {
    value x = value::object();
    for (const char* k : {"profile", "allow", "alsoAllow", "deny"})
      if (const value* v = get(*t, k); v && !(v->is_array() && v->empty())) x[k] = *v;
    if (const value* f = get(*t, "fs"); f && f->is_object()) {
      if (const value* w = get(*f, "workspaceOnly"); w && w->is_boolean() && w->get<bool>())
        x["fs"] = value::object({{"workspaceOnly", true}});
    }
    if (!x.empty()) out["tools"] = x;
  }
  if (const value* m = get(entry, "memory"); m && m->is_object()) {
    if (const value* s = get(*m, "search"); s && s->is_object()) {
      value x = value::object();
      for (const char* k : {"enabled", "rememberAcrossConversations", "sources"})
        if (const value* v = get(*s, k); v && !(v->is_array() && v->empty())) x[k] = *v;
      if (!x.empty()) out["memory"] = value::object({{"search", x}});
    }
  }
  for (const char* k : {"heartbeat", "humanDelay"})
    if (const value* v = get(entry, k)) out[k] = *v;
  return out;
}

/// The exported profile of a live agent's portable settings (none when there are none):
/// `{schemaVersion: 1, agent, extensions: []}`, as upstream's `portableOpenClawProfile`.
inline std::optional<value> portable_profile(const value& entry) {
  value settings = portable_settings(entry);
  if (settings.empty()) return std::nullopt;
  return value::object(
      {{"schemaVersion", 1}, {"agent", std::move(settings)}, {"extensions", value::array()}});
}

/// `0.0.0-export.<hex>` (upstream's `derivativePackageVersion`): sha256 over
/// JSON.stringify(manifest), then `path \0 bytes \0` for every content file in code-unit
/// order of its path (workspace files by their workspace path, `CLAW.md#body`,
/// `profiles/openclaw.yml`, `BOOTSTRAP.md`).
inline std::string export_version(const value& manifest,
                                  const std::vector<std::pair<std::string, std::string>>& content) {
  std::vector<std::pair<std::string, std::string>> sorted = content;
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return utf16_less(a.first, b.first); });
  std::string all = js_stringify(manifest, 0);
  for (const auto& c : sorted) {
    all += c.first;
    all.push_back('\0');
    all += c.second;
    all.push_back('\0');
  }
  return "0.0.0-export." + digest::sha256_hex(all);
}

/// Every export is named as OpenClaw 2026.9.6 names it: `openclaw-claw-<id>`,
/// `0.0.0-export.<hex>` (a derivative, never the installed package's identity: issue 42
/// §2.5). `note` names the installed package the export came from, when there is one.
inline package_naming name_package(
    const source_identity* installed, const std::string& agent, const value& manifest,
    const std::vector<std::pair<std::string, std::string>>& content) {
  std::string note;
  if (installed != nullptr && installed->kind == "package" && !installed->name.empty())
    note = "exported from " + installed->name + "@" + installed->version +
           "; an export is a new package, named as OpenClaw names it";
  return {"openclaw-claw-" + agent, export_version(manifest, content), "generated", note};
}

/// package.json of a generated package.
inline value package_json_of(const package_naming& n) {
  value package_json = value::object();
  package_json["name"] = n.name;
  package_json["version"] = n.version;
  package_json["type"] = "module";
  package_json["openclaw"] = value::object({{"claw", "CLAW.md"}});
  return package_json;
}

}  // namespace detail

/// What to export.
/// A managed file an export left home, and why.
struct dropped_file {
  std::string path;    ///< workspace-relative
  std::string reason;  ///< private_data
  std::string detail;  ///< which private data (bundle/private_data.hpp)
};

inline value to_json(const dropped_file& f) {
  using t = dropped_file;
  return json::object_of<value>(f, json::field("path", &t::path), json::field("reason", &t::reason),
                                json::field("detail", &t::detail));
}

/// A `claw export` that ran: the package it wrote and how it was named.
struct export_result {
  std::string agent_id;
  std::string output_directory;
  value manifest;                          ///< the exported manifest
  std::optional<value> profile;            ///< openClawProfile, when the Claw has one
  std::vector<std::string> files_written;  ///< package-relative
  std::vector<dropped_file> dropped;       ///< private files left home
  package_naming package;
};

/// An export that ran reports no error.
inline std::optional<error_member> error_member_of(const export_result&) { return std::nullopt; }

/// The `openclaw.clawExportResult.v1` document of an export that ran.
inline value to_json(const export_result& r) {
  value d = document("openclaw.clawExportResult.v1");
  d["status"] = "complete";
  d["agentId"] = r.agent_id;
  d["outputDirectory"] = r.output_directory;
  d["manifest"] = r.manifest;
  if (r.profile) d["openClawProfile"] = *r.profile;
  d["filesWritten"] = r.files_written;
  if (!r.dropped.empty()) d["dropped"] = array_of(r.dropped);
  const package_naming& n = r.package;
  d["package"] = value::object({{"name", n.name}, {"version", n.version}, {"naming", n.naming}});
  if (!n.note.empty()) d["package"]["namingNote"] = n.note;
  return d;
}

/// The human form of an export that ran (after the experimental banner), every line through
/// the one terminal-safe renderer (core/text.hpp).
inline std::string result_text(const export_result& r) {
  text::terminal_lines line;
  line(experimental_banner);
  line("Exported agent " + r.agent_id + " to " + r.output_directory + " as " + r.package.name +
       "@" + r.package.version);
  if (!r.package.note.empty()) line("  note: " + r.package.note);
  for (const auto& f : r.files_written) line("  wrote " + f);
  return std::move(line.text);
}

/// What `export_claw` returns: the typed result once it ran, else why it stopped.
using export_outcome = outcome<export_result>;

struct export_request {
  std::string agent;                     ///< the recorded agent id
  std::string out;                       ///< the new package directory (`~`, relative: req)
  std::optional<std::string> bootstrap;  ///< --bootstrap: a Markdown file as BOOTSTRAP.md
};

namespace detail {

/// Why an export is refused: one of upstream's ClawExportError codes and its message.
struct export_refusal {
  errc code;
  std::string message;
};

/// What an export reads from the install: the ledger record, the live config and agent
/// entry, and the recorded workspace.
struct export_install {
  install_record rec;
  value cfg;
  value entry;
  std::string ws;
};

/// The recorded, complete install of `x.agent` whose live entry still resolves to the
/// recorded workspace.
template <class Fs>
std::optional<export_refusal> find_install(Fs& fs, const destination_request& req,
                                           const export_request& x, const std::string& state_dir,
                                           export_install& in) {
  const ledger l = read_ledger(fs, state_dir);
  if (!l.installs.count(x.agent))
    return export_refusal{errc::claw_not_found, "No Claw is recorded as agent " + x.agent + " in " +
                                                    paths::join(state_dir, ledger_file_name)};
  in.rec = l.installs.at(x.agent);
  if (in.rec.status != "complete")
    return export_refusal{errc::install_incomplete,
                          "The install of " + x.agent + " is " + in.rec.status +
                              ", not complete; finish or remove it first"};
  in.cfg = live_config(fs, state_dir);
  const value* entry = config_member(in.cfg, "agents", "entries", x.agent);
  if (entry == nullptr || !entry->is_object())
    return export_refusal{errc::agent_missing, "Agent " + x.agent + " is not in " +
                                                   paths::join(state_dir, config_file_name)};
  in.entry = *entry;
  in.ws = in.rec.workspace;
  // The workspace by the one rule (agent_workspace): an entry without its own `workspace`
  // (a migrated agent) resolves as `workspace resolve` says, canonical as recorded.
  bool exists = false;
  const std::string live_ws =
      canonical_through_ancestor(fs, agent_workspace(in.cfg, req, x.agent).path, exists);
  if (live_ws != in.ws)
    return export_refusal{errc::workspace_changed, "Agent " + x.agent +
                                                       " no longer resolves to its recorded "
                                                       "workspace " +
                                                       in.ws};
  return std::nullopt;
}

/// Drift refuses an export: the agent entry, a managed workspace file (a consumed
/// BOOTSTRAP.md is not drift), a package or an MCP server changed since the add; and a
/// managed file that must not travel in a package.
template <class Fs>
std::optional<export_refusal> drift_refusal(Fs& fs, const export_request& x,
                                            const export_install& in) {
  const install_status s = status_of_record(fs, in.rec, in.cfg, {});
  if (s.agent_state != "present")
    return export_refusal{errc::agent_drifted,
                          "Agent " + x.agent +
                              " was changed in openclaw.json since it was added; "
                              "restore it or update the Claw first"};
  std::string drifted;
  for (const auto& f : s.files) {
    const bool consumed = f.row.kind == "bootstrap" && f.state == "missing";
    if (f.state != "unchanged" && !consumed)
      drifted += (drifted.empty() ? "" : ", ") + f.path + " (" + f.state + ")";
  }
  if (!drifted.empty())
    return export_refusal{
        errc::workspace_files_drifted,
        "Managed workspace files changed: " + drifted + "; restore them or update the Claw first"};
  for (const auto& p : s.packages)
    if (p.second != "not-installed" && p.second != "present")
      return export_refusal{errc::packages_drifted,
                            "Package " + p.first.kind + ":" + p.first.ref + " is " + p.second};
  for (const auto& m : s.mcp_servers)
    if (m.state != "present")
      return export_refusal{errc::mcp_servers_unavailable,
                            "MCP server " + m.name + " is " + m.state + " in openclaw.json"};
  for (const auto& f : in.rec.workspace_files) {
    const std::string& rel = f.path;
    if (const auto bad = misplaced_file(rel))
      return export_refusal{errc::export_forbidden_file, rel + " must not travel in a package (" +
                                                             std::string(to_string(bad->code)) +
                                                             "): " + bad->message};
  }
  return std::nullopt;
}

/// The managed workspace files' bytes, each re-checked against its recorded digest; the
/// private ones (issue 30: the agent's memory and its user's profile) left home.
struct managed_files {
  std::optional<std::string> soul;
  std::optional<std::string> bootstrap;
  std::vector<std::pair<std::string, std::string>> files;  ///< workspace-relative → bytes
  std::vector<dropped_file> left_home;
  /// workspace-relative → the mode its package copy gets (fs::copied_mode of the file's)
  std::map<std::string, std::uint32_t> modes;
};

/// `claw export` writes a prompt file with its workspace file's permission bits, never
/// wider than the 0600 OpenClaw's export writes (a 0400 file stays 0400; a 0644 one is
/// 0600): fs::copied_mode with the bits beyond the owner's cleared.
inline constexpr std::uint32_t export_umask = fs::modes::permission_bits & ~fs::modes::private_file;

/// The modes of the package files made from prompt files (package-relative: `workspace/<rel>`,
/// `CLAW.md` when SOUL.md is its body); the other files get publish_new_dir's default.
inline std::map<std::string, std::uint32_t> package_modes(const managed_files& mf, bool body) {
  std::map<std::string, std::uint32_t> out;
  for (const auto& [rel, mode] : mf.modes)
    out[rel == "SOUL.md" && body ? "CLAW.md" : "workspace/" + rel] = mode;
  return out;
}

template <class Fs>
std::optional<export_refusal> read_managed_files(Fs& fs, const export_install& in,
                                                 managed_files& out) {
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(open_dir_path(fs, in.ws));
  } catch (const error& e) {
    return export_refusal{errc::workspace_files_drifted, e.what()};
  }
  for (const auto& f : in.rec.workspace_files) {
    const std::string& rel = f.path;
    if (const auto kind = bundle::private_workspace_entry(rel)) {
      out.left_home.push_back({rel, "private_data", std::string(bundle::private_reason(*kind))});
      continue;
    }
    const file_read r = read_in_root(fs, *root, rel, state_file_max_bytes);
    if (f.kind == "bootstrap" && r.status == read_status::missing) continue;
    if (r.status != read_status::ok || sha256_digest(r.bytes) != f.content_digest)
      return export_refusal{errc::workspace_files_drifted, rel + " changed while it was read"};
    if (f.kind == "bootstrap") {
      out.bootstrap = r.bytes;
      continue;
    }
    at_rel(fs, *root, rel, [&](const typename Fs::dir& d, const std::string& n) {
      if (const auto st = fs.stat_at(d, n))
        out.modes[rel] = fs::copied_mode(st->mode, export_umask);
    });
    if (rel == "SOUL.md") {
      out.soul = r.bytes;
    } else {
      out.files.emplace_back(rel, r.bytes);
    }
  }
  return std::nullopt;
}

/// `--bootstrap`: a non-blank UTF-8 Markdown file that replaces the managed BOOTSTRAP.md.
template <class Fs>
std::optional<export_refusal> read_bootstrap_option(Fs& fs, const destination_request& req,
                                                    const std::string& option, managed_files& out) {
  const std::string p = lexical_absolute(expand_home(option, req.home), req.cwd);
  std::optional<std::string> bytes;
  try {
    bytes = read_state_file(fs, parent_of(p), paths::file_name(p));
  } catch (const error& e) {
    return export_refusal{errc::export_bootstrap_invalid, e.what()};
  }
  if (!bytes)
    return export_refusal{errc::export_bootstrap_invalid, "--bootstrap " + p + " does not exist"};
  if (!clawport::detail::valid_utf8(*bytes) || text::js_trim(*bytes).empty())
    return export_refusal{errc::export_bootstrap_invalid,
                          "--bootstrap " + p + " must be non-blank UTF-8 Markdown"};
  out.bootstrap = *bytes;
  return std::nullopt;
}

/// The manifest's parts taken from the install: the agent, its packages (kind:ref:version
/// order), MCP servers, cron jobs (id order, without the host's fields) and the profile
/// of its portable settings.
struct export_parts {
  value agent;
  value packages = value::array();
  value mcp = value::object();
  value crons = value::array();
  std::optional<value> profile;
};

inline value exported_packages(const install_record& rec) {
  std::vector<package_ref> p = rec.packages;
  const auto key = [](const package_ref& v) { return v.kind + ":" + v.ref + ":" + v.version; };
  std::sort(p.begin(), p.end(),
            [&](const package_ref& a, const package_ref& b) { return utf16_less(key(a), key(b)); });
  value out = value::array();
  for (const auto& v : p)  // every recorded package is a ClawHub one
    out.push_back(value::object(
        {{"kind", v.kind}, {"source", "clawhub"}, {"ref", v.ref}, {"version", v.version}}));
  return out;
}

inline value exported_crons(const install_record& rec) {
  // Sorted by the record's manifest id (add and update record the job under its own id).
  std::vector<const cron_ref*> j;
  for (const auto& c : rec.cron_jobs) j.push_back(&c);
  std::sort(j.begin(), j.end(), [](const cron_ref* a, const cron_ref* b) {
    return utf16_less(a->manifest_id, b->manifest_id);
  });
  value out = value::array();
  for (const cron_ref* c : j) {
    value job = c->job;
    job.erase("agentId");
    job.erase("deliveryResolution");
    out.push_back(std::move(job));
  }
  return out;
}

inline export_parts gather_parts(const export_request& x, const export_install& in) {
  export_parts parts;
  parts.agent = value::object({{"id", x.agent}});
  for (const char* k : {"name", "description", "identity"})
    if (const value* v = get(in.entry, k)) parts.agent[k] = *v;
  parts.packages = exported_packages(in.rec);
  // By name, as upstream's install record lists them (code-unit order).
  std::vector<std::string> names;
  for (const auto& m : in.rec.mcp_servers) names.push_back(m.name);
  std::sort(names.begin(), names.end(), utf16_less);
  for (const auto& name : names) parts.mcp[name] = *config_member(in.cfg, "mcp", "servers", name);
  parts.crons = exported_crons(in.rec);
  parts.profile = portable_profile(in.entry);
  return parts;
}

/// The package text: the manifest, CLAW.md (SOUL.md as its body when `body`) and every
/// content file (package-relative → bytes; `CLAW.md#body` stands for the body).
struct export_text {
  value manifest;
  std::string claw_md;
  std::vector<std::pair<std::string, std::string>> content;
  /// What the version hashes: the content with workspace files by their workspace path.
  std::vector<std::pair<std::string, std::string>> hashed;
};

inline export_text build_export_text(const export_parts& parts, const managed_files& mf,
                                     bool body) {
  export_text t;
  value boot = value::object();
  value extra = value::array();
  const auto add = [&t](const std::string& path, const std::string& hashed_as,
                        const std::string& bytes) {
    t.content.emplace_back(path, bytes);
    t.hashed.emplace_back(hashed_as, bytes);
  };
  // Upstream's order: the managed files as recorded (bootstrap names keep that order too).
  const auto place = [&](const std::string& rel, const std::string& bytes) {
    const std::string src = "workspace/" + rel;
    add(src, rel, bytes);
    if (is_bootstrap_name(rel)) {
      boot[rel] = value::object({{"source", src}});
    } else {
      extra.push_back(value::object({{"source", src}, {"path", rel}}));
    }
  };
  if (mf.soul && !body) place("SOUL.md", *mf.soul);
  for (const auto& f : mf.files) place(f.first, f.second);
  // Every member, empty ones included (`packages: []`, `cronJobs: []`), as upstream writes it.
  t.manifest = value::object();
  t.manifest["schemaVersion"] = 1;
  t.manifest["agent"] = parts.agent;
  t.manifest["workspace"] = value::object({{"bootstrapFiles", boot}, {"files", extra}});
  t.manifest["packages"] = parts.packages;
  t.manifest["mcpServers"] = parts.mcp;
  t.manifest["cronJobs"] = parts.crons;
  t.claw_md = "---\n" + yaml::to_yaml(t.manifest) + "---\n";
  if (body) {
    t.claw_md += *mf.soul;
    t.content.emplace_back("CLAW.md#body", *mf.soul);
    t.hashed.emplace_back("CLAW.md#body", *mf.soul);
  }
  if (parts.profile) {
    const std::string profile = yaml::to_yaml(*parts.profile);
    add("profiles/openclaw.yml", "profiles/openclaw.yml", profile);
  }
  if (mf.bootstrap) add("BOOTSTRAP.md", "BOOTSTRAP.md", *mf.bootstrap);
  return t;
}

/// The exported manifest and profile must validate (else a clawport bug is refused).
inline std::optional<export_refusal> check_exported(const export_text& t,
                                                    const export_parts& parts) {
  const manifest_result mcheck = validate_manifest(t.manifest);
  if (!mcheck.ok())
    return export_refusal{
        errc::export_manifest_invalid,
        "The exported manifest does not validate: " + json::dump(to_json(mcheck.diagnostics), -1)};
  if (parts.profile) {
    const profile_result pcheck = validate_profile(*parts.profile, "$.profiles.openclaw");
    if (!pcheck.ok())
      return export_refusal{
          errc::export_openclaw_profile_invalid,
          "The exported profile does not validate: " + json::dump(to_json(pcheck.diagnostics), -1)};
  }
  return std::nullopt;
}

/// The files of the package in name order: package.json, CLAW.md and the content.
inline std::vector<std::pair<std::string, std::string>> package_tree(const export_text& t,
                                                                     const value& package_json) {
  std::vector<std::pair<std::string, std::string>> tree;
  tree.emplace_back("package.json", js_stringify(package_json, 2) + "\n");
  tree.emplace_back("CLAW.md", t.claw_md);
  for (const auto& c : t.content)
    if (c.first != "CLAW.md#body") tree.emplace_back(c.first, c.second);
  std::sort(tree.begin(), tree.end());
  return tree;
}

/// The output: a new directory only, published after the staged copy reads clean with
/// the package reader; a failure after publishing removes it again.
template <class Fs>
std::optional<export_refusal> write_export(
    Fs& fs, const std::string& out_dir,
    const std::vector<std::pair<std::string, std::string>>& tree,
    const std::map<std::string, std::uint32_t>& modes) {
  try {
    auto parent = open_dir_path(fs, parent_of(out_dir));
    if (fs.stat_at(parent, paths::file_name(out_dir)))
      return export_refusal{errc::output_collision, out_dir +
                                                        " already exists; export writes a new "
                                                        "directory only"};
  } catch (const error& e) {
    if (e.code() != errc::not_found) return export_refusal{errc::export_write_failed, e.what()};
  }
  std::vector<std::string> created;
  bool published = false;
  try {
    publish_new_dir(
        fs, out_dir, tree, created, published,
        [&](const std::string& staged) {
          const claw_package pkg = read_package(fs, staged);
          bool clean = pkg.ok() && pkg.diagnostics.empty();
          for (const auto& src : pkg.sources) clean = clean && !src.problem;
          if (!clean)
            throw error(errc::config_invalid,
                        "the exported package does not read clean (a clawport bug): " +
                            json::dump(to_json(pkg.diagnostics), -1),
                        out_dir);
        },
        new_dir_options{std::string(), modes});
  } catch (const error& e) {
    std::string also;
    if (published) {
      try {
        auto parent = open_dir_path(fs, parent_of(out_dir));
        fs.remove_tree_at(parent, paths::file_name(out_dir));
      } catch (const error& again) {
        also = std::string("; ") + out_dir + " could not be removed: " + again.what();
      }
    }
    remove_created_dirs(fs, created);
    const bool collided = e.code() == errc::destination_refused || e.sys_errno() == EEXIST;
    return export_refusal{collided ? errc::output_collision : errc::export_write_failed,
                          e.what() + also};
  }
  return std::nullopt;
}

}  // namespace detail

/// `claw export`: the typed `export_result`, or a failure whose code is one of upstream's
/// ClawExportError codes (`claw_not_found`, `install_incomplete`, `agent_missing`,
/// `workspace_changed`, `agent_drifted`, `workspace_files_drifted`, `packages_drifted`,
/// `mcp_servers_unavailable`, `output_collision`, `export_manifest_invalid`,
/// `export_openclaw_profile_invalid`, `export_write_failed`) or `export_forbidden_file` /
/// `export_bootstrap_invalid`. A refusal writes nothing; a failure after staging leaves no
/// directory behind.
template <class Fs>
export_outcome export_claw(Fs& fs, const destination_request& req, const export_request& x) {
  constexpr const char* schema = "openclaw.clawExportResult.v1";
  export_outcome out;
  const auto fail = [&](const detail::export_refusal& r) {
    out.failed = failure_of(schema, r.code, r.message + "; nothing was written.");
    out.failed->agent_id = x.agent;
    return out;
  };
  const std::string state_dir = state_dir_of(req);
  const std::string out_dir =
      detail::lexical_absolute(detail::expand_home(x.out, req.home), req.cwd);
  detail::export_install in;
  if (const auto r = detail::find_install(fs, req, x, state_dir, in)) return fail(*r);
  if (const auto r = detail::drift_refusal(fs, x, in)) return fail(*r);
  detail::managed_files mf;
  if (const auto r = detail::read_managed_files(fs, in, mf)) return fail(*r);
  if (x.bootstrap) {
    if (const auto r = detail::read_bootstrap_option(fs, req, *x.bootstrap, mf)) return fail(*r);
  }
  const detail::export_parts parts = detail::gather_parts(x, in);
  const bool soul_valid =
      mf.soul && clawport::detail::valid_utf8(*mf.soul) && !text::js_trim(*mf.soul).empty();
  bool body = soul_valid;
  detail::export_text text = detail::build_export_text(parts, mf, body);
  if (body && text.claw_md.size() > export_claw_md_max) {
    body = false;
    text = detail::build_export_text(parts, mf, false);
  }
  if (const auto r = detail::check_exported(text, parts)) return fail(*r);
  const package_naming naming =
      detail::name_package(&in.rec.claw, x.agent, text.manifest, text.hashed);
  const value package_json = detail::package_json_of(naming);
  const auto tree = detail::package_tree(text, package_json);
  if (const auto r = detail::write_export(fs, out_dir, tree, detail::package_modes(mf, body)))
    return fail(*r);

  export_result res{x.agent, out_dir, text.manifest, parts.profile, {}, mf.left_home, naming};
  for (const auto& t : tree) res.files_written.push_back(t.first);
  out.result = std::move(res);
  out.ok = true;
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
