// SPDX-License-Identifier: MIT
// `skills install <source>` as one library call: the source classified (a registry name is
// refused: clawport works offline), the destination resolved, a git source cloned with the
// system's git into a private temporary directory (its `.git` dropped; a local checkout is
// copied there without its `.git` too), a catalogue's
// `skills/<name>/` picked with `--skill`, then install_skill_directory (audited before and
// after the copy).
#pragma once

#include "../core/config.hpp"
#include "../core/host.hpp"
#include "../core/paths.hpp"
#include "../fs/temp_dir.hpp"
#include "install.hpp"
#include "install_context.hpp"
#include "placement.hpp"
#include "process.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// What to install, and where (the command's arguments; empty: not given).
struct source_request {
  std::string source;    ///< a skill directory or a git URL
  std::string bundle;    ///< --bundle
  std::string agent;     ///< --agent
  std::string skill;     ///< --skill: `skills/<skill>/` of a catalogue
  bool upgrade = false;  ///< --upgrade: replace an installed skill of the name
  /// --allow-scripts: scripts (a TEST.sh) pass the audit for this install, as
  /// `skills.allow_scripts = true` lets them for every one
  bool allow_scripts = false;
};

/// What the install did, and the notices to show before its warnings.
struct source_install {
  install_result result;
  std::vector<std::string> notices;
};

namespace detail {

/// Drops the clone's `.git` (a directory, or a file in a worktree clone).
template <class Fs>
void drop_git_dir(Fs& fs, const std::string& repo) {
  auto root = fs.open_root(repo);
  if (const auto st = fs.stat_at(root, ".git")) {
    if (st->kind == fs::file_kind::directory) {
      fs.remove_tree_at(root, ".git");
    } else {
      fs.unlink_at(root, ".git");
    }
  }
}

/// Whether the skill directory `dir` holds a `.git` (a local checkout).
template <class Fs>
bool has_git_dir(Fs& fs, const std::string& dir) {
  return fs.stat_at(fs.open_root(dir), ".git").has_value();
}

/// A local checkout copied into `to` (created) without its `.git`, as the git route drops
/// the clone's: version control (hooks, a remote's credentials) is never skill content. The
/// copy refuses a symlink, as the install's own copy does.
template <class Fs>
void copy_without_git(Fs& fs, const std::string& from, const std::string& to, std::uint32_t umask) {
  fs.make_dir_at(fs.open_root(paths::parent(to)), paths::file_name(to), fs::modes::private_dir);
  fs::copy_spec spec;
  spec.root = from;
  spec.refuse_symlinks = true;
  spec.umask = umask;
  spec.carries_name = [](std::string_view name) { return name != ".git"; };
  fs::copy_tally tally;
  fs::copy_tree(fs, fs.open_root(from), fs.open_root(to), spec, tally);
}

}  // namespace detail

/// Installs `req.source` into the install `inst` (see the file comment). `git` runs the
/// clone; `umask` is cleared from copied modes; `on_warning` hears of a temporary
/// directory that could not be removed.
template <class Fs, class Runner>
source_install install_from_source(Fs& fs, const Runner& git, const host_environment& host,
                                   const install_context& inst, const source_request& req,
                                   std::uint32_t umask,
                                   const std::function<void(const std::string&)>& on_warning) {
  const source_kind kind = classify_source(req.source);
  if (kind == source_kind::registry || kind == source_kind::extra_registry) {
    throw registry_unsupported(req.source);
  }
  const install_destination dest =
      resolve_install_destination(inst.cfg, inst.where, req.bundle, req.agent);
  install_options opt;
  opt.audit = audit_options{inst.cfg.allow_scripts || req.allow_scripts};
  opt.umask = umask;
  opt.upgrade = req.upgrade;
  opt.install_root = inst.where.install_root;
  opt.now_secs = host.now().seconds;
  source_install out;
  if (dest.notice) out.notices.push_back(*dest.notice);
  if (kind == source_kind::git) {
    fs::temp_dir<Fs> tmp(fs, host.temp_root, "clawport-git-", on_warning);
    const std::string repo = tmp.path() + "/repo";
    git_clone(git, req.source, repo);
    detail::drop_git_dir(fs, repo);
    const std::string src =
        req.skill.empty() ? repo : catalogue_skill(fs, repo, req.skill, req.source);
    const std::string name = req.skill.empty() ? git_source_name(req.source) : req.skill;
    out.result = install_skill_directory(fs, src, dest.location, name, opt);
  } else {
    const std::string abs = paths::normalize(host.absolute(req.source));
    std::string src = req.skill.empty() ? abs : catalogue_skill(fs, abs, req.skill, req.source);
    const std::string name = req.skill.empty() ? paths::file_name(abs) : req.skill;
    std::optional<fs::temp_dir<Fs>> tmp;  // a local checkout: installed without its `.git`
    if (detail::has_git_dir(fs, src)) {
      tmp.emplace(fs, host.temp_root, "clawport-src-", on_warning);
      out.notices.push_back("left out " + paths::join(src, ".git") +
                            ": version control is not skill content (as a git source's clone)");
      detail::copy_without_git(fs, src, paths::join(tmp->path(), name), umask);
      src = paths::join(tmp->path(), name);
    }
    out.result = install_skill_directory(fs, src, dest.location, name, opt);
  }
  return out;
}

/// The same with the system's git, run with the host's child environment (git_env).
template <class Fs>
source_install install_from_source(Fs& fs, const host_environment& host,
                                   const install_context& inst, const source_request& req,
                                   std::uint32_t umask,
                                   const std::function<void(const std::string&)>& on_warning) {
  return install_from_source(fs, posix_runner(git_env(host.child_env)), host, inst, req, umask,
                             on_warning);
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
