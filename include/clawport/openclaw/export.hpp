// SPDX-License-Identifier: MIT
// `claw export <agent> --out <dir>` offline (docs/openclaw.md, "Export"): an added Claw's
// workspace back into a package — package.json, CLAW.md with the managed SOUL.md as its
// body, profiles/openclaw.yml from the agent's portable settings, the managed workspace
// files — refused on any drift, never carrying what must not live in a package (the
// workspace doctor's rule), staged, checked with the package reader and published with a
// no-replace rename into a new directory.
#pragma once

#include "../bundle/private_data.hpp"
#include "../core/json.hpp"
#include "lifecycle.hpp"
#include "workspace.hpp"
#include "yaml_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The largest CLAW.md an export writes with the SOUL body in it (OpenClaw's 1 MiB).
inline constexpr std::size_t export_claw_md_max = 1024 * 1024;

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

/// `0.0.0-export.<hex>`: sha256 over JSON.stringify(manifest), then `path \0 bytes \0` for
/// every content file in code-unit order of its path.
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

}  // namespace detail

/// What to export.
struct export_request {
  std::string agent;                     ///< the recorded agent id
  std::string out;                       ///< the new package directory (`~`, relative: req)
  std::optional<std::string> bootstrap;  ///< --bootstrap: a Markdown file as BOOTSTRAP.md
};

/// `claw export`: the `openclaw.clawExportResult.v1` document, or a failure document whose
/// `error.code` is one of upstream's ClawExportError codes (`claw_not_found`,
/// `install_incomplete`, `agent_missing`, `workspace_changed`, `agent_drifted`,
/// `workspace_files_drifted`, `packages_drifted`, `mcp_servers_unavailable`,
/// `output_collision`, `export_manifest_invalid`, `export_openclaw_profile_invalid`,
/// `export_write_failed`) or `export_forbidden_file` / `export_bootstrap_invalid`. A refusal
/// writes nothing; a failure after staging leaves no directory behind.
template <class Fs>
outcome_doc export_claw(Fs& fs, const destination_request& req, const export_request& x) {
  constexpr const char* schema = "openclaw.clawExportResult.v1";
  outcome_doc out;
  const auto fail = [&](errc code, const std::string& message) {
    out.document = detail::failure_doc(schema, "failed", std::string(to_string(code)),
                                       message + "; nothing was written.");
    out.document["agentId"] = x.agent;
    return out;
  };
  const std::string state_dir = state_dir_of(req);
  const std::string out_dir =
      detail::lexical_absolute(detail::expand_home(x.out, req.home), req.cwd);
  const ledger l = read_ledger(fs, state_dir);
  if (!l.installs().contains(x.agent))
    return fail(errc::claw_not_found, "No Claw is recorded as agent " + x.agent + " in " +
                                          detail::join_path(state_dir, ledger_file_name));
  const value& rec = l.installs()[x.agent];
  if (rec["status"] != "complete")
    return fail(errc::install_incomplete, "The install of " + x.agent + " is " +
                                              rec["status"].get<std::string>() +
                                              ", not complete; finish or remove it first");
  const value cfg = detail::live_config(fs, state_dir);
  const value* entry = detail::config_member(cfg, "agents", "entries", x.agent);
  if (entry == nullptr || !entry->is_object())
    return fail(errc::agent_missing, "Agent " + x.agent + " is not in " +
                                         detail::join_path(state_dir, config_file_name));
  const std::string ws = rec["workspace"].get<std::string>();
  const value* live_ws = detail::get(*entry, "workspace");
  if (live_ws == nullptr || !live_ws->is_string() ||
      detail::lexical_absolute(detail::expand_home(live_ws->get<std::string>(), req.home),
                               req.cwd) != ws)
    return fail(errc::workspace_changed, "Agent " + x.agent +
                                             " no longer resolves to its recorded "
                                             "workspace " +
                                             ws);
  const value s = detail::record_status(fs, x.agent, rec, cfg, {});
  if (s["agentState"] != "present")
    return fail(errc::agent_drifted, "Agent " + x.agent +
                                         " was changed in openclaw.json since it was added; "
                                         "restore it or update the Claw first");
  std::string drifted;
  for (std::size_t k = 0; k < s["workspaceFiles"].size(); ++k) {
    const value& f = s["workspaceFiles"][k];
    // A consumed BOOTSTRAP.md (seeded once, deleted by the agent) is not drift.
    const bool consumed =
        rec["workspaceFiles"][k]["kind"] == "bootstrap" && f["state"] == "missing";
    if (f["state"] != "unchanged" && !consumed)
      drifted += (drifted.empty() ? "" : ", ") + f["path"].get<std::string>() + " (" +
                 f["state"].get<std::string>() + ")";
  }
  if (!drifted.empty())
    return fail(errc::workspace_files_drifted, "Managed workspace files changed: " + drifted +
                                                   "; restore them or update the Claw first");
  for (const auto& p : s["packages"])
    if (p["state"] != "not-installed" && p["state"] != "present")
      return fail(errc::packages_drifted, "Package " + p["kind"].get<std::string>() + ":" +
                                              p["ref"].get<std::string>() + " is " +
                                              p["state"].get<std::string>());
  for (const auto& m : s["mcpServers"])
    if (m["state"] != "present")
      return fail(errc::mcp_servers_unavailable, "MCP server " + m["name"].get<std::string>() +
                                                     " is " + m["state"].get<std::string>() +
                                                     " in openclaw.json");
  for (const auto& f : rec["workspaceFiles"]) {
    const std::string rel = f["path"].get<std::string>();
    if (const auto bad = detail::misplaced_file(rel))
      return fail(errc::export_forbidden_file,
                  rel + " must not travel in a package (" + bad->code + "): " + bad->message);
  }

  // The managed files' bytes, re-checked against the ledger.
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(detail::open_dir_path(fs, ws));
  } catch (const error& e) {
    return fail(errc::workspace_files_drifted, e.what());
  }
  std::optional<std::string> soul;
  std::optional<std::string> bootstrap;
  std::vector<std::pair<std::string, std::string>> files;  // workspace-relative → bytes
  value left_home = value::array();  // issue 30: the agent's memory and its user's profile
  for (const auto& f : rec["workspaceFiles"]) {
    const std::string rel = f["path"].get<std::string>();
    if (const auto kind = bundle::private_workspace_entry(rel)) {
      left_home.push_back(value::object({{"path", rel},
                                         {"reason", "private_data"},
                                         {"detail", std::string(bundle::private_reason(*kind))}}));
      continue;
    }
    const detail::file_read r = detail::read_in_root(fs, *root, rel, state_file_max_bytes);
    if (f["kind"] == "bootstrap" && r.status == detail::read_status::missing) continue;
    if (r.status != detail::read_status::ok ||
        sha256_digest(r.bytes) != f["contentDigest"].get<std::string>())
      return fail(errc::workspace_files_drifted, rel + " changed while it was read");
    if (f["kind"] == "bootstrap") {
      bootstrap = r.bytes;
    } else if (rel == "SOUL.md") {
      soul = r.bytes;
    } else {
      files.emplace_back(rel, r.bytes);
    }
  }
  if (x.bootstrap) {
    const std::string p =
        detail::lexical_absolute(detail::expand_home(*x.bootstrap, req.home), req.cwd);
    std::optional<std::string> bytes;
    try {
      bytes = detail::read_state_file(fs, detail::parent_of(p), detail::base_name(p));
    } catch (const error& e) {
      return fail(errc::export_bootstrap_invalid, e.what());
    }
    if (!bytes) return fail(errc::export_bootstrap_invalid, "--bootstrap " + p + " does not exist");
    if (!clawport::detail::valid_utf8(*bytes) || js_trim(*bytes).empty())
      return fail(errc::export_bootstrap_invalid,
                  "--bootstrap " + p + " must be non-blank UTF-8 Markdown");
    bootstrap = *bytes;
  }

  // The manifest.
  value agent = value::object({{"id", x.agent}});
  for (const char* k : {"name", "description", "identity"})
    if (const value* v = detail::get(*entry, k)) agent[k] = *v;
  const bool soul_valid = soul && clawport::detail::valid_utf8(*soul) && !js_trim(*soul).empty();
  value packages = value::array();
  {
    std::vector<value> p;
    for (const auto& r : rec["packages"])
      p.push_back(value::object({{"kind", r["kind"]},
                                 {"source", r.value("source", "clawhub")},
                                 {"ref", r["ref"]},
                                 {"version", r["version"]}}));
    const auto key = [](const value& v) {
      return v["kind"].get<std::string>() + ":" + v["ref"].get<std::string>() + ":" +
             v["version"].get<std::string>();
    };
    std::sort(p.begin(), p.end(),
              [&](const value& a, const value& b) { return utf16_less(key(a), key(b)); });
    for (auto& v : p) packages.push_back(std::move(v));
  }
  value mcp = value::object();
  for (const auto& m : rec["mcpServers"]) {
    const std::string name = m["name"].get<std::string>();
    mcp[name] = *detail::config_member(cfg, "mcp", "servers", name);
  }
  value crons = value::array();
  {
    std::vector<value> j;
    for (const auto& c : rec["cronJobs"]) {
      value job = c["job"];
      job.erase("agentId");
      job.erase("deliveryResolution");
      j.push_back(std::move(job));
    }
    std::sort(j.begin(), j.end(), [](const value& a, const value& b) {
      return utf16_less(a["id"].get<std::string>(), b["id"].get<std::string>());
    });
    for (auto& v : j) crons.push_back(std::move(v));
  }
  const value settings = detail::portable_settings(*entry);
  std::optional<value> profile;
  if (!settings.empty()) profile = value::object({{"schemaVersion", 1}, {"agent", settings}});

  const auto build = [&](bool body, value& manifest, std::string& claw_md,
                         std::vector<std::pair<std::string, std::string>>& content) {
    value boot = value::object();
    value extra = value::array();
    content.clear();
    const auto place = [&](const std::string& rel, const std::string& bytes) {
      const std::string src = "workspace/" + rel;
      content.emplace_back(src, bytes);
      if (detail::is_bootstrap_name(rel)) {
        boot[rel] = value::object({{"source", src}});
      } else {
        extra.push_back(value::object({{"source", src}, {"path", rel}}));
      }
    };
    if (soul && !body) place("SOUL.md", *soul);
    for (const auto& f : files) place(f.first, f.second);
    value ordered = value::object();
    for (const char* n : bootstrap_file_names)
      if (boot.contains(n)) ordered[n] = boot[n];
    manifest = value::object();
    manifest["schemaVersion"] = 1;
    manifest["agent"] = agent;
    value w = value::object();
    if (!ordered.empty()) w["bootstrapFiles"] = ordered;
    if (!extra.empty()) w["files"] = extra;
    manifest["workspace"] = w;
    if (!packages.empty()) manifest["packages"] = packages;
    if (!mcp.empty()) manifest["mcpServers"] = mcp;
    if (!crons.empty()) manifest["cronJobs"] = crons;
    claw_md = "---\n" + to_yaml(manifest) + "---\n";
    if (body) {
      claw_md += *soul;
      content.emplace_back("CLAW.md#body", *soul);
    }
    if (profile) content.emplace_back("profiles/openclaw.yml", to_yaml(*profile));
    if (bootstrap) content.emplace_back("BOOTSTRAP.md", *bootstrap);
  };
  value manifest;
  std::string claw_md;
  std::vector<std::pair<std::string, std::string>> content;
  build(soul_valid, manifest, claw_md, content);
  if (soul_valid && claw_md.size() > export_claw_md_max) build(false, manifest, claw_md, content);
  const manifest_result mcheck = validate_manifest(manifest);
  if (!mcheck.ok())
    return fail(errc::export_manifest_invalid, "The exported manifest does not validate: " +
                                                   json::dump(to_json(mcheck.diagnostics), -1));
  if (profile) {
    const profile_result pcheck = validate_profile(*profile, "$.profiles.openclaw");
    if (!pcheck.ok())
      return fail(
          errc::export_openclaw_profile_invalid,
          "The exported profile does not validate: " + json::dump(to_json(pcheck.diagnostics), -1));
  }
  value package_json = value::object();
  package_json["name"] = "openclaw-claw-" + x.agent;
  package_json["version"] = detail::export_version(manifest, content);
  package_json["type"] = "module";
  package_json["openclaw"] = value::object({{"claw", "CLAW.md"}});

  std::vector<std::pair<std::string, std::string>> tree;
  tree.emplace_back("package.json", js_stringify(package_json, 2) + "\n");
  tree.emplace_back("CLAW.md", claw_md);
  for (const auto& c : content)
    if (c.first != "CLAW.md#body") tree.emplace_back(c.first, c.second);
  std::sort(tree.begin(), tree.end());

  // The output: a new directory only.
  try {
    auto parent = detail::open_dir_path(fs, detail::parent_of(out_dir));
    if (fs.stat_at(parent, detail::base_name(out_dir)))
      return fail(errc::output_collision, out_dir +
                                              " already exists; export writes a new directory "
                                              "only");
  } catch (const error& e) {
    if (e.code() != errc::not_found) return fail(errc::export_write_failed, e.what());
  }
  std::vector<std::string> created;
  bool published = false;
  try {
    detail::publish_new_dir(fs, out_dir, tree, created, published, [&](const std::string& staged) {
      const claw_package pkg = read_package(fs, staged);
      bool clean = pkg.ok() && pkg.diagnostics.empty();
      for (const auto& src : pkg.sources) clean = clean && !src.problem;
      if (!clean)
        throw error(errc::config_invalid,
                    "the exported package does not read clean (a clawport bug): " +
                        json::dump(to_json(pkg.diagnostics), -1),
                    out_dir);
    });
  } catch (const error& e) {
    std::string also;
    if (published) {
      try {
        auto parent = detail::open_dir_path(fs, detail::parent_of(out_dir));
        fs.remove_tree_at(parent, detail::base_name(out_dir));
      } catch (const error& again) {
        also = std::string("; ") + out_dir + " could not be removed: " + again.what();
      }
    }
    detail::remove_created_dirs(fs, created);
    const bool collided = e.code() == errc::destination_refused || e.sys_errno() == EEXIST;
    return fail(collided ? errc::output_collision : errc::export_write_failed, e.what() + also);
  }

  value d = value::object();
  d["schemaVersion"] = schema;
  d["stability"] = stability;
  d["status"] = "complete";
  d["agentId"] = x.agent;
  d["outputDirectory"] = out_dir;
  d["manifest"] = manifest;
  if (profile) d["openClawProfile"] = *profile;
  value written = value::array();
  for (const auto& t : tree) written.push_back(t.first);
  d["filesWritten"] = written;
  if (!left_home.empty()) d["dropped"] = left_home;
  d["package"] =
      value::object({{"name", package_json["name"]}, {"version", package_json["version"]}});
  out.document = std::move(d);
  out.ok = true;
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
