// SPDX-License-Identifier: MIT
// verify's checks after the walk: the layout, the digest list's findings, the manifest,
// memory/, skills/, and the closure re-planned standing alone with its secrets.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/error.hpp"
#include "../digest/list.hpp"
#include "../formats/toml_writer.hpp"
#include "../memory/jsonl.hpp"
#include "../names/grammar.hpp"
#include "../zeroclaw/api.hpp"
#include "../zeroclaw/closure.hpp"
#include "../zeroclaw/comment.hpp"
#include "../zeroclaw/document.hpp"
#include "../zeroclaw/parse.hpp"
#include "../zeroclaw/plan.hpp"
#include "../zeroclaw/render.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "../zeroclaw/shape.hpp"
#include "../zeroclaw/validate.hpp"
#include "digest_list.hpp"
#include "report.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

namespace detail {

inline bool known_risk_kind(std::string_view kind) {
  for (int k = 0; k <= static_cast<int>(zeroclaw::risk_kind::carried_workspace_skills); ++k)
    if (zeroclaw::to_string(static_cast<zeroclaw::risk_kind>(k)) == kind) return true;
  return false;
}

inline const zeroclaw::value* at_path(const zeroclaw::value& root,
                                      std::initializer_list<std::string_view> keys) {
  const zeroclaw::value* cur = &root;
  for (std::string_view k : keys) {
    if (cur == nullptr || !cur->is_table()) return nullptr;
    cur = cur->find(k);
  }
  return cur;
}

/// Every empty string leaf is given a placeholder (recording its path, in the
/// scrub's path syntax), so re-planning reports which of them are schema
/// secrets.
inline void fill_empty_strings(zeroclaw::value& v, const std::string& path,
                               std::set<std::string>& empty, std::string_view placeholder) {
  if (v.is_string()) {
    if (v.text.empty()) {
      empty.insert(path);
      v.text = std::string(placeholder);
    }
  } else if (v.is_table()) {
    for (zeroclaw::member& m : v.members)
      fill_empty_strings(m.val, path.empty() ? m.key : path + "." + m.key, empty, placeholder);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.items.size(); ++i)
      fill_empty_strings(v.items[i], path + "." + zeroclaw::element_segment(v.items[i], i), empty,
                         placeholder);
  }
}

inline void unfill(zeroclaw::value& v, std::string_view placeholder) {
  if (v.is_string()) {
    if (v.text == placeholder) v.text.clear();
  } else {
    for (zeroclaw::member& m : v.members) unfill(m.val, placeholder);
    for (zeroclaw::value& item : v.items) unfill(item, placeholder);
  }
}

/// The first path at which `a` and `b` differ, for the message.
inline std::string first_difference(const zeroclaw::value& a, const zeroclaw::value& b,
                                    const std::string& path) {
  const std::string here = path.empty() ? "the root" : path;
  if (a.type != b.type) return here;
  if (a.is_table()) {
    for (const zeroclaw::member& m : a.members) {
      const std::string p = path.empty() ? m.key : path + "." + m.key;
      const zeroclaw::value* o = b.find(m.key);
      if (o == nullptr) return p + " would not travel";
      if (!(m.val == *o)) return first_difference(m.val, *o, p);
    }
    for (const zeroclaw::member& m : b.members)
      if (a.find(m.key) == nullptr)
        return (path.empty() ? m.key : path + "." + m.key) + " is missing";
    return here;
  }
  if (a.is_array() && a.items.size() == b.items.size()) {
    for (std::size_t i = 0; i < a.items.size(); ++i)
      if (!(a.items[i] == b.items[i]))
        return first_difference(a.items[i], b.items[i], path + "." + std::to_string(i));
  }
  return here;
}

/// Issue 22 item 10: a bundle whose `workspace/skills/` holds a file carries
/// the `carried_workspace_skills` flag, derived from the files (the manifest is
/// not trusted to list it): added, with a warning, when the manifest does not.
/// The import plan shows it.
inline void derive_workspace_skills_flag(report& rep, bool carried) {
  const zeroclaw::risk_flag flag = zeroclaw::workspace_skills_flag();
  const std::string kind(zeroclaw::to_string(flag.kind));
  const bool listed = std::any_of(rep.risk_flags.begin(), rep.risk_flags.end(),
                                  [&](const finding& f) { return f.code == kind; });
  if (!carried || listed) return;
  rep.risk_flags.push_back({kind, flag.path, flag.detail, false});
  rep.findings.push_back({"risk_unlisted", flag.path,
                          "the bundle carries workspace/skills/ but its manifest does not flag "
                          "it (" +
                              kind + "); the flag is added here",
                          true});
}

inline void add_finding(report& rep, std::string code, std::string path, std::string detail) {
  rep.findings.push_back({std::move(code), std::move(path), std::move(detail), false});
}

/// The top level holds the three files, `workspace/` and `skills/`, and nothing
/// else.
inline void layout_findings(report& rep) {
  for (const bundle_file& f : rep.files) {
    if (f.path.find('/') != std::string::npos) continue;
    if (f.path != bundle::manifest_file && f.path != bundle::config_file &&
        f.path != bundle::digest_list_file && f.path != bundle::signature_file)
      add_finding(rep, "unexpected_entry", f.path,
                  "not part of the bundle format (config.toml, zeroclaw-agent.toml, "
                  "zeroclaw-agent.sha256, zeroclaw-agent.sha256.sig, workspace/, skills/)");
  }
  for (const std::string& d : rep.directories) {
    if (d.find('/') != std::string::npos) continue;
    // memory/ is checked against the format version once the manifest is read.
    if (d != bundle::workspace_dir && d != bundle::skills_dir && d != bundle::memory_dir)
      add_finding(rep, "unexpected_entry", d + "/", "not part of the bundle format");
  }
  for (std::string_view required : {bundle::manifest_file, bundle::config_file}) {
    if (rep.file(required) == nullptr && !rep.has_directory(required))
      add_finding(rep, "missing_file", std::string(required), "every bundle has this file");
  }
  if (rep.file(bundle::workspace_dir) != nullptr || rep.file(bundle::skills_dir) != nullptr) {
    add_finding(rep, "unexpected_entry", std::string(bundle::skills_dir), "must be a directory");
  }
}

/// The digest list's findings, after the walk (none when the walk was cut short):
/// joined during the walk (`joined`, through a cursor whose bytes must be the ones the walk
/// hashed), or refused by the survey, or joined here from the list's text (`list_text`, a
/// list not in path order: every file was kept); `authenticated` only when they match
/// exactly.
/// The finding of a bundle without a digest list: a warning, an error in strict mode
/// (`require_authenticated`, the CLI's `--strict`).
inline constexpr std::string_view unauthenticated_detail =
    "the bundle has no digest list (upstream ZeroClaw writes none): its bytes are "
    "unauthenticated, only its structure was checked (--strict refuses such a bundle)";

struct list_outcome {
  const list_join* joined = nullptr;  ///< the join done during the walk
  std::string cursor_hex;             ///< the joined list's digest, as the cursor read it
  const list_survey* survey = nullptr;
  std::optional<error> join_error;  ///< the cursor's list did not parse any more
  std::string walk_hex;             ///< the list's digest, as the walk read it
};

inline void digest_list_findings(report& rep, const std::string& list_text, bool truncated,
                                 const list_outcome& o) {
  const std::string name(bundle::digest_list_file);
  if (rep.file(name) == nullptr) {
    if (!rep.has_directory(name))
      rep.findings.push_back({"unauthenticated", name, std::string(unauthenticated_detail), true});
    return;
  }
  if (truncated) return;
  const auto changed = [&] {
    add_finding(rep, "changed", name, "the digest list changed while the bundle was verified");
  };
  if (o.survey == nullptr) return changed();  // it was not there before the walk
  if (o.survey->problem) {
    add_finding(rep, "digest_list_invalid", name, o.survey->problem->what());
    return;
  }
  if (o.joined != nullptr) {
    if (o.join_error || o.cursor_hex != o.survey->hex || o.walk_hex != o.survey->hex)
      return changed();
    for (const finding& f : o.joined->found) rep.findings.push_back(f);
    for (const finding& f : o.joined->missing) rep.findings.push_back(f);
    rep.authenticated = o.joined->exact;
    return;
  }
  try {
    list_in_memory listed(digest::parse_list(list_text, name));
    list_join j;
    for (bundle_file& f : rep.files) j.file(f, listed);
    j.finish(listed);
    for (finding& f : j.found) rep.findings.push_back(std::move(f));
    for (finding& f : j.missing) rep.findings.push_back(std::move(f));
    rep.authenticated = j.exact;
  } catch (const error& e) {
    add_finding(rep, "digest_list_invalid", name, e.what());
  }
}

/// The keys of a format 1 manifest `m`, read into `rep`; false (with findings)
/// when one is missing, mistyped or unknown.
inline bool manifest_fields(report& rep, const zeroclaw::value& m, const std::string& mf) {
  bool manifest_ok = true;
  const auto bad = [&](const std::string& key, const std::string& why) {
    add_finding(rep, "manifest_invalid", mf + ":" + key, why);
    manifest_ok = false;
  };
  static constexpr std::string_view known[] = {"format_version", "root_agent", "required_secrets",
                                               "skill_bundles",  "provenance", "dropped",
                                               "risk_flags",     "memory"};
  for (const zeroclaw::member& mem : m.members)
    if (std::find(std::begin(known), std::end(known), mem.key) == std::end(known))
      bad(mem.key, "not a format 1 manifest key");
  const auto strings = [&](const char* key, std::vector<std::string>& out) {
    const zeroclaw::value* v = m.find(key);
    if (v == nullptr || !v->is_array()) return bad(key, "missing, or not an array");
    for (const zeroclaw::value& item : v->items) {
      if (!item.is_string()) return bad(key, "holds a value that is not a string");
      out.push_back(item.text);
    }
  };
  const zeroclaw::value* root = m.find("root_agent");
  if (root == nullptr || !root->is_string() || root->text.empty()) {
    bad("root_agent", "missing, or not a non-empty string");
  } else {
    rep.root_agent = root->text;
  }
  // Import writes these into a TOML comment of the target config (its
  // provenance): a string that rule refuses would plan and then fail every
  // apply (issue 22 item 4).
  const auto commentable = [&](const std::string& key, const zeroclaw::value* v) {
    if (v == nullptr || !v->is_string()) return;
    if (const auto why = zeroclaw::comment_problem(v->text))
      bad(key, "import writes it into the target config's provenance comment, but " + *why);
  };
  commentable("root_agent", root);
  strings("required_secrets", rep.required_secrets);
  strings("skill_bundles", rep.skill_bundles);
  {
    std::vector<std::string> sorted = rep.required_secrets;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (sorted != rep.required_secrets) bad("required_secrets", "not sorted and unique");
  }
  const zeroclaw::value* prov = m.find("provenance");
  if (prov == nullptr || !prov->is_table()) {
    bad("provenance", "missing, or not a table");
  } else {
    for (const char* key : {"zeroclaw_version", "exported_at"}) {
      const zeroclaw::value* v = prov->find(key);
      if (v == nullptr || !v->is_string())
        bad(std::string("provenance.") + key, "missing, or not a string");
      commentable(std::string("provenance.") + key, v);
    }
  }
  const auto table_list = [&](const char* key, std::initializer_list<const char*> fields) {
    const zeroclaw::value* v = m.find(key);
    if (v == nullptr || !v->is_array()) return bad(key, "missing, or not an array of tables");
    for (const zeroclaw::value& item : v->items) {
      if (!item.is_table()) return bad(key, "holds an entry that is not a table");
      for (const char* field : fields) {
        const zeroclaw::value* f = item.find(field);
        if (f == nullptr || !f->is_string())
          return bad(key, std::string("an entry lacks the string `") + field + "`");
      }
    }
  };
  table_list("dropped", {"path", "reason", "detail"});
  table_list("risk_flags", {"kind", "path", "detail"});
  if (const zeroclaw::value* drops = m.find("dropped"); drops && drops->is_array()) {
    for (const zeroclaw::value& item : drops->items) {
      const zeroclaw::value* r = item.is_table() ? item.find("reason") : nullptr;
      const zeroclaw::value* p = item.is_table() ? item.find("path") : nullptr;
      const zeroclaw::value* dd = item.is_table() ? item.find("detail") : nullptr;
      if (r && p && dd && r->is_string() && p->is_string() && dd->is_string())
        rep.dropped.push_back({r->text, p->text, dd->text, false});
    }
  }
  if (const zeroclaw::value* flags = m.find("risk_flags"); flags && flags->is_array()) {
    for (const zeroclaw::value& item : flags->items) {
      if (!item.is_table()) continue;
      const zeroclaw::value* k = item.find("kind");
      const zeroclaw::value* p = item.find("path");
      const zeroclaw::value* dd = item.find("detail");
      if (k && p && dd && k->is_string() && p->is_string() && dd->is_string()) {
        if (!known_risk_kind(k->text)) {
          bad("risk_flags", "unknown risk kind `" + k->text + "`");
        } else {
          rep.risk_flags.push_back({k->text, p->text, dd->text, false});
        }
      }
    }
  }
  return manifest_ok;
}

/// A signature file is checked only by check_signature; without one it is noted, not
/// trusted (a warning: the bundle is as authenticated as its digest list alone).
inline void signature_presence(report& rep) {
  if (!rep.signature_present()) return;
  const std::string sig(bundle::signature_file);
  if (rep.file(bundle::digest_list_file) == nullptr) {
    add_finding(rep, "signature_invalid", sig,
                "a signature without the digest list it signs (zeroclaw-agent.sha256)");
    return;
  }
  rep.findings.push_back({"signature_unchecked", sig,
                          "the bundle is signed, but no allowed signers were given, so the "
                          "signature was not checked (verify --allowed-signers FILE, import "
                          "--require-signature --allowed-signers FILE)",
                          true});
}

/// The manifest: format 1 only, never half-read. False when the bundle has none
/// or it is not a valid format 1 manifest (the verification stops there).
inline bool read_manifest(report& rep) {
  const std::string mf(bundle::manifest_file);
  const bundle_file* f = rep.file(mf);
  if (f == nullptr) return false;
  rep.manifest_sha256 = f->sha256;
  try {
    rep.manifest = zeroclaw::parse_toml(rep.manifest_text, mf);
  } catch (const error& e) {
    add_finding(rep, "manifest_invalid", mf, e.what());
    return false;
  }
  const zeroclaw::value& m = rep.manifest;
  const zeroclaw::value* version = m.find("format_version");
  if (version == nullptr || version->type != zeroclaw::value::kind::integer) {
    add_finding(rep, "manifest_invalid", mf + ":format_version", "missing, or not an integer");
    return false;
  }
  if (version->integer > bundle::memory_format_version) {
    add_finding(rep, "format_newer", mf + ":format_version",
                "the bundle is format_version " + std::to_string(version->integer) +
                    "; this clawport reads formats 1 and 2 only (upgrade clawport)");
    return false;
  }
  rep.format_version = static_cast<int>(version->integer);
  if (version->integer != bundle::format_version &&
      version->integer != bundle::memory_format_version) {
    add_finding(rep, "manifest_invalid", mf + ":format_version",
                "format_version " + std::to_string(version->integer) + " does not exist");
    return false;
  }
  return manifest_fields(rep, m, mf);
}

/// memory/ (issue 47): only in format 2, exactly `memory/entries.jsonl`, which must hold
/// what its `[memory]` table says, in the shape memory::check_jsonl reads.
template <class J = nlohmann::json>  // always; instantiated where a verify is (issue 48)
void memory_findings(report& rep) {
  const std::string mf(bundle::manifest_file);
  const std::string file(bundle::memory_entries_file);
  const zeroclaw::value* table = rep.manifest.find("memory");
  const bool carried = rep.has_directory(bundle::memory_dir) || rep.file(file) != nullptr;
  if (rep.format_version != bundle::memory_format_version) {
    if (table != nullptr)
      add_finding(rep, "manifest_invalid", mf + ":memory", "a format 1 manifest has no [memory]");
    if (carried)
      add_finding(rep, "unexpected_entry", std::string(bundle::memory_dir) + "/",
                  "memory travels only in a format 2 bundle (export --with-memory)");
    return;
  }
  const zeroclaw::value* schema = table != nullptr ? table->find("schema") : nullptr;
  const zeroclaw::value* entries = table != nullptr ? table->find("entries") : nullptr;
  if (table == nullptr || !table->is_table() || schema == nullptr || !schema->is_string() ||
      entries == nullptr || entries->type != zeroclaw::value::kind::integer)
    return add_finding(rep, "manifest_invalid", mf + ":memory",
                       "a format 2 manifest has a [memory] table with `schema` and `entries`");
  if (schema->text != memory::jsonl_schema)
    return add_finding(rep, "memory_invalid", mf + ":memory.schema",
                       "memory schema `" + schema->text + "` is not one this clawport reads (" +
                           std::string(memory::jsonl_schema) + "; upgrade clawport)");
  for (const bundle_file& f : rep.files)
    if (f.path.rfind(std::string(bundle::memory_dir) + "/", 0) == 0 && f.path != file)
      add_finding(rep, "unexpected_entry", f.path, "memory/ holds entries.jsonl only");
  if (rep.file(file) == nullptr)
    return add_finding(rep, "missing_file", file, "a format 2 bundle carries its memory here");
  const memory::jsonl_check check =
      rep.memory_check ? std::move(*rep.memory_check) : memory::check_jsonl<J>({});
  rep.memory_check.reset();
  for (const auto& [line, what] : check.problems)
    add_finding(rep, "memory_invalid", line == 0 ? file : file + ":" + std::to_string(line), what);
  if (static_cast<std::int64_t>(check.entries) != entries->integer && check.problems.empty())
    add_finding(rep, "memory_invalid", file,
                "holds " + std::to_string(check.entries) + " memories; the manifest says " +
                    std::to_string(entries->integer));
  memory::summary sum;
  sum.entries = check.entries;
  sum.categories = check.categories;
  if (const zeroclaw::value* b = table->find("backend"); b != nullptr && b->is_string())
    sum.backend = b->text;
  if (const zeroclaw::value* e = table->find("embedding_model"); e != nullptr && e->is_string())
    sum.embedding_model = e->text;
  rep.memory = std::move(sum);
}

/// skills/: exactly the aliases the manifest advertises, each a directory.
inline void skills_findings(report& rep) {
  const std::string mf(bundle::manifest_file);
  std::set<std::string> seen;
  for (const std::string& alias : rep.skill_bundles) {
    const std::string path = "skills/" + alias;
    if (!seen.insert(alias).second)
      add_finding(rep, "manifest_invalid", mf + ":skill_bundles", "lists `" + alias + "` twice");
    if (const auto why = names::portable::unportable_reason(alias)) {
      add_finding(rep, "name_invalid", path, "the skill-bundle alias " + std::string(*why));
      continue;
    }
    if (!rep.has_directory(path))
      add_finding(
          rep, "skill_missing", path + "/",
          "the manifest lists skill bundle `" + alias + "` but the bundle has no " + path + "/");
  }
  for (const std::string& d : rep.directories) {
    if (d.rfind("skills/", 0) != 0) continue;
    const std::string rest = d.substr(7);
    if (rest.find('/') != std::string::npos) continue;
    if (!seen.count(rest))
      add_finding(rep, "skill_unlisted", d + "/",
                  "a skill-bundle directory the manifest's skill_bundles does "
                  "not list");
  }
  for (const bundle_file& f : rep.files) {
    if (f.path.rfind("skills/", 0) != 0) continue;
    const std::string rest = f.path.substr(7);
    if (rest.find('/') == std::string::npos)
      add_finding(rep, "unexpected_entry", f.path,
                  "only skill-bundle directories sit under skills/");
  }
}

/// Secrets: re-plans the closure with every empty string filled in; the scrub
/// then names exactly the schema-secret leaves. Those that were empty must be
/// required_secrets, those that held a value are refused, and the closure must
/// plan back to itself.
template <class Schema>
void secret_findings(report& rep) {
  const std::string cf(bundle::config_file);
  static constexpr std::string_view placeholder = "clawport-verify-placeholder";
  zeroclaw::value filled = rep.closure;
  std::set<std::string> empty;
  fill_empty_strings(filled, "", empty, placeholder);
  std::optional<zeroclaw::export_plan> replan;
  try {
    replan = zeroclaw::plan_export<Schema>(toml_writer::write(filled, false), rep.root_agent);
  } catch (const error& e) {
    add_finding(rep, "closure_invalid", e.subject().empty() ? cf : e.subject(),
                std::string("the closure does not plan as a config of its own: ") + e.what());
    return;
  }
  // The host-local settings the closure carries, as the export reported them (a note on
  // a field that was blank speaks of the placeholder, not the bundle: left out).
  for (const zeroclaw::host_local_note& n : replan->host_local)
    if (!empty.count(n.path) && n.detail.find(placeholder) == std::string::npos)
      rep.host_local.push_back({std::string(zeroclaw::to_string(n.kind)), n.path, n.detail, false});
  std::set<std::string> empty_secrets;
  for (const std::string& s : replan->required_secrets) {
    if (empty.count(s)) {
      empty_secrets.insert(s);
    } else {
      add_finding(rep, "secret_value", s,
                  "a secret field holds a value; a bundle carries every secret "
                  "blank, to be "
                  "supplied on the target");
    }
  }
  // The closure must be closed: planning it again carries exactly it (an entry
  // the agent does not reach, or a key the export would have dropped, is
  // refused here).
  zeroclaw::value again = replan->closure;
  unfill(again, placeholder);
  if (!(again == rep.closure)) {
    add_finding(rep, "closure_invalid", cf,
                "the closure is not closed: exporting it again would not carry "
                "exactly it (" +
                    first_difference(rep.closure, again, "") + ")");
  }
  const std::set<std::string> required(rep.required_secrets.begin(), rep.required_secrets.end());
  // An empty secret the manifest does not list was empty on the source too (the
  // export records only the secrets it blanked): the target must supply it all
  // the same.
  for (const std::string& s : empty_secrets)
    if (!required.count(s))
      rep.findings.push_back({"secret_unlisted", s,
                              "an empty secret field that required_secrets does not list (it "
                              "was empty on the source); supply it on the target",
                              true});
  for (const std::string& s : required)
    if (!empty_secrets.count(s))
      add_finding(rep, "secrets_mismatch", s,
                  "required_secrets lists a path that is not an empty secret field of "
                  "config.toml");
}

/// The closure: it parses, validates standing alone, configures exactly the
/// root agent and the advertised skill bundles, and carries no secret.
template <class Schema>
void closure_findings(report& rep) {
  const std::string cf(bundle::config_file);
  if (rep.file(cf) == nullptr) return;
  try {
    rep.closure = zeroclaw::parse_toml(rep.config_text, cf);
  } catch (const error& e) {
    add_finding(rep, "closure_invalid", cf, e.what());
    return;
  }
  if (const auto problem = zeroclaw::validate_config<Schema>(rep.closure)) {
    add_finding(rep, "closure_invalid", problem->path.empty() ? cf : problem->path,
                "the closure does not validate standing alone: " + problem->display());
    return;
  }
  const zeroclaw::value* agents = rep.closure.find("agents");
  if (agents == nullptr || !agents->is_table() || agents->members.size() != 1 ||
      agents->find(rep.root_agent) == nullptr) {
    add_finding(rep, "closure_invalid", "agents",
                "the closure must configure exactly one agent, the manifest's "
                "root_agent `" +
                    rep.root_agent + "`");
    return;
  }
  for (const std::string& alias : rep.skill_bundles) {
    if (at_path(rep.closure, {"skill_bundles", alias}) == nullptr)
      add_finding(
          rep, "skill_missing", "skill_bundles." + alias,
          "the manifest lists skill bundle `" + alias + "` but config.toml does not configure it");
  }
  if (const auto hit = zeroclaw::find_ciphertext(rep.closure))
    add_finding(rep, "secret_value", *hit, "an encrypted secret (enc:/enc2:) is in the bundle");
  secret_findings<Schema>(rep);
}

}  // namespace detail

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
