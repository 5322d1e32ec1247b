// SPDX-License-Identifier: MIT
// The import's collision decider: every incoming entry added under its name, reused when
// identical to the target's after normalisation (a reuse that lends credentials is a
// capability grant), renamed (`<alias>_imported`, ...) when its name, its workspace or a
// directory the target's config assigns is taken, or named by `--as`.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../verify/verify.hpp"
#include "../zeroclaw/alias.hpp"
#include "../zeroclaw/entries.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/shape.hpp"
#include "import_plan.hpp"
#include "map.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

namespace detail {

namespace zc = clawport::zeroclaw;

inline void rewrite_fields(zc::value& table, zc::list_view<zc::field> fields,
                           const rename_map& names) {
  if (!table.is_table()) return;
  for (zc::member& m : table.members) {
    const zc::field* f = nullptr;
    for (const zc::field& x : fields)
      if (x.key == m.key) f = &x;
    if (f == nullptr) continue;
    const auto mapped = [&](zc::value& v) {
      if (!v.is_string()) return;
      const auto it = names.find({f->ref, v.text});
      if (it != names.end()) v.text = it->second;
    };
    if (f->ref != zc::ref_target::none) {
      if (m.val.is_string()) mapped(m.val);
      if (m.val.is_array())
        for (zc::value& item : m.val.items) mapped(item);
    }
    if (f->type == zc::field_type::table) rewrite_fields(m.val, f->children, names);
    if (f->type == zc::field_type::table_array && m.val.is_array())
      for (zc::value& item : m.val.items) rewrite_fields(item, f->children, names);
  }
}

inline void rewrite_refs(zc::value& entry, const zc::entry_schema& s, const rename_map& names) {
  rewrite_fields(entry, s.fields, names);
  rewrite_fields(entry, s.extra, names);
}

/// Removes every secret field (recursively), so two entries differing only in their
/// credentials compare equal.
inline void strip_secrets(zc::value& table, zc::list_view<zc::field> fields) {
  if (!table.is_table()) return;
  for (const zc::field& f : fields) {
    if (f.secret) {
      table.erase(f.key);
      continue;
    }
    zc::value* v = table.find(f.key);
    if (v == nullptr) continue;
    if (f.type == zc::field_type::table) strip_secrets(*v, f.children);
    if (f.type == zc::field_type::table_array && v->is_array())
      for (zc::value& item : v->items) strip_secrets(item, f.children);
  }
}

/// True when `v` holds a non-empty string anywhere (a secret field that is set).
inline bool has_text(const zc::value& v) {
  if (v.is_string()) return !v.text.empty();
  for (const zc::value& item : v.items)
    if (has_text(item)) return true;
  for (const zc::member& m : v.members)
    if (has_text(m.val)) return true;
  return false;
}

/// The secret fields set in `table` (`api_key`, `headers`, `auth.token`), by schema path.
inline void set_secrets(const zc::value& table, zc::list_view<zc::field> fields,
                        std::vector<std::string>& out) {
  zc::for_each_secret_field(table, fields, "", [&](const std::string& path, const zc::value& v) {
    if (has_text(v)) out.push_back(path);
  });
}

/// The capability grant of a reuse that lends the target's credentials to the imported
/// agent (issue 22 item 9): `reuses_credential`, naming the target's entry and its secrets.
inline std::optional<verify::finding> credential_grant(const zc::entry_kind& k,
                                                       const std::string& to,
                                                       const zc::value& existing,
                                                       const zc::entry_schema& s) {
  std::vector<std::string> secrets;
  set_secrets(existing, s.fields, secrets);
  set_secrets(existing, s.extra, secrets);
  if (secrets.empty()) return std::nullopt;
  std::string list;
  for (const std::string& x : secrets) list += (list.empty() ? "" : ", ") + x;
  return verify::finding{"reuses_credential", std::string(k.section) + "." + to,
                         "the bundle's " + std::string(k.name) + " `" + to +
                             "` is identical to the target's, which is reused: the imported "
                             "agent gets its credentials (" +
                             list + ")",
                         false};
}

inline zc::value normalized(const zc::value& entry, const zc::entry_schema& s) {
  zc::value v = entry;
  strip_secrets(v, s.fields);
  strip_secrets(v, s.extra);
  zc::detail::prune_table(v, s.fields, s.extra);
  return v;
}

template <class Fs>
bool occupied(Fs& fs, const typename Fs::dir& root, const std::string& relative) {
  const fs::path_result<Fs> r = fs::try_open_path(fs, root, relative);
  if (r.refusal == fs::path_refusal::missing) return false;
  return !r.ok() || !fs.is_empty(r.get(root));
}

/// Every directory the target's config assigns, created or not: each agent's workspace
/// (`[agents.A.workspace].path`, else its default) and each skill bundle's directory,
/// absolute and normalised. An import never places a tree on, in or around one.
inline std::vector<std::string> configured_dirs(const zc::value& target,
                                                const std::string& install_root) {
  std::vector<std::string> out;
  if (const zc::value* agents = zc::find_path(target, "agents"); agents && agents->is_table()) {
    for (const zc::member& a : agents->members) {
      std::optional<std::string> path;
      if (const zc::value* ws = a.val.is_table() ? a.val.find("workspace") : nullptr;
          ws && ws->is_table())
        if (const zc::value* v = ws->find("path"); v && v->is_string() && !v->text.empty())
          path = v->text;
      out.push_back(paths::normalize(zc::agent_workspace_dir(install_root, a.key, path)));
    }
  }
  if (const zc::value* bundles = zc::find_path(target, "skill_bundles");
      bundles && bundles->is_table()) {
    for (const zc::member& b : bundles->members) {
      std::optional<std::string_view> dir;
      if (const zc::value* v = b.val.is_table() ? b.val.find("directory") : nullptr;
          v && v->is_string())
        dir = v->text;
      out.push_back(paths::normalize(zc::skill_bundle_directory(install_root, b.key, dir)));
    }
  }
  return out;
}

/// True when the absolute `dir` is, lies in or holds one of `configured`.
inline bool claimed(const std::vector<std::string>& configured, const std::string& dir) {
  const std::string d = paths::normalize(dir);
  for (const std::string& c : configured)
    if (paths::starts_with(d, c) || paths::starts_with(c, d)) return true;
  return false;
}

/// Refuses a placement root of the install (`agents`, `shared`, `shared/skills`) that is
/// a symlink or not a directory: an import never places through one, and every name
/// below it would look taken (the alias search would never end).
template <class Fs>
void check_placement_root(Fs& fs, const typename Fs::dir& root, const std::string& install_root,
                          const std::string& relative) {
  const fs::path_result<Fs> r = fs::try_open_path(fs, root, relative);
  if (r.refusal == fs::path_refusal::symlink || r.refusal == fs::path_refusal::not_directory) {
    const std::string abs = paths::join(install_root, r.at);
    throw error(
        errc::unsafe_path,
        "the target install's " + abs +
            (r.refusal == fs::path_refusal::symlink ? " is a symlink" : " is not a directory") +
            "; an import never places files through it, so nothing was planned or "
            "written: make it a plain directory",
        abs);
  }
  if (!r.ok() && r.refusal != fs::path_refusal::missing) throw fs::path_error(r, install_root);
}

/// The most candidate names an alias search tries (`_imported` .. `_imported_<n>`).
inline constexpr unsigned max_alias_candidates = 1000;

/// `in_use` that refuses (errc::limit_exceeded) once the search has tried
/// `max_alias_candidates` names: every search for a free name ends.
inline std::function<bool(const std::string&)> bounded_search(
    std::function<bool(const std::string&)> in_use, const std::string& kind,
    const std::string& name) {
  auto tried = std::make_shared<unsigned>(0);
  return [in_use = std::move(in_use), tried, kind, name](const std::string& candidate) {
    if (++*tried > max_alias_candidates)
      throw error(errc::limit_exceeded,
                  "no free name for the " + kind + " `" + name + "` after " +
                      std::to_string(max_alias_candidates) +
                      " candidates; nothing was written (name it yourself: --as or --map)",
                  name);
    return in_use(candidate);
  };
}

/// An incoming entry the plan adds (under its final name `to`).
struct decided {
  const zc::entry_kind* kind;
  std::string from, to;
  const zc::value* val;
};

/// Step 4: decides every incoming entry, referenced kinds first: added under its name,
/// renamed when it collides, reused when identical, or named by `--as`.
template <class Fs, class Schema>
struct entry_decider {
  Fs& fs;
  const typename Fs::dir& root;
  const import_options& o;
  const verify::report& rep;
  const zc::value& target;
  import_plan& p;
  rename_map& names;
  const mapped_set& mapped;
  std::map<std::string, std::set<std::string>> taken;  ///< kind -> names in use on the target
  std::vector<std::string> configured;                 ///< directories the target assigns
  std::vector<decided> added;
  std::vector<verify::finding> lent;  ///< reuses that lend the target's credentials

  /// Placement roots that are links or files are refused before any search (item 14), and
  /// every directory the target's config assigns counts as taken (item 11).
  void prepare() {
    for (const zc::entry_kind& k : zc::entry_kinds)
      for (const auto& e : zc::entries_of(target, k)) taken[std::string(k.name)].insert(e.first);
    if (rep.has_directory("workspace"))
      check_placement_root(fs, root, p.install_root, std::string(zc::install_agents_dir));
    if (!rep.skill_bundles.empty())
      check_placement_root(fs, root, p.install_root,
                           std::string(zc::install_shared_dir) + "/skills");
    configured = configured_dirs(target, p.install_root);
  }

  static std::string placed_at(const zc::entry_kind& k, const std::string& alias) {
    if (k.ref == zc::ref_target::agent) return zc::default_workspace(alias);
    return std::string(zc::install_shared_dir) + "/skills/" + alias;
  }

  /// True when the entry `name` of kind `k` carries a tree to place.
  bool has_content(const zc::entry_kind& k, const std::string& name) const {
    return (k.ref == zc::ref_target::agent && rep.has_directory("workspace")) ||
           (k.ref == zc::ref_target::skill_bundle &&
            std::find(rep.skill_bundles.begin(), rep.skill_bundles.end(), name) !=
                rep.skill_bundles.end());
  }

  bool in_use(const zc::entry_kind& k, bool content, const std::string& candidate) {
    if (taken[std::string(k.name)].count(candidate)) return true;
    if (!content) return false;
    return claimed(configured, paths::join(p.install_root, placed_at(k, candidate))) ||
           occupied(fs, root, placed_at(k, candidate));
  }

  /// `--as` for the agent: refused when the alias, its workspace or a configured
  /// directory is taken.
  void check_as(const zc::entry_kind& k, const std::string& as, bool content) {
    if (const auto problem = zc::alias_problem(as))
      throw error(errc::invalid_argument, "--as: " + *problem, as);
    if (taken[std::string(k.name)].count(as))
      throw error(errc::destination_refused,
                  "--as " + as + ": the target install already has an agent `" + as +
                      "`; an import never overwrites an entry",
                  "agents." + as);
    if (content && occupied(fs, root, placed_at(k, as)))
      throw error(errc::destination_refused,
                  "--as " + as + ": the workspace " + placed_at(k, as) +
                      " exists and is not empty; an import never overwrites it",
                  placed_at(k, as));
    if (content && claimed(configured, paths::join(p.install_root, placed_at(k, as))))
      throw error(errc::destination_refused,
                  "--as " + as + ": the workspace " + placed_at(k, as) +
                      " is (or overlaps) a directory the target's config assigns to "
                      "another agent or skill bundle; an import never places there",
                  placed_at(k, as));
  }

  /// Why `name` cannot be used: what it collides with, and the choice the operator has
  /// (`--map` to the target's own entry, `--as` for the agent).
  std::string why_renamed(const zc::entry_kind& k, const std::string& name, bool content,
                          const zc::value* existing, bool differs) {
    const std::string kind(k.name);
    if (existing != nullptr && k.ref == zc::ref_target::agent)
      return "the target already has an agent `" + name +
             "` (to choose the name yourself: --as <alias>)";
    if (existing != nullptr)
      return "the target already has a " + kind + " `" + name + "`" +
             (differs ? " that differs from the bundle's" : "") +
             " (to use the target's instead: --map " + kind + "." + name + "=" + name + ")";
    if (taken[kind].count(name)) return "another entry of this import is named `" + name + "`";
    const std::string dir = placed_at(k, name);
    const std::string choose =
        k.ref == zc::ref_target::agent ? " (to choose the name yourself: --as <alias>)" : "";
    if (content && claimed(configured, paths::join(p.install_root, dir)))
      return dir +
             " is (or overlaps) a directory the target's config assigns to another agent "
             "or skill bundle" +
             choose;
    return dir + " exists on the target and is not empty" + choose;
  }

  /// A name in use: reused when the target's entry is identical after normalisation (and
  /// carries no tree), else renamed to the first free `_imported` alias (`why` says what it
  /// collides with). Returns the action.
  std::string collide(const zc::entry_kind& k, const std::string& name, const zc::value& val,
                      const zc::entry_schema& s, bool content, std::string& to, std::string& why) {
    const std::string kind(k.name);
    const zc::value* existing = nullptr;
    for (const auto& e : zc::entries_of(target, k))
      if (e.first == name) existing = e.second;
    zc::value incoming = val;
    rewrite_refs(incoming, s, names);
    const bool comparable = existing != nullptr && k.ref != zc::ref_target::agent && !content;
    if (comparable && normalized(incoming, s) == normalized(*existing, s)) {
      if (auto grant = credential_grant(k, name, *existing, s)) lent.push_back(std::move(*grant));
      return "reuse";
    }
    why = why_renamed(k, name, content, existing, comparable);
    const auto used = [&](const std::string& c) { return in_use(k, content, c); };
    if (k.two_tier) {
      const std::string family = name.substr(0, name.find('.'));
      to = family + "." +
           zc::imported_alias(
               name.substr(name.find('.') + 1),
               bounded_search([&](const std::string& c) { return used(family + "." + c); }, kind,
                              name));
    } else {
      to = zc::imported_alias(name, bounded_search(used, kind, name));
    }
    return "rename";
  }

  void run() {
    prepare();
    for (const zc::entry_kind& k : zc::entry_kinds) {
      const std::string kind(k.name);
      for (const auto& [name, val] : zc::entries_of(rep.closure, k)) {
        if (mapped.count({kind, name})) continue;
        const zc::entry_schema* s = zc::entry_schema_of<Schema>(k, name);
        if (s == nullptr) throw error(errc::config_invalid, "unknown " + kind + " " + name, name);
        std::string to = name;
        std::string action = "add";
        std::string why;
        const bool content = has_content(k, name);
        if (k.ref == zc::ref_target::agent && o.as) {
          check_as(k, *o.as, content);
          to = *o.as;
          if (to != name) action = "rename";
          if (to != name) why = "named by --as";
        } else if (in_use(k, content, name)) {
          action = collide(k, name, *val, *s, content, to, why);
        }
        names[{k.ref, name}] = to;
        p.entries.push_back({kind, name, to, action, why});
        if (action == "reuse") continue;
        taken[kind].insert(to);
        added.push_back({&k, name, to, val});
        if (k.ref == zc::ref_target::agent) p.alias = to;
      }
    }
  }
};

}  // namespace detail

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
