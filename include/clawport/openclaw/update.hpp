// SPDX-License-Identifier: MIT
// `claw update <claw-or-agent> [--from <pkg>]` offline (docs/openclaw.md, "Update"): the
// update plan `openclaw.clawUpdatePlan.v1` from the ledger, the disk and the new package
// (by default the recorded source), its own planIntegrity, drift refused as `manual`
// actions; the apply stages every new file beside its destination, renames them in, writes
// openclaw.json once and the ledger last, and undoes everything in reverse on any failure.
// ClawHub packages and cron jobs cannot be applied offline: they are recorded as not
// installed / not applied and the result is `partial` with `update_partial`.
#pragma once

#include "lifecycle.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// An update plan, with what apply needs besides the document.
struct update_plan {
  value plan;  ///< `openclaw.clawUpdatePlan.v1`
  bool blocked = false;
  std::optional<claw_package> package;  ///< the target package, when it was read
  value target = value();               ///< the target add plan (built against the record)
};

namespace detail {

/// The install records `target` names (agent id or Claw package name), sorted.
inline std::vector<std::string> installs_named(const ledger& l, const std::string& target) {
  std::vector<std::string> found;
  for (const auto& id : sorted_ids(l.installs()))
    if (matches(id, l.installs()[id], target)) found.push_back(id);
  return found;
}

inline std::string digest_of(const value& v) {
  return digest::sha256_prefixed(stable_stringify(v));
}

inline value claw_summary(const value& claw) {
  return value::object(
      {{"name", claw["name"]}, {"version", claw["version"]}, {"integrity", claw["integrity"]}});
}

/// A cron job declaration as the add plan records it, without what the plan adds.
inline value cron_declaration(value job) {
  job.erase("agentId");
  job.erase("deliveryResolution");
  job.erase("expectedState");
  return job;
}

}  // namespace detail

/// `claw update <target> [--from <pkg>] --dry-run`: the update plan against the ledger, the
/// live openclaw.json, the workspace and the target package. Changes nothing.
template <class Fs>
update_plan plan_update(Fs& fs, const destination_request& req, const std::string& target,
                        const std::optional<std::string>& from = std::nullopt) {
  update_plan out;
  const std::string state_dir = state_dir_of(req);
  const ledger l = read_ledger(fs, state_dir);
  value actions = value::array();
  value blockers = value::array();
  value caps = value::array();
  value diags = value::array();
  const auto block = [&](const std::string& code, const std::string& msg) {
    blockers.push_back(value::object({{"code", code}, {"message", msg}}));
  };
  value plan = value::object();
  plan["schemaVersion"] = "openclaw.clawUpdatePlan.v1";
  plan["stability"] = stability;
  plan["dryRun"] = true;
  plan["mutationAllowed"] = false;
  plan["target"] = target;
  const std::vector<std::string> found = detail::installs_named(l, target);
  plan["found"] = found.size() == 1;
  if (found.empty())
    block("claw_not_found", "No Claw installed as agent or package " + target + ".");
  if (found.size() > 1)
    block("claw_ambiguous", target + " names more than one installed Claw; name the agent id.");
  if (found.size() == 1) {
    const std::string id = found.front();
    const value& rec = l.installs()[id];
    plan["agentId"] = id;
    plan["currentClaw"] = detail::claw_summary(rec["claw"]);
    const std::string ws = rec["workspace"].get<std::string>();
    if (rec["status"] != "complete")
      block("update_target_blocked", "The install of " + id + " is " +
                                         rec["status"].get<std::string>() +
                                         ", not complete; finish or remove it first.");
    // The target package: --from, else the recorded source.
    const std::string source = from ? *from
                               : rec["claw"]["kind"] == "package"
                                   ? rec["claw"]["packageRoot"].get<std::string>()
                                   : rec["claw"]["manifestPath"].get<std::string>();
    plan["source"] = source;
    claw_package pkg = read_package(fs, source);
    if (!pkg.ok()) {
      bool unreadable = false;
      for (const auto& d : pkg.diagnostics) {
        if (d.level != level::error) continue;
        unreadable = unreadable || d.code == "read_failed" || d.code == "package_read_failed" ||
                     d.code == "unsupported_source";
        diags.push_back(to_json(d));
      }
      if (unreadable && !from) {
        block("recorded_source_unavailable",
              "The recorded source " + source +
                  " cannot be read; pass --from <package> to update from another copy.");
      } else {
        block("update_invalid", "The package " + source + " is invalid (run claw inspect).");
      }
    } else {
      for (const auto& d : pkg.diagnostics) diags.push_back(to_json(d));
      if (pkg.source.name != rec["claw"]["name"].get<std::string>())
        block("claw_identity_mismatch", "The package " + pkg.source.name +
                                            " is not the installed Claw " +
                                            rec["claw"]["name"].get<std::string>() + ".");
      plan["targetClaw"] = detail::claw_summary(to_json(pkg.source));
      // The target add plan against the recorded identity: the agent id and workspace are
      // immutable; collisions with itself and ClawHub preflight are not update blockers.
      destination dest;
      dest.requested_id = pkg.manifest["agent"]["id"].get<std::string>();
      dest.final_id = id;
      dest.workspace = ws;
      host_state host;
      host.state_dir = state_dir;
      add_options opt;
      opt.without_packages = true;
      const add_plan tp = build_add_plan(pkg, dest, host, offline_resolver{}, opt);
      for (const auto& b : tp.plan["blockers"]) {
        const std::string code = b["code"].get<std::string>();
        if (code == "agent_id_collision" || code == "workspace_collision" ||
            code == "mcp_server_collision" || b.value("path", "").rfind("$.packages", 0) == 0)
          continue;
        block(code, b["message"].get<std::string>());
      }
      out.target = tp.plan;
      out.package = std::move(pkg);
    }
    std::optional<value> cfg;
    try {
      cfg = detail::live_config(fs, state_dir);
    } catch (const error& e) {
      block("mcp_config_unavailable", e.what());
    }
    if (cfg && !out.target.is_null()) {
      const value s = detail::record_status(fs, id, rec, *cfg, {});
      const value& tp = out.target;
      const auto act = [&](const std::string& kind, const std::string& aid, const std::string& verb,
                           value details, const std::optional<std::string>& manual = {},
                           const std::string& code = "") {
        value a = value::object();
        a["kind"] = kind;
        a["id"] = aid;
        a["action"] = manual ? "manual" : verb;
        a["blocked"] = manual.has_value();
        if (manual) a["reason"] = *manual;
        for (auto it = details.begin(); it != details.end(); ++it) a[it.key()] = it.value();
        actions.push_back(std::move(a));
        if (manual) block(code, *manual);
      };
      const auto cap = [&](const std::string& kind, const std::string& cid, const std::string& path,
                           const std::string& verb, bool escalation, value effect) {
        caps.push_back(value::object({{"kind", kind},
                                      {"id", cid},
                                      {"path", path},
                                      {"action", verb},
                                      {"classification", escalation ? "escalation" : "reduction"},
                                      {"requiresDistinctConsent", escalation},
                                      {"effect", std::move(effect)}}));
      };
      // The agent entry.
      const value desired = tp["agent"]["config"];
      const std::string want = detail::digest_of(desired);
      const std::string have = rec["agentConfigDigest"].get<std::string>();
      {
        value d = value::object({{"currentDigest", have}, {"desiredDigest", want}});
        if (s["agentState"] == "modified") {
          act("agent", id, "", d,
              "Agent " + id +
                  " was changed in openclaw.json since it was added or updated; "
                  "restore it first.",
              "agent_changed");
        } else {
          act("agent", id, s["agentState"] == "missing" || want != have ? "change" : "unchanged",
              d);
        }
        const value* live = detail::config_member(*cfg, "agents", "entries", id);
        for (const char* k : {"sandbox", "tools", "memory", "heartbeat"}) {
          const value* before = live ? detail::get(*live, k) : nullptr;
          const value* after = detail::get(desired, k);
          if ((before == nullptr) == (after == nullptr) && (!before || *before == *after)) continue;
          cap("agent", id, std::string("agent.") + k, after ? "change" : "remove", after != nullptr,
              after ? *after : value::object());
        }
      }
      // Workspace files.
      std::map<std::string, const value*> wanted;
      for (const auto& a : tp["actions"])
        if (a["kind"] == "workspaceFile" || a["kind"] == "bootstrap")
          wanted[a["id"].get<std::string>()] = &a;
      std::set<std::string> recorded;
      std::optional<typename Fs::dir> root;
      try {
        root.emplace(detail::open_dir_path(fs, ws));
      } catch (const error&) {
      }
      for (std::size_t k = 0; k < rec["workspaceFiles"].size(); ++k) {
        const value& row = rec["workspaceFiles"][k];
        const std::string rel = row["path"].get<std::string>();
        const std::string st = s["workspaceFiles"][k]["state"].get<std::string>();
        recorded.insert(rel);
        const auto w = wanted.find(rel);
        value d = value::object({{"currentDigest", row["contentDigest"]},
                                 {"currentPresent", st != "missing"},
                                 {"state", st}});
        if (w != wanted.end()) d["desiredDigest"] = w->second->value("digest", "");
        if (st != "unchanged" && st != "missing") {
          act("workspaceFile", rel, "", d,
              "Workspace file " + rel + " is " + st +
                  " since it was added; restore it (or move your version aside) first.",
              "workspace_file_drift");
        } else if (w == wanted.end()) {
          act("workspaceFile", rel, detail::claw_introduced(row) ? "remove" : "release", d);
        } else if (st == "missing") {
          // A consumed BOOTSTRAP.md (seeded once) is not seeded again.
          act("workspaceFile", rel, row["kind"] == "bootstrap" ? "unchanged" : "add", d);
        } else {
          act("workspaceFile", rel,
              w->second->value("digest", "") == row["contentDigest"] ? "unchanged" : "change", d);
        }
      }
      for (const auto& w : wanted) {
        if (recorded.count(w.first)) continue;
        value d = value::object(
            {{"currentPresent", false}, {"desiredDigest", w.second->value("digest", "")}});
        bool occupied = false;
        if (root) {
          const detail::file_read r =
              detail::read_in_root(fs, *root, w.first, state_file_max_bytes);
          occupied = !(r.status == detail::read_status::missing && r.detail.empty());
        }
        if (occupied) {
          d["currentPresent"] = true;
          act("workspaceFile", w.first, "", d,
              "An unmanaged file occupies " + w.first +
                  "; clawport never overwrites it: move it aside first.",
              "workspace_file_collision");
        } else {
          act("workspaceFile", w.first, "add", d);
        }
      }
      // Packages (ClawHub: never installed or uninstalled offline).
      std::map<std::string, value> cur_pkgs, new_pkgs;
      for (const auto& p : rec["packages"])
        cur_pkgs[p["kind"].get<std::string>() + ":" + p["ref"].get<std::string>()] = p;
      for (const auto& p : tp["actions"])
        if (p["kind"] == "package") new_pkgs[p["id"].get<std::string>()] = p["details"];
      for (const auto& c : cur_pkgs) {
        const auto n = new_pkgs.find(c.first);
        if (n == new_pkgs.end()) {
          act("package", c.first, "release",
              value::object({{"currentVersion", c.second["version"]}}));
          cap("package", c.first, "packages." + c.first, "release", false, value::object());
        } else {
          const bool same = n->second["version"] == c.second["version"];
          act("package", c.first, same ? "unchanged" : "change",
              value::object({{"currentVersion", c.second["version"]},
                             {"desiredVersion", n->second["version"]}}));
          if (!same)
            cap("package", c.first, "packages." + c.first, "change", true,
                value::object({{"version", n->second["version"]}}));
        }
      }
      for (const auto& n : new_pkgs) {
        if (cur_pkgs.count(n.first)) continue;
        act("package", n.first, "add", value::object({{"desiredVersion", n.second["version"]}}));
        cap("package", n.first, "packages." + n.first, "add", true,
            value::object({{"version", n.second["version"]}}));
      }
      // MCP servers.
      std::map<std::string, std::pair<const value*, const value*>> mcp;  // name → (ref, status)
      for (std::size_t k = 0; k < rec["mcpServers"].size(); ++k)
        mcp[rec["mcpServers"][k]["name"].get<std::string>()] = {&rec["mcpServers"][k],
                                                                &s["mcpServers"][k]};
      const value& new_mcp = out.package->manifest["mcpServers"];
      const auto effect_of = [](const value& server) {
        return value::object(
            {{"summary", server.contains("url") ? "remote server" : "local command"},
             {"payloadWithheld", true}});
      };
      for (const auto& m : mcp) {
        const value& ref = *m.second.first;
        const std::string st = (*m.second.second)["state"].get<std::string>();
        const bool managed = ref["relationship"] == "managed";
        value d = value::object({{"currentDigest", ref["configDigest"]},
                                 {"relationship", ref["relationship"]},
                                 {"state", st}});
        if (!new_mcp.contains(m.first)) {
          if (!managed) {
            act("mcpServer", m.first, "release", d);
          } else if (st == "modified") {
            act("mcpServer", m.first, "", d,
                "MCP server " + m.first + " was changed in openclaw.json; restore it first.",
                "mcp_config_conflict");
          } else {
            act("mcpServer", m.first, "remove", d);
          }
          if (!managed || st != "modified")
            cap("mcpServer", m.first, "mcpServers." + m.first, "remove", false, value::object());
          continue;
        }
        const std::string want_m =
            detail::digest_of(detail::canonical_mcp_server(new_mcp[m.first]));
        d["desiredDigest"] = want_m;
        if (st == "modified") {
          act("mcpServer", m.first, "", d,
              "MCP server " + m.first + " was changed in openclaw.json; restore it first.",
              "mcp_config_conflict");
        } else if (want_m == ref["configDigest"].get<std::string>()) {
          act("mcpServer", m.first, st == "missing" && managed ? "change" : "unchanged", d);
        } else if (!managed) {
          act("mcpServer", m.first, "", d,
              "MCP server " + m.first +
                  " is a shared declaration this Claw did not create; change it by hand.",
              "mcp_config_conflict");
        } else {
          act("mcpServer", m.first, "change", d);
          cap("mcpServer", m.first, "mcpServers." + m.first, "change", true,
              effect_of(new_mcp[m.first]));
        }
      }
      for (auto it = new_mcp.begin(); it != new_mcp.end(); ++it) {
        if (mcp.count(it.key())) continue;
        const std::string want_m = detail::digest_of(detail::canonical_mcp_server(it.value()));
        value d = value::object({{"desiredDigest", want_m}});
        const value* live = detail::config_member(*cfg, "mcp", "servers", it.key());
        if (live != nullptr && detail::digest_of(detail::canonical_mcp_server(*live)) != want_m) {
          act("mcpServer", it.key(), "", d,
              "MCP server " + it.key() + " already exists with a different configuration.",
              "mcp_server_collision");
        } else {
          d["relationship"] = live != nullptr ? "referenced" : "managed";
          act("mcpServer", it.key(), "add", d);
          cap("mcpServer", it.key(), "mcpServers." + it.key(), "add", true, effect_of(it.value()));
        }
      }
      // Cron jobs (need a Gateway: recorded, never scheduled offline).
      std::map<std::string, value> cur_cron, new_cron;
      for (const auto& j : rec["cronJobs"])
        cur_cron[j["manifestId"].get<std::string>()] = detail::cron_declaration(j["job"]);
      for (const auto& a : tp["actions"])
        if (a["kind"] == "cronJob")
          new_cron[a["id"].get<std::string>()] = detail::cron_declaration(a["details"]);
      for (const auto& c : cur_cron) {
        const auto n = new_cron.find(c.first);
        value d = value::object({{"currentDigest", detail::digest_of(c.second)}});
        if (n == new_cron.end()) {
          act("cronJob", c.first, "remove", d);
          cap("cronJob", c.first, "cronJobs." + c.first, "remove", false, value::object());
        } else {
          d["desiredDigest"] = detail::digest_of(n->second);
          const bool same = d["desiredDigest"] == d["currentDigest"];
          act("cronJob", c.first, same ? "unchanged" : "change", d);
          if (!same)
            cap("cronJob", c.first, "cronJobs." + c.first, "change", true,
                value::object({{"payloadWithheld", true}}));
        }
      }
      for (const auto& n : new_cron) {
        if (cur_cron.count(n.first)) continue;
        act("cronJob", n.first, "add",
            value::object({{"desiredDigest", detail::digest_of(n.second)}}));
        cap("cronJob", n.first, "cronJobs." + n.first, "add", true,
            value::object({{"payloadWithheld", true}}));
      }
    }
  }
  const auto sort_by_key = [](value& list) {
    std::vector<value> v(list.begin(), list.end());
    std::stable_sort(v.begin(), v.end(), [](const value& a, const value& b) {
      return detail::locale_less(a["kind"].get<std::string>() + ":" + a["id"].get<std::string>(),
                                 b["kind"].get<std::string>() + ":" + b["id"].get<std::string>());
    });
    list = value::array();
    for (auto& x : v) list.push_back(std::move(x));
  };
  sort_by_key(actions);
  sort_by_key(caps);
  value summary = value::object();
  std::size_t n_add = 0, n_change = 0, n_remove = 0, n_release = 0, n_same = 0, n_manual = 0,
              n_esc = 0;
  for (const auto& a : actions) {
    const std::string v = a["action"].get<std::string>();
    n_add += v == "add";
    n_change += v == "change";
    n_remove += v == "remove";
    n_release += v == "release";
    n_same += v == "unchanged";
    n_manual += v == "manual";
  }
  for (const auto& c : caps) n_esc += c["classification"] == "escalation";
  summary["totalActions"] = actions.size();
  summary["added"] = n_add;
  summary["changed"] = n_change;
  summary["removed"] = n_remove;
  summary["released"] = n_release;
  summary["unchanged"] = n_same;
  summary["manual"] = n_manual;
  summary["blocked"] = n_manual;
  summary["capabilityChanges"] = caps.size();
  summary["capabilityEscalations"] = n_esc;
  plan["summary"] = std::move(summary);
  plan["actions"] = std::move(actions);
  plan["capabilityChanges"] = std::move(caps);
  out.blocked = !blockers.empty();
  plan["blockers"] = std::move(blockers);
  plan["diagnostics"] = std::move(diags);
  plan["planIntegrity"] = plan_integrity(plan_kind::update, plan);
  out.plan = std::move(plan);
  return out;
}

namespace detail {

/// What an update must undo, newest first.
template <class Fs>
struct update_rollback {
  Fs& fs;
  std::string workspace;
  std::vector<std::string> temps;  ///< staged, not yet renamed
  std::vector<std::pair<std::string, std::optional<std::string>>> replaced;  ///< rel → old bytes
  std::vector<std::pair<std::string, std::string>> removed;                  ///< rel → old bytes
  std::vector<std::string> created_dirs;                                     ///< workspace-relative
  std::string state_dir;
  bool config_written = false;
  std::optional<std::string> config_before;
  bool ledger_written = false;
  std::optional<std::string> ledger_before;

  std::vector<std::string> run() {
    std::vector<std::string> left;
    const auto attempt = [&](const std::string& what, auto&& f) {
      try {
        f();
      } catch (const error& e) {
        left.push_back(what + ": " + e.what());
      }
    };
    if (ledger_written)
      attempt("the ledger",
              [&] { restore_state_file(fs, state_dir, ledger_file_name, ledger_before); });
    if (config_written)
      attempt("openclaw.json",
              [&] { restore_state_file(fs, state_dir, config_file_name, config_before); });
    std::optional<typename Fs::dir> root;
    try {
      root.emplace(open_dir_path(fs, workspace));
    } catch (const error& e) {
      if (!temps.empty() || !replaced.empty() || !removed.empty())
        left.push_back(workspace + ": " + e.what());
      return left;
    }
    for (auto it = removed.rbegin(); it != removed.rend(); ++it)
      attempt(it->first, [&] {
        std::vector<std::string> dirs;
        create_rel_file(fs, *root, it->first, it->second, dirs);
      });
    for (auto it = replaced.rbegin(); it != replaced.rend(); ++it)
      attempt(it->first, [&] {
        at_rel(fs, *root, it->first, [&](const typename Fs::dir& d, const std::string& n) {
          if (it->second) {
            publish::replace_file(fs, d, n, *it->second, it->first);
          } else if (fs.stat_at(d, n)) {
            fs.unlink_at(d, n);
          }
        });
      });
    for (auto it = temps.rbegin(); it != temps.rend(); ++it)
      attempt(*it, [&] {
        at_rel(fs, *root, *it, [&](const typename Fs::dir& d, const std::string& n) {
          if (fs.stat_at(d, n)) fs.unlink_at(d, n);
        });
      });
    for (auto it = created_dirs.rbegin(); it != created_dirs.rend(); ++it)
      attempt(*it, [&] {
        at_rel(fs, *root, *it, [&](const typename Fs::dir& d, const std::string& n) {
          const auto st = fs.stat_at(d, n);
          if (st && st->kind == fs::file_kind::directory && fs.is_empty(fs.open_dir_at(d, n)))
            fs.remove_dir_at(d, n);
        });
      });
    try {
      fs.sync_filesystem(*root);
    } catch (const error&) {
    }
    return left;
  }
};

inline std::string temp_sibling(const std::string& rel, const std::string& token) {
  const std::size_t slash = rel.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : rel.substr(0, slash + 1);
  return dir + "." + rel.substr(slash == std::string::npos ? 0 : slash + 1) + ".clawport-update-" +
         token;
}

}  // namespace detail

/// `claw update <target> --yes --plan-integrity`: rebuilds the plan, requires the consented
/// planIntegrity and no blocker, then applies it: the new and changed files are staged
/// beside their destinations and renamed in, removed files unlinked, openclaw.json written
/// once (agent entry, MCP servers), the ledger last. Any failure undoes every step in
/// reverse, so the workspace, openclaw.json and the ledger hold what they held before.
template <class Fs>
outcome_doc apply_update(Fs& fs, const destination_request& req, const std::string& target,
                         const std::optional<std::string>& from, const consent& c,
                         const std::string& now) {
  constexpr const char* schema = "openclaw.clawUpdateResult.v1";
  outcome_doc out;
  if (auto r = clawport::plan::check_given(c)) {
    out.document = detail::refusal_doc(schema, *r, {"update", "update --dry-run"});
    return out;
  }
  const update_plan up = plan_update(fs, req, target, from);
  const value& p = up.plan;
  const std::string integrity = p["planIntegrity"].get<std::string>();
  const auto fail = [&](const std::string& code, const std::string& message) {
    out.document = detail::failure_doc(schema, "failed", code, message);
    out.document["planIntegrity"] = integrity;
    return out;
  };
  if (auto r = clawport::plan::check_integrity(*c.plan_integrity, integrity)) {
    out.document = detail::refusal_doc(schema, *r, {"update", "update --dry-run"});
    return out;
  }
  if (up.blocked) {
    fail("update_blocked", p["blockers"][0]["message"].get<std::string>());
    out.document["blockers"] = p["blockers"];
    return out;
  }
  const claw_package& pkg = *up.package;
  const value& tp = up.target;
  const std::string state_dir = state_dir_of(req);
  const std::string id = p["agentId"].get<std::string>();
  ledger l = read_ledger(fs, state_dir);
  const value rec = l.installs()[id];
  const std::string ws = rec["workspace"].get<std::string>();
  std::map<std::string, const value*> target_files;
  for (const auto& a : tp["actions"])
    if (a["kind"] == "workspaceFile" || a["kind"] == "bootstrap")
      target_files[a["id"].get<std::string>()] = &a;

  // What to write, with the bytes re-read and checked (the plan is rebuilt, so any change
  // since the review shows as a different planIntegrity; this closes the last window).
  struct write_op {
    std::string rel;
    std::string bytes;
    std::optional<std::string> old;  ///< the current bytes of a changed file
    std::string temp;
  };
  std::vector<write_op> writes;
  std::vector<std::pair<std::string, std::string>> removes;  // rel → current bytes
  std::optional<typename Fs::dir> pkg_root;
  std::optional<typename Fs::dir> root;
  try {
    pkg_root.emplace(detail::open_dir_path(fs, pkg.source.package_root));
    root.emplace(detail::open_dir_path(fs, ws));
  } catch (const error& e) {
    return fail("update_changed", std::string(e.what()) + "; nothing was changed");
  }
  const std::string token = publish::random_token();
  value applied = value::array();
  value not_applied = value::array();
  config_change change;
  for (const auto& a : p["actions"]) {
    const std::string kind = a["kind"].get<std::string>();
    const std::string aid = a["id"].get<std::string>();
    const std::string verb = a["action"].get<std::string>();
    if (verb != "unchanged")
      applied.push_back(value::object({{"kind", kind}, {"id", aid}, {"action", verb}}));
    if (kind == "workspaceFile" && (verb == "add" || verb == "change" || verb == "remove")) {
      std::optional<std::string> old;
      if (verb != "add") {
        const detail::file_read r = detail::read_in_root(fs, *root, aid, state_file_max_bytes);
        if (r.status == detail::read_status::ok) {
          if (sha256_digest(r.bytes) != a["currentDigest"].get<std::string>())
            return fail("update_changed",
                        aid + " changed after the plan was made; nothing was changed");
          old = r.bytes;
        } else if (a["currentPresent"].get<bool>()) {
          return fail("update_changed",
                      aid + " changed after the plan was made; nothing was changed");
        }
      }
      if (verb == "remove") {
        if (old) removes.emplace_back(aid, *old);
        continue;
      }
      write_op w;
      w.rel = aid;
      w.old = old;
      w.temp = detail::temp_sibling(aid, token);
      std::string source_path, problem;
      if (!detail::planned_bytes(fs, pkg, *pkg_root, *target_files.at(aid), source_path, w.bytes,
                                 problem))
        return fail("update_changed", problem + "; nothing was changed");
      writes.push_back(std::move(w));
    } else if (kind == "agent" && verb == "change") {
      change.agents.emplace_back(id, tp["agent"]["config"]);
    } else if (kind == "mcpServer") {
      if ((verb == "add" && a["relationship"] == "managed") || verb == "change")
        change.mcp_servers.emplace_back(aid, pkg.manifest["mcpServers"][aid]);
      if (verb == "remove") change.drop_mcp_servers.push_back(aid);
    } else if (kind == "package" && (verb == "add" || verb == "change")) {
      value d;
      for (const auto& t : tp["actions"])
        if (t["kind"] == "package" && t["id"] == aid) d = t["details"];
      not_applied.push_back(value::object({{"kind", "package"},
                                           {"id", aid},
                                           {"code", "package_not_installed"},
                                           {"install", package_install_command(d)}}));
    } else if (kind == "cronJob" && (verb == "add" || verb == "change")) {
      not_applied.push_back(
          value::object({{"kind", "cronJob"},
                         {"id", aid},
                         {"code", "cron_gateway_required"},
                         {"message",
                          "Scheduling needs a running OpenClaw Gateway; clawport does not "
                          "schedule cron jobs offline."}}));
    }
  }

  // The new install record.
  value record = rec;
  record["claw"] = to_json(pkg.source);
  record["planIntegrity"] = integrity;
  record["agentConfigDigest"] = detail::digest_of(tp["agent"]["config"]);
  record["updatedAt"] = now;
  {
    std::map<std::string, value> old_rows;
    for (const auto& r : rec["workspaceFiles"]) old_rows[r["path"].get<std::string>()] = r;
    value rows = value::array();
    for (const auto& a : tp["actions"]) {
      if (a["kind"] != "workspaceFile" && a["kind"] != "bootstrap") continue;
      const std::string rel = a["id"].get<std::string>();
      const value* u = nullptr;
      for (const auto& x : p["actions"])
        if (x["kind"] == "workspaceFile" && x["id"] == rel) u = &x;
      const auto old = old_rows.find(rel);
      if (u != nullptr && (*u)["action"] == "unchanged" && old != old_rows.end()) {
        rows.push_back(old->second);
        continue;
      }
      std::string source_path = a.value("sourceKind", "") == "clawMarkdownBody" ? "CLAW.md" : "";
      if (source_path.empty()) {
        const workspace_source* src =
            a["kind"] == "bootstrap" ? nullptr : detail::source_for(pkg, rel);
        source_path = src != nullptr ? src->source : "BOOTSTRAP.md";
      }
      rows.push_back(value::object(
          {{"schemaVersion", "openclaw.clawWorkspaceFileRecord.v1"},
           {"path", rel},
           {"sourcePath", source_path},
           {"contentDigest", a["digest"]},
           {"kind", a["kind"] == "bootstrap" ? "bootstrap" : "file"},
           {"relationship", "managed"},
           {"origin", old != old_rows.end() ? old->second["origin"] : value("claw-introduced")},
           {"status", "complete"}}));
    }
    record["workspaceFiles"] = rows;
    value pkgs = value::array();
    for (const auto& a : tp["actions"]) {
      if (a["kind"] != "package") continue;
      const value& d = a["details"];
      pkgs.push_back(
          value::object({{"kind", d["kind"]},
                         {"ref", d["ref"]},
                         {"version", d["version"]},
                         {"relationship", d["kind"] == "plugin" ? "referenced" : "managed"},
                         {"status", "not_installed"},
                         {"install", package_install_command(d)}}));
    }
    record["packages"] = pkgs;
    std::map<std::string, value> old_refs;
    for (const auto& r : rec["mcpServers"]) old_refs[r["name"].get<std::string>()] = r;
    value refs = value::array();
    const value& servers = pkg.manifest["mcpServers"];
    for (auto it = servers.begin(); it != servers.end(); ++it) {
      const value* u = nullptr;
      for (const auto& x : p["actions"])
        if (x["kind"] == "mcpServer" && x["id"] == it.key()) u = &x;
      const auto old = old_refs.find(it.key());
      if (old != old_refs.end() && u != nullptr && (*u)["action"] == "unchanged") {
        refs.push_back(old->second);
        continue;
      }
      const bool shared = u != nullptr && u->value("relationship", "") == "referenced";
      refs.push_back(value::object(
          {{"schemaVersion", "openclaw.clawMcpServerRef.v1"},
           {"name", it.key()},
           {"configDigest", detail::digest_of(detail::canonical_mcp_server(it.value()))},
           {"relationship", shared ? "referenced" : "managed"},
           {"origin", shared ? "pre-existing" : "claw-introduced"},
           {"independentOwner", shared},
           {"status", "complete"}}));
    }
    record["mcpServers"] = refs;
    value crons = value::array();
    for (const auto& a : tp["actions"]) {
      if (a["kind"] != "cronJob") continue;
      value job = a["details"];
      job.erase("expectedState");
      const std::string cid = a["id"].get<std::string>();
      crons.push_back(value::object({{"schemaVersion", "openclaw.clawCronRef.v1"},
                                     {"manifestId", cid},
                                     {"declarationKey", "claw:" + id + ":" + cid},
                                     {"status", "not_applied"},
                                     {"code", "cron_gateway_required"},
                                     {"job", job}}));
    }
    record["cronJobs"] = crons;
  }

  detail::update_rollback<Fs> rb{fs,        ws,    {},           {},    {},          {},
                                 state_dir, false, std::nullopt, false, std::nullopt};
  std::string step = "workspace_update_failed";
  try {
    // 1. Stage every new file beside its destination, then rename them in.
    for (const auto& w : writes) {
      rb.temps.push_back(w.temp);
      detail::create_rel_file(fs, *root, w.temp, w.bytes, rb.created_dirs);
    }
    if (!writes.empty()) fs.sync_filesystem(*root);
    for (const auto& w : writes) {
      rb.replaced.emplace_back(w.rel, w.old);
      detail::at_rel(fs, *root, w.rel, [&](const typename Fs::dir& d, const std::string& n) {
        fs.rename_at(d, detail::base_name(w.temp), d, n, fs::rename_mode::replace);
      });
      rb.temps.erase(std::find(rb.temps.begin(), rb.temps.end(), w.temp));
    }
    for (const auto& r : removes) {
      detail::at_rel(fs, *root, r.first,
                     [&](const typename Fs::dir& d, const std::string& n) { fs.unlink_at(d, n); });
      rb.removed.push_back(r);
    }
    // Directories this Claw made that the removals emptied (as remove does).
    std::set<std::string> made;
    for (const auto& d : rec["createdDirs"]) made.insert(d.get<std::string>());
    for (const auto& r : removes) {
      std::string rel = r.first;
      for (std::size_t slash = rel.rfind('/'); slash != std::string::npos && slash > 0;
           slash = rel.rfind('/')) {
        rel = rel.substr(0, slash);
        if (rec["workspaceOrigin"] != "created" && !made.count(rel)) break;
        bool emptied = false;
        detail::at_rel(fs, *root, rel, [&](const typename Fs::dir& d, const std::string& n) {
          const auto st = fs.stat_at(d, n);
          if (!st || st->kind != fs::file_kind::directory || !fs.is_empty(fs.open_dir_at(d, n)))
            return;
          fs.remove_dir_at(d, n);
          emptied = true;
        });
        if (!emptied) break;
      }
    }
    if (!writes.empty() || !removes.empty()) fs.sync_filesystem(*root);

    // 2. openclaw.json, once.
    if (!change.agents.empty() || !change.mcp_servers.empty() || !change.drop_mcp_servers.empty()) {
      step = change.agents.empty() ? "mcp_update_failed" : "agent_update_failed";
      rb.config_before = detail::read_state_file(fs, state_dir, config_file_name);
      rb.config_written = true;
      const config_outcome cfg = apply_config_change(fs, state_dir, change, nullptr);
      rb.config_written = cfg.written;
      if (!cfg.written) {
        const std::vector<std::string> left = rb.run();
        fail(step, cfg.refusal + "; the workspace was put back" +
                       (left.empty() ? std::string() : " except " + left.front()) +
                       ". Make this change by hand, then run update again:");
        out.document["error"]["snippet"] = cfg.snippet;
        return out;
      }
    }

    // 3. The ledger, last.
    step = "provenance_update_failed";
    value created = rec.contains("createdDirs") ? rec["createdDirs"] : value::array();
    for (const auto& d : rb.created_dirs) created.push_back(d);
    record["createdDirs"] = created;
    rb.ledger_before = l.bytes;
    l.installs()[id] = record;
    rb.ledger_written = true;
    write_ledger(fs, state_dir, l.doc);
  } catch (const error& e) {
    return fail(step, detail::after_rollback(e.what(), rb.run(), "update"));
  }

  value d = value::object();
  d["schemaVersion"] = schema;
  d["stability"] = stability;
  d["dryRun"] = false;
  d["mutationAllowed"] = true;
  d["status"] = not_applied.empty() ? "complete" : "partial";
  d["planIntegrity"] = integrity;
  d["agentId"] = id;
  d["previousClaw"] = detail::claw_summary(rec["claw"]);
  d["targetClaw"] = detail::claw_summary(record["claw"]);
  d["appliedActions"] = applied;
  d["notApplied"] = not_applied;
  if (!not_applied.empty())
    d["error"] = value::object(
        {{"code", "update_partial"},
         {"message", "The workspace, openclaw.json and the ledger were updated; " +
                         std::to_string(not_applied.size()) +
                         " part(s) need a running OpenClaw (ClawHub packages, cron jobs) and were "
                         "recorded as not applied."}});
  d["installRecord"] = record;
  out.document = std::move(d);
  out.ok = not_applied.empty();
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
