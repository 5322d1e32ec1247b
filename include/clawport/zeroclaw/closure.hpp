// SPDX-License-Identifier: MIT
// plan_export: the config closure of one agent (docs/format.md).
// Pure: text in, plan out. The engine walks the Schema's descriptors; the ZeroClaw
// semantics that are not per-field data (grants, fallback walk, risk flags) live here.
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../names/grammar.hpp"
#include "../names/identity_path.hpp"
#include "api.hpp"
#include "document.hpp"
#include "install_layout.hpp"
#include "parse.hpp"
#include "plan.hpp"
#include "schema.hpp"
#include "schema_v3.hpp"
#include "shape.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

namespace detail {

inline std::string string_at(const value* table, std::string_view key) {
  if (table == nullptr) return {};
  const value* v = table->find(key);
  return (v != nullptr && v->is_string()) ? v->text : std::string();
}

inline std::optional<bool> bool_at(const value* table, std::string_view key) {
  if (table == nullptr) return std::nullopt;
  const value* v = table->find(key);
  if (v == nullptr || !v->is_boolean()) return std::nullopt;
  return v->boolean;
}

/// A resolved model-provider reference.
struct provider_ref {
  std::string family;
  std::string alias;
  const value* entry = nullptr;
};

/// `providers::find_by_name` on the source: `family.alias` (family known to the schema),
/// or a bare alias present in exactly one known family.
template <typename Schema>
std::optional<provider_ref> find_model_provider(const value& root, std::string_view reference) {
  const std::string ref = std::string(text::trim(reference));
  if (ref.empty()) return std::nullopt;
  const value* models = find_table(&root, {"providers", "models"});
  if (models == nullptr) return std::nullopt;
  const auto dot = ref.find('.');
  if (dot != std::string::npos) {
    const std::string family = ref.substr(0, dot);
    const std::string alias = ref.substr(dot + 1);
    if (Schema::model_provider(family) == nullptr) return std::nullopt;
    const value* entry = find_table(models, {family, alias});
    if (entry == nullptr) return std::nullopt;
    return provider_ref{family, alias, entry};
  }
  std::optional<provider_ref> found;
  for (const std::string_view family : Schema::model_families()) {
    const value* entry = find_table(models, {family, ref});
    if (entry == nullptr) continue;
    if (found) return std::nullopt;  // ambiguous
    found = provider_ref{std::string(family), ref, entry};
  }
  return found;
}

/// The agents a config names, for a message: "the configured agents: `a`, `b`", or that
/// it configures none.
inline std::string configured_aliases(const value* agents) {
  std::string list;
  if (agents != nullptr && agents->is_table())
    for (const member& m : agents->members)
      if (m.val.is_table()) list += (list.empty() ? "`" : ", `") + m.key + "`";
  return list.empty() ? std::string("the config configures no agent ([agents.<alias>])")
                      : "the configured agents: " + list;
}

template <typename Schema, typename Names>
class planner {
 public:
  planner(const value& source, std::string alias, const plan_options& options)
      : root_(source), alias_(std::move(alias)), options_(options) {}

  export_plan run() {
    const value* agents = find_table(&root_, {"agents"});
    const value* agent_raw = agents ? agents->find(alias_) : nullptr;
    if (agent_raw == nullptr || !agent_raw->is_table())
      throw error(errc::unknown_agent,
                  "agent '" + alias_ + "' is not configured; " + configured_aliases(agents),
                  "agents." + alias_);
    agent_ = agent_raw;
    plan_.root_alias = alias_;
    plan_.producer_version = options_.producer_version;
    plan_.closure.set("schema_version", value::make_integer(Schema::version));

    carry_agent();
    carry_risk_profile();
    carry_runtime_profile();
    carry_skill_bundles();
    carry_simple_bundles("knowledge_bundles", Schema::knowledge_bundle());
    carry_simple_bundles("mcp_bundles", Schema::mcp_bundle());
    carry_mcp_servers();
    carry_model_providers();
    carry_tts_and_transcription();
    scrub();
    plan_.dropped.push_back(
        {"workspace/memory", drop_reason::not_yet_portable,
         "the memory store is a live SQLite database in WAL mode, which cannot be copied as "
         "files without risking a torn or stale snapshot; bundle format 1 does not carry it"});
    plan_.dropped.push_back(
        {"workspace/MEMORY_SNAPSHOT.md", drop_reason::private_data,
         std::string(bundle::private_reason(bundle::private_kind::memory_snapshot))});
    plan_.memory_backend = memory_backend();
    plan_memory_policy();
    collect_risk_flags();
    plan_workspace();
    return std::move(plan_);
  }

 private:
  // ---- helpers ----
  shape_sink sink() { return shape_sink{&plan_.dropped, &plan_.host_local, true}; }

  value& section(std::string_view name) { return plan_.closure.child_table(std::string(name)); }

  void record(std::string path, drop_reason reason, std::string detail) {
    plan_.dropped.push_back({std::move(path), reason, std::move(detail)});
  }

  /// Applies drop / force_false / identity_path rules of `fields` inside `entry`
  /// (recursively), ordered by docs/format.md row. Rules hold key paths, not pointers: erasing a
  /// member moves its siblings.
  struct pending_rule {
    int row;
    const field* f;
    std::vector<std::string> parent_keys;
    std::string path;
  };
  static void gather_rules(const value& table, list_view<field> fields,
                           const std::vector<std::string>& keys, const std::string& path,
                           std::vector<pending_rule>& out) {
    for (const field& f : fields) {
      if (f.rule != field_rule::carry && f.rule != field_rule::skill_directory)
        out.push_back({f.row, &f, keys, path + "." + std::string(f.key)});
      if (f.type == field_type::table && f.rule == field_rule::carry)
        if (const value* child = table.find(f.key))
          if (child->is_table()) {
            std::vector<std::string> child_keys = keys;
            child_keys.emplace_back(f.key);
            gather_rules(*child, f.children, child_keys, path + "." + std::string(f.key), out);
          }
    }
  }
  void apply_rules(value& entry, list_view<field> fields, const std::string& path) {
    std::vector<pending_rule> rules;
    gather_rules(entry, fields, {}, path, rules);
    std::stable_sort(rules.begin(), rules.end(),
                     [](const pending_rule& a, const pending_rule& b) { return a.row < b.row; });
    for (const pending_rule& r : rules) {
      value* parent = &entry;
      for (const std::string& k : r.parent_keys) parent = parent ? parent->find(k) : nullptr;
      if (parent == nullptr) continue;
      value* v = parent->find(r.f->key);
      switch (r.f->rule) {
        case field_rule::drop:
          if (v != nullptr) {
            const bool report = occupied(*r.f, *v);
            parent->erase(r.f->key);
            if (report) record(r.path, r.f->reason, std::string(r.f->detail));
          }
          break;
        case field_rule::force_false: {
          const bool source_true = v ? (v->is_boolean() && v->boolean) : r.f->def.boolean;
          parent->set(std::string(r.f->key), value::make_boolean(false));
          if (source_true) record(r.path, r.f->reason, std::string(r.f->detail));
          break;
        }
        case field_rule::identity_path:
          if (v != nullptr && v->is_string()) {
            const auto result =
                names::portable_identity_path<Names>(v->text, workspace_entry_included);
            if (result.path) {
              v->text = *result.path;
              plan_.identity_document = *result.path;
            } else {
              parent->erase(r.f->key);
              record(r.path, drop_reason::host_specific, result.refusal);
            }
          }
          break;
        default:
          break;
      }
    }
  }

  // ---- docs/format.md ----
  void carry_agent() {
    value shaped = carried(*agent_, Schema::agent(), "agents." + alias_);
    section("agents").set(alias_, std::move(shaped));
  }

  /// `raw` (the table at `path`) as it is carried: shaped by `entry`'s schema, its rules
  /// applied, unknown keys recorded as dropped, pruned when the schema says so.
  value carried(const value& raw, const entry_schema& entry, const std::string& path) {
    std::vector<dropped_item> unknown;
    shape_sink s{&unknown, &plan_.host_local, true};
    value shaped = shape_table(raw, entry.fields, entry.extra, path, s);
    apply_rules(shaped, entry.fields, path);
    plan_.dropped.insert(plan_.dropped.end(), unknown.begin(), unknown.end());
    if (entry.prune) prune_table(shaped, entry.fields, entry.extra);
    return shaped;
  }

  /// Carries `<section>.<alias>` when the source has it as a table; returns the carried
  /// (shaped, ruled, pruned) entry or nullptr.
  value* carry_entry(std::string_view section_name, const std::string& alias,
                     const entry_schema& entry) {
    const value* raw = find_table(&root_, {section_name, alias});
    if (raw == nullptr) return nullptr;
    value shaped = carried(*raw, entry, std::string(section_name) + "." + alias);
    return &section(section_name).set(alias, std::move(shaped));
  }

  std::string agent_string(std::string_view key) const {
    return std::string(text::trim(string_at(agent_, key)));
  }
  std::vector<std::string> agent_list(std::string_view key) const {
    return dedup(string_items(agent_->find(key)));
  }

  // ---- step 4 ----
  void carry_risk_profile() {
    const std::string r = agent_string("risk_profile");
    if (!r.empty()) carry_entry("risk_profiles", r, Schema::risk_profile());
  }

  // ---- step 5 ----
  void carry_runtime_profile() {
    const std::string t = agent_string("runtime_profile");
    if (!t.empty()) carry_entry("runtime_profiles", t, Schema::runtime_profile());
  }

  // ---- step 6, docs/library.md, Exporting ----
  void carry_skill_bundles() {
    for (const std::string& alias : agent_list("skill_bundles")) {
      const value* raw = find_table(&root_, {"skill_bundles", alias});
      value* carried = carry_entry("skill_bundles", alias, Schema::skill_bundle());
      if (raw == nullptr || carried == nullptr) continue;  // dangling: validation refuses it
      // The install layout's rule (Unicode White_Space trim), shared with `skills list`.
      const std::string directory(skill_directory_value(string_at(raw, "directory")));
      const std::string entry_path = "skill_bundles." + alias;
      const field* dir_field =
          find_field(Schema::skill_bundle().fields, Schema::skill_bundle().extra, "directory");
      if (!directory.empty() && directory.front() == '/') {
        carried->erase("directory");
        record(entry_path + ".directory", drop_reason::host_specific,
               dir_field ? std::string(dir_field->detail) : std::string());
      }
      if (const auto reason = Names::unportable_reason(alias)) {
        record(entry_path, drop_reason::host_specific,
               "the skill-bundle alias " + std::string(*reason) +
                   ", so it is not a directory name every target can create for the bundle's "
                   "content; rename the bundle to a plain name");
        continue;
      }
      const std::string install = paths::normalize(options_.install_root);
      const std::string source =
          skill_bundle_directory(options_.install_root, alias, std::string_view(directory));
      const std::string normalized = paths::normalize(source);
      const std::string shared = paths::normalize(paths::join(options_.install_root, "shared"));
      const bool escapes = !paths::starts_with(normalized, shared) || paths::has_dotdot(directory);
      if (escapes) {
        carried->erase("directory");
        record("skills/" + alias, drop_reason::host_specific,
               "the bundle's directory is not a plain path inside the install's shared tree, so "
               "its content is not the install's to export and is not carried; its config "
               "travels without the directory, and the skills must be installed at the "
               "target's default location for this alias");
        continue;
      }
      const auto relative = paths::strip_prefix(normalized, install);
      if (!relative) continue;
      skill_source planned;
      planned.alias = alias;
      planned.relative = *relative;
      planned.filter.include = string_items(raw->find("include"));
      planned.filter.exclude = string_items(raw->find("exclude"));
      plan_.skill_sources.push_back(std::move(planned));
    }
  }

  // ---- steps 7 and 8 ----
  void carry_simple_bundles(std::string_view section_name, const entry_schema& entry) {
    for (const std::string& alias : agent_list(section_name))
      carry_entry(section_name, alias, entry);
  }

  // ---- step 9, docs/format.md ----
  const value* source_servers() const {
    const value* mcp = find_table(&root_, {"mcp"});
    if (mcp == nullptr) return nullptr;
    const value* servers = mcp->find("servers");
    if (servers == nullptr) servers = mcp->find("mcpServers");
    return (servers != nullptr && servers->is_array()) ? servers : nullptr;
  }
  const value* first_server(std::string_view name) const {
    if (const value* servers = source_servers())
      for (const value& s : servers->items)
        if (s.is_table() && string_at(&s, "name") == name) return &s;
    return nullptr;
  }

  void carry_mcp_servers() {
    const std::vector<std::string> bundles = agent_list("mcp_bundles");
    std::set<std::string> excluded;
    for (const std::string& b : bundles)
      for (const std::string& name :
           string_items(find_table(&root_, {"mcp_bundles", b})
                            ? find_table(&root_, {"mcp_bundles", b})->find("exclude")
                            : nullptr))
        excluded.insert(name);
    std::vector<std::string> granted;
    for (const std::string& b : bundles) {
      const value* bundle = find_table(&root_, {"mcp_bundles", b});
      if (bundle == nullptr) continue;
      for (const std::string& name : string_items(bundle->find("servers")))
        if (!excluded.count(name) && first_server(name) != nullptr &&
            std::find(granted.begin(), granted.end(), name) == granted.end())
          granted.push_back(name);
    }
    granted_ = granted;

    // Close a gap upstream leaves (docs/format.md, "Beyond upstream"): a bundle's `servers` name
    // that matches no server on the source (and is not excluded) would bind to a same-named server
    // on the target. Remove it.
    if (value* carried_bundles = plan_.closure.find("mcp_bundles"))
      for (member& m : carried_bundles->members) {
        value* servers = m.val.find("servers");
        if (servers == nullptr || !servers->is_array()) continue;
        std::vector<value> kept;
        for (std::size_t i = 0; i < servers->items.size(); ++i) {
          const std::string& name = servers->items[i].text;
          if (first_server(name) == nullptr && !excluded.count(name)) {
            record("mcp_bundles." + m.key + ".servers[" + std::to_string(i) + "]",
                   drop_reason::source_missing,
                   "server " + text::debug_quoted(name) +
                       " is not configured on the exporting install, so the name is removed "
                       "rather than allowing it to grant a same-named target-local server");
          } else {
            kept.push_back(servers->items[i]);
          }
        }
        if (kept.size() != servers->items.size()) {
          if (kept.empty())
            m.val.erase("servers");
          else
            servers->items = std::move(kept);
        }
      }

    if (granted.empty()) return;
    const entry_schema entry = Schema::mcp_server();
    value array = value::make_array();
    for (const std::string& name : granted) {
      const value* raw = first_server(name);
      const std::string path = "mcp.servers." + name;
      std::vector<dropped_item> unknown;
      shape_sink s{&unknown, &plan_.host_local, true};
      value shaped = shape_table(*raw, entry.fields, entry.extra, path, s);
      apply_rules(shaped, entry.fields, path);
      plan_.dropped.insert(plan_.dropped.end(), unknown.begin(), unknown.end());
      if (entry.prune) prune_table(shaped, entry.fields, entry.extra);
      if (shaped.find("name") == nullptr) shaped.set("name", value::make_string(name));
      array.items.push_back(std::move(shaped));
    }
    section("mcp").set("servers", std::move(array));
  }

  // ---- step 10, docs/format.md ----
  static constexpr int max_fallback_depth = 3;

  void carry_model_providers() {
    std::vector<std::string> roots = {agent_string("model_provider"),
                                      agent_string("classifier_provider"),
                                      agent_string("summary_provider")};
    const std::string t = agent_string("runtime_profile");
    if (!t.empty())
      if (const value* profile = find_table(&root_, {"runtime_profiles", t}))
        roots.push_back(std::string(text::trim(
            string_at(find_table(profile, {"context_compression"}), "summary_provider"))));
    for (const std::string& r : roots) {
      std::vector<std::string> visited;
      walk_provider(r, 0, visited);
    }
    close_fallbacks();
  }

  /// The one closure rule for fallback edges, which verify applies by planning the bundle's
  /// config again: a carried provider's edge must name a provider the closure carries. An edge
  /// that resolves on the source to a provider past the walk's depth (carried by no other
  /// path) is removed and recorded by its original index, so the bundle stands alone.
  void close_fallbacks() {
    for (const std::string& key : carried_order_) {
      const auto dot = key.find('.');
      const std::string family = key.substr(0, dot);
      const std::string alias = key.substr(dot + 1);
      const value* raw = find_table(&root_, {"providers", "models", family, alias});
      value* carried = plan_.closure.find("providers");
      for (const char* k : {"models", family.c_str(), alias.c_str()})
        carried = (carried != nullptr && carried->is_table()) ? carried->find(k) : nullptr;
      value* fallback = carried ? carried->find("fallback") : nullptr;
      if (raw == nullptr || fallback == nullptr || !fallback->is_array()) continue;
      std::set<std::string> beyond;
      const auto edges = string_items(raw->find("fallback"));
      for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto target = find_model_provider<Schema>(root_, edges[i]);
        if (!target || carried_models_.count(target->family + "." + target->alias)) continue;
        beyond.insert(edges[i]);
        record("providers.models." + key + ".fallback[" + std::to_string(i) + "]",
               drop_reason::depth_limit,
               "fallback " + text::debug_quoted(edges[i]) + " is more than " +
                   std::to_string(max_fallback_depth) +
                   " fallbacks away from the agent, so its provider is not carried (the "
                   "runtime does not walk that far either) and the edge is removed rather than "
                   "left naming a provider the bundle does not hold");
      }
      if (beyond.empty()) continue;
      std::vector<value> kept;
      for (const value& item : fallback->items)
        if (!beyond.count(item.text)) kept.push_back(item);
      if (kept.empty())
        carried->erase("fallback");
      else
        fallback->items = std::move(kept);
    }
  }

  void walk_provider(const std::string& reference, int depth, std::vector<std::string>& visited) {
    if (depth > max_fallback_depth) return;
    const auto resolved = find_model_provider<Schema>(root_, reference);
    if (!resolved) return;
    const std::string key = resolved->family + "." + resolved->alias;
    if (std::find(visited.begin(), visited.end(), key) != visited.end()) return;
    if (!carried_models_.count(key)) {
      carried_models_.insert(key);
      carried_order_.push_back(key);
      const entry_schema* entry = Schema::model_provider(resolved->family);
      const std::string path = "providers.models." + key;
      shape_sink s = sink();
      value shaped = shape_table(*resolved->entry, entry->fields, entry->extra, path, s);
      if (entry->prune) prune_table(shaped, entry->fields, entry->extra);
      if (value* fallback = shaped.find("fallback")) {
        std::vector<value> kept;
        for (std::size_t i = 0; i < fallback->items.size(); ++i) {
          const std::string& edge = fallback->items[i].text;
          if (text::trim(edge).empty() || find_model_provider<Schema>(root_, edge)) {
            kept.push_back(fallback->items[i]);
          } else {
            record(path + ".fallback[" + std::to_string(i) + "]", drop_reason::source_missing,
                   "fallback " + text::debug_quoted(edge) +
                       " does not resolve on the exporting install, so the edge is removed "
                       "rather than allowing a same-named target-local provider to change the "
                       "imported agent's endpoint or credentials");
          }
        }
        if (kept.size() != fallback->items.size()) {
          if (kept.empty())
            shaped.erase("fallback");
          else
            fallback->items = std::move(kept);
        }
      }
      section("providers")
          .child_table("models")
          .child_table(resolved->family)
          .set(resolved->alias, std::move(shaped));
    }
    visited.push_back(key);
    for (const std::string& edge : string_items(resolved->entry->find("fallback")))
      walk_provider(edge, depth + 1, visited);
    visited.pop_back();
  }

  // ---- step 11, docs/format.md ----
  void carry_tts_and_transcription() {
    const std::pair<const char*, const char*> refs[] = {
        {"tts", "tts_provider"}, {"transcription", "transcription_provider"}};
    for (const auto& [kind, key] : refs) {
      const std::string ref = agent_string(key);
      const auto dot = ref.find('.');
      if (dot == std::string::npos || dot == 0 || dot + 1 == ref.size()) continue;
      const std::string family = ref.substr(0, dot);
      const std::string alias = ref.substr(dot + 1);
      const entry_schema* entry = std::string_view(kind) == "tts"
                                      ? Schema::tts_provider(family)
                                      : Schema::transcription_provider(family);
      if (entry == nullptr) continue;
      const value* raw = find_table(&root_, {"providers", kind, family, alias});
      if (raw == nullptr) continue;
      const std::string path = std::string("providers.") + kind + "." + ref;
      shape_sink s = sink();
      value shaped = shape_table(*raw, entry->fields, entry->extra, path, s);
      if (entry->prune) prune_table(shaped, entry->fields, entry->extra);
      section("providers").child_table(kind).child_table(family).set(alias, std::move(shaped));
    }
  }

  // ---- step 12, docs/format.md ----
  // Scrubs by schema-secret path: exactly the strings the schema's secret masking marked
  // (value::masked). Upstream compares every string with the mask text instead, which
  // blanks a non-secret value that happens to read `***MASKED***` (docs/format.md).
  // A blank secret an import recorded as required (options_.blank_required) is listed too.
  void scrub_walk(value& v, const std::string& path, std::vector<std::string>& found) const {
    if (v.is_string()) {
      if (v.masked) {
        found.push_back(path);
        v.text.clear();
        v.masked = false;
      } else if (v.text.empty() && options_.blank_required.count(path) != 0) {
        found.push_back(path);
      }
    } else if (v.is_table()) {
      for (member& m : v.members)
        scrub_walk(m.val, path.empty() ? m.key : path + "." + m.key, found);
    } else if (v.is_array()) {
      for (std::size_t i = 0; i < v.items.size(); ++i)
        scrub_walk(v.items[i], path + "." + element_segment(v.items[i], i), found);
    }
  }

  void scrub() {
    std::vector<std::string> found;
    scrub_walk(plan_.closure, "", found);
    if (const auto hit = find_ciphertext(plan_.closure))
      throw error(errc::ciphertext,
                  "refusing to write the bundle: encrypted config ciphertext survived scrubbing "
                  "at `" +
                      *hit +
                      "`. This is a bug in the export scrubber — please report it rather than "
                      "working around it.",
                  *hit);
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    plan_.required_secrets = std::move(found);
  }

  // ---- step 14, docs/format.md ----
  void flag(risk_kind kind, std::string path, std::string detail) {
    plan_.risk_flags.push_back({kind, std::move(path), std::move(detail)});
  }

  void collect_risk_flags() {
    for (const skill_source& s : plan_.skill_sources)
      flag(risk_kind::carried_skills, "skill_bundles." + s.alias,
           "the bundle carries this skill bundle's content from the exporting install; skills "
           "are instructions the agent reads and act as code it may run");
    const std::string r = agent_string("risk_profile");
    const value* profile = r.empty() ? nullptr : find_table(&root_, {"risk_profiles", r});
    if (profile != nullptr) {
      const std::string base = "risk_profiles." + r + ".";
      const std::string level = string_at(profile, "level");
      const bool full = level == "full";
      const bool authored_workspace_only = bool_at(profile, "workspace_only").value_or(true);
      if (full)
        flag(risk_kind::full_autonomy, base + "level",
             "the agent acts autonomously within policy bounds — no per-operation approval "
             "prompt");
      if (full || !authored_workspace_only) {
        if (authored_workspace_only)
          flag(risk_kind::filesystem_escape, base + "level",
               "full autonomy turns workspace confinement off, so filesystem access is not "
               "confined to the workspace even though `workspace_only` is set");
        else
          flag(risk_kind::filesystem_escape, base + "workspace_only",
               "filesystem access is not confined to the workspace");
      }
      if (bool_at(profile, "sandbox_enabled") == std::optional<bool>(false))
        flag(risk_kind::sandbox_disabled, base + "sandbox_enabled",
             "shell execution runs unsandboxed on the host");
      if (!bool_at(profile, "block_high_risk_commands").value_or(true))
        flag(risk_kind::approval_bypass, base + "block_high_risk_commands",
             "high-risk shell commands are not blocked");
      if (!bool_at(profile, "require_approval_for_medium_risk").value_or(true))
        flag(risk_kind::approval_bypass, base + "require_approval_for_medium_risk",
             "medium-risk operations run without an approval prompt");
      const auto passthrough = string_items(profile->find("shell_env_passthrough"));
      if (!passthrough.empty())
        flag(risk_kind::env_passthrough, base + "shell_env_passthrough",
             "host environment variables are forwarded into shell subprocesses: " +
                 join(passthrough, ", "));
      const value* roots = profile->find("allowed_roots");
      if (roots == nullptr) roots = profile->find("allowed_path");
      if (roots == nullptr) roots = profile->find("allowed_paths");
      const auto root_list = string_items(roots);
      if (!root_list.empty())
        flag(risk_kind::extra_filesystem_roots, base + "allowed_roots",
             "extra filesystem roots are granted beyond the workspace: " + join(root_list, ", "));
      if (string_at(find_table(profile, {"delegation_policy"}), "mode") == "allow")
        flag(risk_kind::delegation_enabled, base + "delegation_policy.mode",
             "the agent may initiate delegation to other agents on the target install");
    }
    if (bool_at(find_table(agent_, {"workspace"}), "unrestricted_filesystem").value_or(false))
      flag(risk_kind::filesystem_escape, "agents." + alias_ + ".workspace.unrestricted_filesystem",
           "the agent can read and write anywhere the host filesystem permits");
    for (const std::string& name : granted_) {
      const value* server = first_server(name);
      const std::string transport = string_at(server, "transport");
      if (transport.empty() || transport == "stdio") {
        std::string line = string_at(server, "command");
        const auto args = string_items(server->find("args"));
        if (!args.empty()) line += " " + join(args, " ");
        flag(risk_kind::process_spawn, "mcp.servers." + name + ".command",
             "starts a local process on the target host: " + line);
      }
      const auto pinned = string_items(server->find("pinned_resources"));
      if (!pinned.empty())
        flag(risk_kind::untrusted_startup_context, "mcp.servers." + name + ".pinned_resources",
             "server-controlled text is read into the system prompt at startup: " +
                 join(pinned, ", "));
    }
  }

  /// The memory backend the agent runs on, and where the config says so (issue 30).
  std::string memory_backend() const {
    const std::string own =
        std::string(text::trim(string_at(find_table(agent_, {"memory"}), "backend")));
    if (!own.empty()) return "`" + own + "` (agents." + alias_ + ".memory.backend)";
    const std::string shared =
        std::string(text::trim(string_at(find_table(&root_, {"memory"}), "backend")));
    if (!shared.empty()) return "`" + shared + "` ([memory] backend)";
    return {};
  }

  /// What `--with-memory` needs of the config: the backend's name and the categories the
  /// install redacts (issue 47).
  void plan_memory_policy() {
    plan_.memory_backend_name =
        std::string(text::trim(string_at(find_table(agent_, {"memory"}), "backend")));
    if (plan_.memory_backend_name.empty())
      plan_.memory_backend_name =
          std::string(text::trim(string_at(find_table(&root_, {"memory"}), "backend")));
    const value* policy = find_table(&root_, {"memory", "policy"});
    const value* list = policy != nullptr ? policy->find("redact_categories") : nullptr;
    if (list == nullptr || !list->is_array()) return;
    for (const value& item : list->items)
      if (item.is_string() && !text::trim(item.text).empty())
        plan_.memory_redact_categories.push_back(std::string(text::trim(item.text)));
  }

  // ---- docs/format.md workspace_source ----
  void plan_workspace() {
    const value* workspace = find_table(agent_, {"workspace"});
    const value* path = workspace ? workspace->find("path") : nullptr;
    if (path != nullptr && path->is_string()) {
      plan_.workspace = {true, path->text};
    } else {
      plan_.workspace = {false, default_workspace(alias_)};
    }
  }

  const value& root_;
  std::string alias_;
  plan_options options_;
  const value* agent_ = nullptr;
  export_plan plan_;
  std::vector<std::string> granted_;
  std::set<std::string> carried_models_;
  std::vector<std::string> carried_order_;  ///< carried_models_ in walk order
};

}  // namespace detail

template <typename Schema, typename Names>
export_plan plan_export(std::string_view config_text, std::string_view alias,
                        const plan_options& options) {
  require_schema<Schema>();
  names::require_names_policy<Names>();
  if constexpr (is_schema_v<Schema> && names::is_names_policy_v<Names>) {
    const value root = parse_toml(config_text, options.config_name);
    return detail::planner<Schema, Names>(root, std::string(alias), options).run();
  } else {
    return {};  // not reached: the checks above have named what is missing
  }
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
