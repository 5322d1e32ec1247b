// SPDX-License-Identifier: MIT
// What a bundle carries from an install besides its workspace: the skill-bundle walk into
// `skills/<alias>/` (built on fs's one tree walk, so the dry run and the export share every
// rule), and the refusals for a workspace or skill-bundle root that cannot be proven to be
// the real directory inside the install (docs/library.md, Tree copy).
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/utf8.hpp"
#include "../fs/anchored.hpp"
#include "../fs/copy.hpp"
#include "../fs/policy.hpp"
#include "../fs/walk.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace bundle {

/// The refusal for a workspace root that came out `symlinked` or `escaped`; `path` is the
/// workspace as planned. Only call it for those two statuses.
template <class Fs>
error workspace_root_refusal(const fs::root_result<Fs>& r, std::string_view path) {
  const std::string p(path);
  if (r.status == fs::root_status::symlinked) {
    return error(errc::unsafe_path,
                 "the agent workspace " + p +
                     " is a symlink; the bundle would carry whatever it points at as the "
                     "agent's own tree, so set `workspace.path` to the real directory and "
                     "export again",
                 p);
  }
  return error(errc::unsafe_path,
               "the agent workspace " + p +
                   " is not reachable through real directories under the install's agents "
                   "tree: " +
                   r.at +
                   " is a symlink or leaves that tree, so the copy cannot prove what it would "
                   "carry",
               p);
}

/// The refusal for a skill-bundle root that came out `symlinked` or `escaped`.
template <class Fs>
error skill_root_refusal(const fs::root_result<Fs>& r, std::string_view alias,
                         std::string_view path) {
  const std::string p(path);
  const std::string a(alias);
  if (r.status == fs::root_status::symlinked) {
    return error(errc::unsafe_path,
                 "skill bundle `" + a + "` resolves to the symlink " + p +
                     "; a bundle directory must be a real directory inside the install's "
                     "shared tree",
                 p);
  }
  return error(errc::unsafe_path,
               "skill bundle `" + a + "` at " + p +
                   " is not reachable through real directories under the install's shared "
                   "tree: " +
                   r.at +
                   " is a symlink or leaves that tree, so the copy cannot prove what it would "
                   "carry",
               p);
}

/// One skill bundle to carry: where it is and which of its skills travel.
struct skill_source {
  std::string alias;     ///< becomes `skills/<alias>/` in the bundle
  std::string source;    ///< the planned source path, as shown in messages
  std::string relative;  ///< from the install root, e.g. "shared/skills/research_tools"
  /// Whether a skill travels, given its name (see `copy_skill_bundles`); empty admits all.
  std::function<bool(std::string_view skill)> admits_skill;
};

/// The name a skill is filtered by: the directory's own name by default. The exporter
/// passes the skill's logical name (skills::skill_name_at), read through the opened and
/// identity-checked directory handle.
struct directory_name {
  template <class Fs>
  std::string operator()(Fs&, const typename Fs::dir&, std::string_view dir_name) const {
    return std::string(dir_name);
  }
};

/// The skills one bundle carried (names sorted).
struct carried_bundle {
  std::string alias;
  std::vector<std::string> skills;
};

/// What `copy_skill_bundles` did.
struct skill_copy_result {
  fs::copy_tally tally;                      ///< shared across all skill bundles
  std::size_t bundles = 0;                   ///< bundles that carried at least one skill
  std::vector<carried_bundle> carried;       ///< those bundles, in plan order
  std::vector<std::string> without_content;  ///< aliases that ended without content
  std::vector<fs::file_id> sources;          ///< identities of the opened bundle roots
};

namespace detail {

/// Creates `name` under `parent` in the sink and opens it; each step keeps its own
/// message so a failure says which of the two broke. `path` is the bundle path shown.
template <class Sink>
typename Sink::dir make_bundle_dir(Sink& sink, const typename Sink::dir& parent,
                                   std::string_view name, const std::string& path) {
  try {
    sink.make_dir(parent, name);
  } catch (const error& e) {
    throw with_context(e, "failed to create " + path + " in the bundle", path, reason_of(e));
  }
  try {
    return sink.open_dir(parent, name);
  } catch (const error& e) {
    throw with_context(e, "failed to open " + path + " in the bundle", path, reason_of(e));
  }
}

/// One entry `name` directly under an opened bundle root (`spec.root` is that bundle's
/// path): a directory whose identity still matches and that the source admits is walked
/// into `bundle/<name>`. Returns whether it carried a file; one that carried none is
/// removed again so the bundle never lists an empty skill.
template <class Fs, class Sink, class NameOf>
bool carry_skill_dir(Fs& fs, Sink& sink, const typename Fs::dir& root, std::string_view name,
                     const typename Sink::dir& bundle, const skill_source& source, NameOf& name_of,
                     const fs::copy_spec& spec, fs::copy_tally& tally) {
  const std::string path = paths::join(spec.root, name);
  if (spec.carries_name ? !spec.carries_name(name) : !utf8::valid(name)) {
    // Without a name rule a non-UTF-8 name is skipped silently, as before rules existed.
    if (!spec.carries_name) return false;
    ++tally.names_skipped;
    if (spec.on_name_skipped) spec.on_name_skipped(path);
    return false;
  }
  std::optional<fs::stat_info> info;
  try {
    info = fs.stat_at(root, name);
  } catch (const error& e) {
    throw with_context(e, "failed to stat " + path, path, reason_of(e));
  }
  if (!info) return false;
  if (info->kind == fs::file_kind::symlink) {
    ++tally.symlinks_skipped;
    return false;
  }
  if (info->kind != fs::file_kind::directory) return false;  // loose files are local state
  if (spec.check_entry) spec.check_entry(info->id, path);
  std::optional<typename Fs::dir> skill;
  try {
    skill.emplace(fs.open_dir_at(root, name));
  } catch (const error& e) {
    throw with_context(e, "failed to open " + path, path, reason_of(e));
  }
  fs::stat_info opened;
  try {
    opened = fs.stat(*skill);
  } catch (const error& e) {
    throw with_context(e, "failed to stat " + path, path, reason_of(e));
  }
  // Replaced between the listing and the open: not the directory that was classified.
  if (opened.id != info->id) {
    ++tally.replaced_skipped;
    return false;
  }
  if (source.admits_skill) {
    bool admitted = false;
    try {
      admitted = source.admits_skill(name_of(fs, *skill, name));
    } catch (const error& e) {
      throw with_context(e, "failed to read the skill manifest in " + path, path, reason_of(e));
    }
    if (!admitted) return false;
  }
  const std::uint64_t before = tally.files;
  {
    // Scoped so the output handle is closed before an empty skill is removed.
    typename Sink::dir out = make_bundle_dir(sink, bundle, name, path);
    fs::walk_tree(fs, sink, *skill, out, spec, tally, name);
  }
  if (tally.files > before) return true;
  try {
    sink.remove_tree(bundle, name);
  } catch (const error& e) {
    throw with_context(e, "failed to remove the empty " + path + " from the bundle", path,
                       reason_of(e));
  }
  return false;
}

}  // namespace detail

/// Walks each planned skill bundle into the sink's `staging/skills/<alias>/`. Bundle
/// roots are opened anchored under `install_root` (family `shared`); a symlinked or
/// escaping root is refused. Only directories directly under a bundle root are skills
/// (loose files are skipped silently, symlinks counted); a skill that carries no file is
/// removed again; a bundle that carries no skill is removed and listed in
/// `without_content`; `skills/` itself is created only when there are sources and removed
/// when no bundle carried. `name_of(fs, skill_dir, dir_name)` gives the name
/// `admits_skill` is asked about; it is called only on the opened directory whose identity
/// matched its classification. `base` is each skill tree's `fs::copy_spec` (its root is set
/// here): its check_entry, sink, limits and name rule; a skill directory whose name
/// `base.carries_name` refuses is counted and reported as the walk does for any entry
/// (without one, a skill directory whose name is not UTF-8 is skipped silently).
template <class Fs, class Sink, class NameOf = directory_name>
skill_copy_result walk_skill_bundles(Fs& fs, Sink& sink, std::string_view install_root,
                                     const std::vector<skill_source>& sources,
                                     const typename Sink::dir& staging, NameOf name_of = {},
                                     const fs::copy_spec& base = {}) {
  const auto& check_entry = base.check_entry;
  static_assert(fs::check_policy<Fs>());
  using out_dir = typename Sink::dir;
  skill_copy_result result;
  if (sources.empty()) return result;

  std::optional<out_dir> skills;
  try {
    sink.make_dir(staging, "skills");
    skills.emplace(sink.open_dir(staging, "skills"));
  } catch (const error& e) {
    throw with_context(e, "failed to create skills in the bundle", "skills", reason_of(e));
  }

  for (const skill_source& source : sources) {
    fs::root_result<Fs> root = fs::open_anchored_root(fs, install_root, source.relative, "shared");
    if (root.status == fs::root_status::nothing) {
      result.without_content.push_back(source.alias);
      continue;
    }
    if (!root.opened()) throw skill_root_refusal(root, source.alias, source.source);
    result.sources.push_back(root.id);

    const std::string bundle_root = "skills/" + source.alias;
    if (check_entry) check_entry(root.id, bundle_root);
    std::optional<out_dir> bundle;
    bundle.emplace(detail::make_bundle_dir(sink, *skills, source.alias, bundle_root));

    carried_bundle carried{source.alias, {}};
    fs::copy_spec spec = base;
    spec.root = bundle_root;
    fs::for_each_entry_or(
        fs, *root.handle,
        [&](std::string_view name) {
          if (detail::carry_skill_dir(fs, sink, *root.handle, name, *bundle, source, name_of, spec,
                                      result.tally))
            carried.skills.emplace_back(name);
        },
        [&](const error& e) {
          throw with_context(e, "failed to read " + bundle_root, bundle_root, reason_of(e));
        });

    bundle.reset();
    if (carried.skills.empty()) {
      try {
        sink.remove_tree(*skills, source.alias);
      } catch (const error& e) {
        throw with_context(e, "failed to remove the empty " + bundle_root + " from the bundle",
                           bundle_root, reason_of(e));
      }
      result.without_content.push_back(source.alias);
      continue;
    }
    std::sort(carried.skills.begin(), carried.skills.end());
    result.carried.push_back(std::move(carried));
    ++result.bundles;
  }

  if (result.bundles == 0) {
    skills.reset();
    try {
      sink.remove_dir(staging, "skills");
    } catch (const error& e) {
      throw with_context(e, "failed to remove the empty skills from the bundle", "skills",
                         reason_of(e));
    }
  }
  return result;
}

/// `walk_skill_bundles` with the copying sink: copies into `staging/skills/<alias>/`.
template <class Fs, class NameOf = directory_name>
skill_copy_result copy_skill_bundles(Fs& fs, std::string_view install_root,
                                     const std::vector<skill_source>& sources,
                                     const typename Fs::dir& staging, NameOf name_of = {},
                                     fs::copy_sink* observer = nullptr) {
  fs::copying_sink<Fs> sink{fs};
  fs::copy_spec base;
  base.sink = observer;
  return walk_skill_bundles(fs, sink, install_root, sources, staging, name_of, base);
}

}  // namespace bundle
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
