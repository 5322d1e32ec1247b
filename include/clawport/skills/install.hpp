// SPDX-License-Identifier: MIT
// `skills install` (docs/cli.md, `skills install`): what a source string is, the
// audited copy of a skill directory into its destination, and fetching a git source with
// the system's git into a private directory.
//
// The copy is the export's handle-relative copy (fs/copy.hpp) with symlinks refused: the
// source is audited, copied into a staging directory beside the destination, audited
// again as copied, then published with one no-replace rename (skills/placement.hpp). An
// existing destination is refused (unless upgrading: then the staged copy is swapped in and
// the old version archived) and any failure leaves the install as it was.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/error.hpp"
#include "../fs/copy.hpp"
#include "../fs/policy.hpp"
#include "audit.hpp"
#include "locations.hpp"
#include "placement.hpp"
#include "process.hpp"
#include "remove.hpp"
#include "upgrade_recovery.hpp"  // part of this header's API since it was split out

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// What an install source names.
enum class source_kind {
  local,           ///< a directory on this machine
  git,             ///< a git URL or scp-like `user@host:path`
  registry,        ///< a bare registry name (`release-check`)
  extra_registry,  ///< `registry:<reg>/<skill>`
};

namespace detail {

inline bool bare_registry_name(std::string_view s) noexcept {
  if (s.empty() || s.front() == '.' || s.front() == '~') return false;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

inline bool has_url_host(std::string_view rest) noexcept {
  const std::size_t slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  const std::size_t at = authority.rfind('@');
  const std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
  return !host.empty();
}

}  // namespace detail

/// True for `https://`, `http://`, `ssh://`, `git://` URLs with a host, `file://` URLs,
/// and scp-like `user@host:path` (an `@` before the first `:`, no `/` before it).
inline bool is_git_source(std::string_view s) noexcept {
  for (const std::string_view scheme : {"https://", "http://", "ssh://", "git://"}) {
    if (s.substr(0, scheme.size()) == scheme) return detail::has_url_host(s.substr(scheme.size()));
  }
  if (s.substr(0, 7) == "file://") return s.size() > 7;
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon + 1 >= s.size()) return false;
  const std::string_view left = s.substr(0, colon);
  const std::size_t at = left.find('@');
  return at != std::string_view::npos && at > 0 && at + 1 < left.size() &&
         left.find('/') == std::string_view::npos;
}

/// Upstream `is_registry_source`: a non-empty `[A-Za-z0-9_-]` name not starting
/// with `.` or `~` (so no path, URL, traversal or scheme).
inline bool is_registry_source(std::string_view s) noexcept {
  return detail::bare_registry_name(s);
}

/// Upstream `is_extra_registry_source`: `registry:<reg>/<skill>` with `<reg>` non-empty
/// `[a-z0-9_-]` and `<skill>` a bare registry name.
inline bool is_extra_registry_source(std::string_view s) noexcept {
  constexpr std::string_view prefix = "registry:";
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  for (const char c : s.substr(0, slash)) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return detail::bare_registry_name(s.substr(slash + 1));
}

/// Classifies a source in upstream's order: git, extra registry, registry, local path.
inline source_kind classify_source(std::string_view s) noexcept {
  if (is_git_source(s)) return source_kind::git;
  if (is_extra_registry_source(s)) return source_kind::extra_registry;
  if (is_registry_source(s)) return source_kind::registry;
  return source_kind::local;
}

/// The refusal for registry sources: clawport works offline and has no registry client.
inline error registry_unsupported(const std::string& source) {
  return error(errc::unsupported,
               "'" + source +
                   "' names a skill registry entry; clawport installs offline and does not "
                   "fetch from registries. Install from a git URL or a local directory instead "
                   "(to install a directory of that name, write ./" +
                   source + ")",
               source);
}

/// The directory name a git source installs as: its last path component without `.git`.
inline std::string git_source_name(std::string_view url) {
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  std::size_t cut = url.find_last_of("/:");
  std::string_view last = cut == std::string_view::npos ? url : url.substr(cut + 1);
  if (last.size() > 4 && last.substr(last.size() - 4) == ".git") last.remove_suffix(4);
  return std::string(last);
}

/// The clone command: shallow, no hooks, no submodules, no tags, no fsmonitor, objects
/// checked, an empty template directory.
inline std::vector<std::string> git_clone_argv(const std::string& url, const std::string& dir) {
  return {"git",
          "-c",
          "core.hooksPath=/dev/null",
          "-c",
          "core.fsmonitor=false",
          "-c",
          "transfer.fsckObjects=true",
          "-c",
          "protocol.ext.allow=never",
          "clone",
          "--depth",
          "1",
          "--no-recurse-submodules",
          "--no-tags",
          "--single-branch",
          "--template=",
          "--quiet",
          "--",
          url,
          dir};
}

/// The environment git runs with: PATH and HOME from `base` (for the user's keys), no
/// terminal prompts, no askpass, no system config, ssh in batch mode.
inline process_env git_env(const process_env& base) {
  process_env env;
  for (const std::string& e : base) {
    for (const std::string_view keep : {"PATH=", "HOME=", "LANG=", "SSH_AUTH_SOCK="}) {
      if (e.compare(0, keep.size(), keep) == 0) env.push_back(e);
    }
  }
  env.emplace_back("GIT_TERMINAL_PROMPT=0");
  env.emplace_back("GIT_ASKPASS=/bin/false");
  env.emplace_back("SSH_ASKPASS=/bin/false");
  env.emplace_back("GIT_CONFIG_NOSYSTEM=1");
  env.emplace_back("GIT_SSH_COMMAND=ssh -o BatchMode=yes");
  return env;
}

/// Clones `url` into `dir` (which must not exist; its parent should be private) with
/// `runner`. Throws errc::io with git's output when the clone fails.
template <class Runner>
void git_clone(const Runner& runner, const std::string& url, const std::string& dir,
               std::chrono::milliseconds timeout = std::chrono::minutes(5)) {
  const command_outcome o = runner.run(git_clone_argv(url, dir), "/", timeout);
  if (!o.error.empty()) {
    throw error(errc::unsupported, "cannot run git to fetch " + url + ": " + o.error, url);
  }
  if (o.timed_out || o.exit != 0) {
    throw error(errc::io,
                "git clone of " + url + (o.timed_out ? " timed out" : " failed") +
                    (o.output.empty() ? std::string() : ": " + truncate_output(o.output, 400)),
                url);
  }
}

/// Options of `install_skill_directory`.
struct install_options {
  audit_options audit;
  /// Cleared from the mode of every copied file, as `cp` without `-p` does
  /// (fs::copied_mode). The CLI passes the process umask, read once.
  std::uint32_t umask = 022;
  /// Replace an installed skill of the same name (`--upgrade`): the copy is staged and
  /// audited as for a new skill, then swapped in; the old version is archived as `skills
  /// remove` archives (a global skill's is deleted). Without it a taken name is refused.
  bool upgrade = false;
  /// The install root (for the archive `<root>/shared/skills/_deleted/`) and the second
  /// stamping the archive's name (SOURCE_DATE_EPOCH or the clock); used by an upgrade.
  std::string install_root;
  std::int64_t now_secs = 0;
};

/// What an install did.
struct install_result {
  std::string name;               ///< the installed directory name
  std::string directory;          ///< absolute destination
  std::string bundle;             ///< empty for the global directory
  std::size_t files_scanned = 0;  ///< by the audit of the copy
  bool upgraded = false;          ///< an installed version was replaced
  std::string archived_to;        ///< where the replaced version went (empty: deleted or none)
  fs::copy_tally tally;
  std::vector<std::string> warnings;
};

namespace detail {

/// What lets a blocked script in (issue 44 item 5): the config key, or the option of this
/// one install (the CLI's `--allow-scripts`, as `skills audit` has).
inline constexpr std::string_view allow_scripts_fix =
    " (scripts, a TEST.sh for `skills test` included, are allowed by `[skills] allow_scripts = "
    "true` in config.toml, or for this install alone by allow_scripts: --allow-scripts)";

[[noreturn]] inline void audit_failed(const audit_report& r, const std::string& where) {
  std::string why = "Skill security audit failed: " + r.summary();
  if (why.find("script-like files are blocked") != std::string::npos) why += allow_scripts_fix;
  throw error(errc::audit_blocked, why, where);
}

}  // namespace detail

/// Installs the skill directory `source` (absolute; its root is opened following a
/// symlink, as upstream canonicalises it) as `loc/<name>`. Steps: audit the source;
/// open (create) the destination directory; refuse a taken name; copy into a staging
/// directory beside it (a symlink anywhere is a hard error, special files and hard-linked
/// files are skipped and counted); audit the copy; publish with a no-replace rename.
template <class Fs>
install_result install_skill_directory(Fs& fs, const std::string& source,
                                       const skills_dir_location& loc, const std::string& name,
                                       const install_options& opt = {}) {
  static_assert(fs::check_policy<Fs>());
  check_skill_dir_name(name);
  if (name.compare(0, stage_prefix.size(), stage_prefix) == 0)  // a staging directory's name
    throw error(errc::invalid_argument, "cannot install a skill named '" + name + "'", name);
  install_result out;
  out.name = name;
  out.bundle = loc.bundle;
  out.directory = paths::join(loc.path, name);

  if (paths::starts_with(loc.path, paths::normalize(source))) {
    throw error(errc::overlap,
                "cannot install " + source + " into " + loc.path +
                    ", which lies inside it: the copy would copy itself",
                source);
  }
  const audit_report before = audit_skill_directory(fs, source, opt.audit);
  if (!before.clean()) detail::audit_failed(before, source);

  typename Fs::dir parent = open_skills_dir(fs, loc, true);
  const std::string shown = shown_skill(loc.bundle, name);
  std::optional<fs::file_id> installed;
  if (fs.stat_at(parent, name)) {
    if (!opt.upgrade) throw skill_exists(loc, name, "--upgrade replaces it, archiving it first");
    // Only a real skill directory is upgraded (remove's refusals), before anything is copied.
    installed = detail::removable_skill_id(fs, parent, name, shown, out.directory);
  }
  typename Fs::dir src = fs.open_root(paths::normalize(source));
  staged_skill<Fs> stage(fs, parent, loc, name);
  fs::copy_spec spec;
  spec.root = source;
  spec.refuse_symlinks = true;
  spec.umask = opt.umask;
  fs::copy_tree(fs, src, stage.skill(), spec, out.tally);
  const audit_report after = audit_skill_directory(fs, stage.skill_path(), opt.audit);
  if (!after.clean()) detail::audit_failed(after, out.directory);
  out.files_scanned = after.files_scanned;
  if (installed) {
    if (opt.install_root.empty()) {
      throw error(errc::invalid_argument, "an upgrade needs the install root for its archive",
                  out.directory);
    }
    std::string warning;
    const upgrade_intent intent{name, *installed, loc.global() ? std::string() : opt.install_root,
                                loc.bundle, opt.now_secs};
    out.archived_to = stage.replace(
        intent,
        [&](const typename Fs::dir& from, const std::string& entry) {
          if (loc.global()) return std::string();  // deleted with the staging directory
          return detail::archive_skill(fs, from, entry, loc, opt.install_root, name, shown,
                                       out.directory, opt.now_secs);
        },
        warning);
    out.upgraded = true;
    if (!warning.empty()) out.warnings.push_back(warning);
  } else if (auto w = stage.publish()) {
    out.warnings.push_back(*w);
  }
  if (out.tally.hard_links_skipped) {
    out.warnings.push_back(std::to_string(out.tally.hard_links_skipped) +
                           " hard-linked file(s) of the source were not copied");
  }
  if (out.tally.others_skipped) {
    out.warnings.push_back(std::to_string(out.tally.others_skipped) +
                           " special file(s) (FIFO, socket, device) of the source were skipped");
  }
  if (out.tally.replaced_skipped) {
    out.warnings.push_back(std::to_string(out.tally.replaced_skipped) +
                           " entr(ies) changed while they were copied and were skipped");
  }
  return out;
}

/// Picks `skills/<skill>/` of a fetched catalogue at `root` (absolute), refusing a
/// non-bare name, a symlinked `skills/` or selection, and a missing skill (listing what
/// the catalogue has). Returns the absolute source directory.
template <class Fs>
std::string catalogue_skill(Fs& fs, const std::string& root, const std::string& skill,
                            const std::string& shown) {
  if (!is_registry_source(skill)) {
    throw error(errc::invalid_argument,
                "--skill '" + skill + "' must be a bare skill name (letters, digits, _ and -)",
                skill);
  }
  auto r = fs.open_root(paths::normalize(root));
  const auto st = fs.stat_at(r, "skills");
  if (!st || st->kind != fs::file_kind::directory) {
    throw error(errc::not_found,
                shown + " has no skills/ directory" +
                    (st && st->kind == fs::file_kind::symlink ? " (it is a symlink)" : ""),
                shown);
  }
  auto skills = fs.open_dir_at(r, "skills");
  const auto pick = fs.stat_at(skills, skill);
  if (pick && pick->kind == fs::file_kind::symlink) {
    throw error(errc::unsafe_path, "skills/" + skill + " in " + shown + " is a symlink", shown);
  }
  if (!pick || pick->kind != fs::file_kind::directory) {
    std::vector<std::string> names;
    fs.for_each_entry(skills, [&](std::string_view n) {
      const auto s = fs.stat_at(skills, n);
      if (s && s->kind == fs::file_kind::directory) names.emplace_back(n);
    });
    std::sort(names.begin(), names.end());
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw error(errc::not_found,
                "skill '" + skill + "' not found in " + shown +
                    " (available: " + (list.empty() ? std::string("none") : list) + ")",
                skill);
  }
  return paths::join(paths::join(root, "skills"), skill);
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
