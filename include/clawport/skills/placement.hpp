// SPDX-License-Identifier: MIT
// Where `skills install|new|remove` write and how (docs/cli.md, `skills new`):
// the destination precedence, opening (or creating) a skills directory through handles,
// and the staged publish every new skill goes through.
//
// A new skill is built in `<skills-dir>/.clawport-stage-<token>/<name>/` and published with
// one no-replace rename to `<skills-dir>/<name>`: a crash before the rename leaves only
// the staging directory, which has no manifest at its root, so the loader drops it and
// never loads a half-written skill. Removal renames the skill away in one step first.
#pragma once

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "../formats/json.hpp"
#include "../fs/modes.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "../fs/write_new_file.hpp"
#include "../publish/exchange_entry.hpp"
#include "../publish/names.hpp"
#include "../publish/rename.hpp"
#include "../publish/staged_dir.hpp"
#include "../publish/undo.hpp"
#include "loader.hpp"
#include "locations.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// Prefix of the staging directory a new skill is built in, beside its destination (the
/// `skills` family of the registry of staging names, which `clawport recover` knows).
inline constexpr std::string_view stage_prefix =
    publish::family_of(publish::staging_kind::skills).prefix;

/// A skills directory to write into: `anchor` (absolute, opened following symlinks as
/// ZeroClaw does for the install root) and `relative` (walked and created component by
/// component, never through a symlink).
struct skills_dir_location {
  std::string bundle;    ///< the bundle alias; empty for the global directory
  std::string path;      ///< absolute, lexically normalised
  std::string anchor;    ///< absolute
  std::string relative;  ///< below `anchor`, '/'-separated, may be empty
  bool global() const noexcept { return bundle.empty(); }
};

namespace detail {

inline skills_dir_location anchored(std::string bundle, const std::string& dir,
                                    std::string_view install_root) {
  skills_dir_location loc;
  loc.bundle = std::move(bundle);
  loc.path = paths::normalize(dir);
  const std::string root = paths::normalize(install_root);
  if (auto rel = paths::strip_prefix(loc.path, root)) {
    loc.anchor = root;
    loc.relative = *rel;
  } else {
    // Outside the install (a ZEROCLAW_DATA_DIR elsewhere): its parent is the anchor.
    loc.anchor = paths::parent(loc.path);
    loc.relative = paths::file_name(loc.path);
  }
  return loc;
}

}  // namespace detail

/// The bundle's directory as a write location. The directory must satisfy upstream's
/// `validate_directory` (inside `<install>/shared`), else errc::unsafe_path.
inline skills_dir_location bundle_location(const skills_config& cfg, std::string_view install_root,
                                           const std::string& alias) {
  const std::string dir = resolve_directory(cfg, install_root, alias);
  validate_directory(dir, install_root, "skill_bundles." + alias + ".directory");
  return detail::anchored(alias, dir, install_root);
}

/// The global skills directory `<data>/skills` as a write location.
inline skills_dir_location global_location(const install_paths& where) {
  return detail::anchored(std::string(), global_skills_dir(where.data()), where.install_root);
}

/// Where `skills install` writes (upstream `resolve_install_location`).
struct install_destination {
  skills_dir_location location;
  std::string agent;                  ///< the target agent, if one decided
  std::optional<std::string> notice;  ///< set for the global fallback
};

/// The agent `skills install|remove` target when `--agent` is not given: upstream's
/// runtime-active agent, which is `default` in a multi-agent config.
inline constexpr std::string_view default_agent_alias = "default";

/// An explicit `bundle` (must be configured) › the target agent's single bundle ›
/// refusal naming every bundle when it has two or more › the global directory, with a
/// notice that no agent loads it. The target agent is `agent`, else `default` when that
/// is configured. An explicit unknown `agent` is errc::unknown_agent even with `bundle`.
inline install_destination resolve_install_destination(const skills_config& cfg,
                                                       const install_paths& where,
                                                       const std::string& bundle,
                                                       const std::string& agent) {
  if (!agent.empty() && !cfg.agents.count(agent)) {
    throw error(errc::unknown_agent, "agent '" + agent + "' is not configured", "agents." + agent);
  }
  install_destination out;
  if (!bundle.empty()) {
    out.location = bundle_location(cfg, where.install_root, bundle);
    out.agent = agent;
    return out;
  }
  const std::string target = agent.empty() ? std::string(default_agent_alias) : agent;
  const auto it = cfg.agents.find(target);
  if (it != cfg.agents.end()) {
    std::vector<std::string> assigned;
    for (const std::string& b : it->second.skill_bundles) {
      const std::string_view t = text::trim(b);
      if (!t.empty()) assigned.emplace_back(t);
    }
    if (assigned.size() == 1) {
      out.location = bundle_location(cfg, where.install_root, assigned.front());
      out.agent = target;
      return out;
    }
    if (assigned.size() > 1) {
      std::string list;
      for (const std::string& b : assigned) list += (list.empty() ? "" : ", ") + b;
      throw error(errc::invalid_argument,
                  "agent '" + target + "' has several skill bundles (" + list +
                      "); pass --bundle to choose where the skill goes",
                  "agents." + target + ".skill_bundles");
    }
    out.agent = target;
  }
  out.location = global_location(where);
  out.notice = "installed into the global skills directory " + out.location.path +
               ", which no agent loads; install it into a bundle (--bundle) that an agent lists "
               "in agents.<alias>.skill_bundles to make it available at run time";
  return out;
}

/// Opens the skills directory of `loc`, creating missing components (mode 0755) when
/// `create`. A symlink or non-directory on the way is errc::unsafe_path; a component
/// replaced between inspection and open is errc::identity_changed; a missing one
/// without `create` is errc::not_found.
template <class Fs>
typename Fs::dir open_skills_dir(Fs& fs, const skills_dir_location& loc, bool create) {
  static_assert(fs::check_policy<Fs>());
  std::optional<typename Fs::dir> cur;
  try {
    cur.emplace(fs.open_root(loc.anchor));
  } catch (const error& e) {
    throw with_context(e, "failed to open " + loc.anchor, loc.anchor, reason_of(e));
  }
  const std::string rel = paths::join_components(paths::components(loc.relative), false);
  fs::path_result<Fs> r = fs::try_open_path(fs, *cur, rel, create, loc.anchor);
  const std::string walked = fs::shown_path(loc.anchor, r.at);
  switch (r.refusal) {
    case fs::path_refusal::none:
      return r.dir ? std::move(*r.dir) : std::move(*cur);
    case fs::path_refusal::not_relative:
      throw error(errc::unsafe_path, walked + " is not a plain directory name", walked);
    case fs::path_refusal::missing:
      throw error(errc::not_found, "skills directory " + walked + " does not exist", walked,
                  ENOENT);
    case fs::path_refusal::symlink:
      throw error(errc::unsafe_path,
                  walked +
                      " is a symlink; clawport never writes skills through a symlink, so "
                      "point the bundle's directory at the real directory",
                  walked);
    default:
      throw fs::path_error(r, loc.anchor);
  }
}

/// The refusal for a skill name that is taken (upstream's scaffold `AlreadyExists` text),
/// with `hint` (the way out, e.g. `--upgrade`) when given.
inline error skill_exists(const skills_dir_location& loc, const std::string& name,
                          std::string_view hint = {}) {
  const std::string path = paths::join(loc.path, name);
  return error(errc::destination_refused,
               "skill '" + shown_skill(loc.bundle, name) + "' already exists at " + path +
                   "; nothing was written" +
                   (hint.empty() ? std::string() : " (" + std::string(hint) + ")"),
               path);
}

/// What an upgrade is about to do, written into its staging directory before the first
/// visible change (the exchange): a kill after it leaves the user's previous version in the
/// staging directory, and `clawport recover` reads this record to archive that version (or
/// put it back), never to delete it with the staging tree.
struct upgrade_intent {
  std::string name;           ///< the skill (its directory name)
  fs::file_id previous;       ///< the identity of the installed version being replaced
  std::string install_root;   ///< for the archive; empty: a global skill (deleted, as upgrade does)
  std::string bundle;         ///< the bundle alias (empty for the global directory)
  std::int64_t now_secs = 0;  ///< the second stamping the archive's name
};

/// The record's name inside the staging directory.
inline constexpr std::string_view upgrade_intent_file = ".clawport-upgrade.json";

/// The record's text (JSON, one object). A template (J is always nlohmann::ordered_json) so
/// that only an upgrade instantiates it (issue 48).
template <class J = nlohmann::ordered_json>
std::string intent_text(const upgrade_intent& i) {
  J j;
  j["clawport_upgrade"] = 1;
  j["name"] = i.name;
  j["previous_dev"] = i.previous.dev;
  j["previous_ino"] = i.previous.ino;
  j["install_root"] = i.install_root;
  j["bundle"] = i.bundle;
  j["now"] = i.now_secs;
  return json::dump(j) + "\n";
}

/// The record in the open staging directory `stage`; nullopt when there is none or it is
/// incomplete (a kill while it was written, before anything visible changed).
template <class Fs>
std::optional<upgrade_intent> read_upgrade_intent(Fs& fs, const typename Fs::dir& stage) {
  const fs::read_result r = fs::try_read_file_at(fs, stage, upgrade_intent_file, 65536);
  if (r.refusal != fs::read_refusal::none) return std::nullopt;
  using intent_json = json::json_for<Fs>;  // checked where called (issue 48)
  const intent_json j = intent_json::parse(r.bytes, nullptr, false);
  if (!j.is_object() || j.value("clawport_upgrade", 0) != 1) return std::nullopt;
  try {
    upgrade_intent i;
    i.name = j.at("name").template get<std::string>();
    i.previous.dev = j.at("previous_dev").template get<std::uint64_t>();
    i.previous.ino = j.at("previous_ino").template get<std::uint64_t>();
    i.install_root = j.at("install_root").template get<std::string>();
    i.bundle = j.at("bundle").template get<std::string>();
    i.now_secs = j.at("now").template get<std::int64_t>();
    if (i.name.empty() || i.name.find('/') != std::string::npos) return std::nullopt;
    return i;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

/// A staging directory beside a new skill's destination (a publish::staged_dir of the
/// `skills` family). The skill is built in `stage/<name>`, so it carries its own name while
/// it is audited; `publish` renames it into place without replacing anything. Unless
/// published, the destructor removes the staging tree (best effort, errors swallowed).
template <class Fs>
class staged_skill {
 public:
  using dir = typename Fs::dir;

  /// Creates `.clawport-stage-<token>/<name>/` in `parent`.
  staged_skill(Fs& fs, const dir& parent, const skills_dir_location& loc, std::string name)
      : fs_(fs), parent_(parent), loc_(loc), name_(std::move(name)) {
    try {
      stage_.emplace(fs_, parent_, publish::staging_kind::skills);
    } catch (const error& e) {
      throw with_context(e, "failed to create the staging directory in " + loc_.path, loc_.path,
                         reason_of(e));
    }
    stage_name_ = stage_->name();
    try {
      fs_.make_dir_at(stage_->handle(), name_, fs::modes::dir);
      skill_.emplace(fs_.open_dir_at(stage_->handle(), name_));
    } catch (const error& e) {
      skill_.reset();
      stage_.reset();  // removes the staging tree
      throw with_context(e, "failed to create " + skill_path(), stage_path(), reason_of(e));
    }
  }
  staged_skill(const staged_skill&) = delete;
  staged_skill& operator=(const staged_skill&) = delete;

  ~staged_skill() {
    skill_.reset();
    stage_.reset();  // a crash or a failing disk leaves it, inert (no manifest)
  }

  /// The skill directory being built.
  const dir& skill() const { return *skill_; }
  /// Absolute path of the skill directory being built (for the audit).
  std::string skill_path() const { return paths::join(stage_path(), name_); }
  std::string stage_path() const { return paths::join(loc_.path, stage_name_); }

  /// Renames `stage/<name>` to `<name>` (publish::rename_noreplace), makes it durable, and
  /// removes the staging directory. A taken name is `skill_exists`. Returns a warning when
  /// only the cleanup of the empty staging directory failed.
  std::optional<std::string> publish() {
    const std::string dest = paths::join(loc_.path, name_);
    sync_staged(dest);
    bool done = false;
    try {
      done = stage_->publish_entry(name_, parent_, name_);
    } catch (const error& e) {
      throw with_context(e, "failed to move the staged skill into " + dest, dest, reason_of(e));
    }
    if (!done) throw skill_exists(loc_, name_);
    try {
      fs_.sync_dir(parent_);
    } catch (const error& e) {
      // Withdraw: the destination was vacant, so it is vacant again.
      try {
        publish::rename_back(fs_, stage_->handle(), name_, parent_, name_)();
      } catch (const error&) {
        throw with_context(e, "failed to make " + dest + " durable (it stays published)", dest,
                           reason_of(e));
      }
      throw with_context(e, "failed to make " + dest + " durable", dest, reason_of(e));
    }
    skill_.reset();
    try {
      stage_->remove();
    } catch (const error& e) {
      return "the empty staging directory " + stage_path() + " could not be removed (" + e.what() +
             "); delete it";
    }
    return std::nullopt;
  }

  /// Replaces the published skill `<name>` (whose identity is `intent.previous`) with the
  /// staged one, after recording `intent` in the staging directory (durable with the copy):
  /// one RENAME_EXCHANGE where the filesystem has it, else two renames through the staging
  /// directory, each undone on failure. The old version then sits in the staging directory;
  /// `retire(stage, entry)` moves it away (the archive) or leaves it to be deleted with the
  /// staging directory. Any failure up to and including `retire` puts the old version back
  /// and rethrows. Returns what `retire` returned; `warning` is set when a cleanup failed.
  template <class Retire>
  std::string replace(const upgrade_intent& intent, Retire&& retire, std::string& warning) {
    const fs::file_id& old_id = intent.previous;
    const std::string dest = paths::join(loc_.path, name_);
    try {
      record(intent);
    } catch (const error& e) {
      throw with_context(e, "failed to record the upgrade of " + dest + " in " + stage_path(), dest,
                         reason_of(e));
    }
    sync_staged(dest);
    const std::string old_entry = swap_in(dest);
    std::string retired;
    try {
      const auto moved = fs_.stat_at(stage_->handle(), old_entry);
      if (!moved || moved->id != old_id) {
        throw error(errc::identity_changed,
                    dest + " was replaced while it was being upgraded; nothing was changed", dest);
      }
      fs_.sync_dir(parent_);
      retired = retire(stage_->handle(), old_entry);
    } catch (const error& e) {
      swap_back(dest, old_entry, e);
      throw;
    }
    skill_.reset();
    try {
      stage_->remove();
    } catch (const error& e) {
      warning = "the staging directory " + stage_path() + " could not be removed (" + e.what() +
                "); delete it";
    }
    return retired;
  }

 private:
  static constexpr std::string_view swap_aside = "previous";

  /// Flushes the staged skill before it is published as `dest` (the one sync-then-rethrow
  /// of a publish and an upgrade).
  void sync_staged(const std::string& dest) {
    try {
      fs_.sync_filesystem(*skill_);
    } catch (const error& e) {
      throw with_context(e, "failed to make " + dest + " durable", dest, reason_of(e));
    }
  }

  /// Writes the upgrade's intent into the staging directory (made durable by the
  /// sync_filesystem that follows, before the exchange).
  void record(const upgrade_intent& intent) {
    const std::string text = intent_text(intent);
    fs::write_new_file(fs_, stage_->handle(), upgrade_intent_file, text, fs::modes::private_file);
  }

  /// The staged skill to `<name>`, the old one into the staging directory
  /// (publish::exchange_entry); returns the old one's entry there (`<name>` after an
  /// exchange, `previous` after two renames).
  std::string swap_in(const std::string& dest) {
    bool stranded = false;
    const auto taken = [&](const error& e) {
      return e.code() == errc::destination_refused && e.subject() == name_;
    };
    const auto strand = [&](const error& cause) {
      stranded = true;
      stage_->release();  // it holds the old version: keep it for the user
      const error e = taken(cause) ? skill_exists(loc_, name_) : cause;
      return error(e.code(),
                   std::string(e.what()) + "; the previous version could not be put back: it " +
                       "is in " + paths::join(stage_path(), swap_aside),
                   dest, e.sys_errno());
    };
    try {
      return publish::exchange_entry(fs_, stage_->handle(), name_, parent_, name_, swap_aside,
                                     strand);
    } catch (const error& e) {
      if (stranded) throw;
      if (taken(e)) throw skill_exists(loc_, name_);
      throw with_context(e, "failed to move the upgraded skill into " + dest, dest, reason_of(e));
    }
  }

  /// Undoes swap_in after `cause`: the old version (`stage/old_entry`) back at `<name>`
  /// (publish::exchange_back).
  void swap_back(const std::string& dest, const std::string& old_entry, const error& cause) {
    try {
      publish::exchange_back(fs_, stage_->handle(), name_, parent_, name_, old_entry);
    } catch (const error&) {
      stage_->release();  // it holds a version of the skill: keep it for the user
      throw error(cause.code(),
                  std::string(cause.what()) + "; the previous version could not be put back: " +
                      "it is in " + stage_path() + ", the new one at " + dest,
                  dest, cause.sys_errno());
    }
  }

  Fs& fs_;
  const dir& parent_;
  skills_dir_location loc_;
  std::string name_;
  std::string stage_name_;
  std::optional<publish::staged_dir<Fs>> stage_;
  std::optional<dir> skill_;
};

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
