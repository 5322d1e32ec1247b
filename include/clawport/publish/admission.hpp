// SPDX-License-Identifier: MIT
// Admission of the destination (docs/library.md, The Publish policy), bound to the identity of the
// object that was checked, and the identity re-checks publishing repeats (docs/library.md, The
// Publish policy). Everything goes through the handle of the destination's parent, opened once.
#pragma once

#include "../core/error.hpp"
#include "../fs/policy.hpp"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// What the destination was when the export admitted it.
enum class admission_kind {
  vacant,  ///< nothing had the name
  empty,   ///< an empty directory (no --force needed)
  forced,  ///< a non-empty directory that --force allowed to be replaced
};

/// The admitted destination: its kind and, for a directory, its identity.
struct admission {
  admission_kind kind = admission_kind::vacant;
  fs::file_id id;
};

/// An admission plus the open handle of the admitted directory (empty when vacant), so the
/// exporter can hold a lock on the object it will replace.
template <class Fs>
struct admitted {
  admission adm;
  std::optional<typename Fs::dir> handle;
};

/// How the destination is named in messages: `display` is --out as the user typed it,
/// `path` the resolved absolute path.
struct destination_names {
  std::string display;
  std::string path;
};

namespace detail {}  // namespace detail

/// The refusals of docs/library.md, The Publish policy, with upstream's exact wording.
namespace refusal {
inline error symlink(const destination_names& d) {
  return error(errc::unsafe_path,
               "destination " + d.display +
                   " is a symlink; publishing would replace whatever it points at rather than "
                   "the path you named, so name the directory itself",
               d.display);
}
inline error not_a_directory(const destination_names& d) {
  return error(errc::destination_refused,
               "destination " + d.display + " exists and is not a directory", d.display);
}
inline error changed(const destination_names& d) {
  return error(errc::identity_changed,
               "destination " + d.display +
                   " is not the directory this export checked before copying; nothing was "
                   "replaced, so look at what is there and export again",
               d.display);
}
/// What a non-empty destination needs, said to every caller (a C++ one sets `force`); the
/// CLI names its flag after it.
inline constexpr std::string_view force_words = "replacing its contents needs the force option";
inline error not_empty(const destination_names& d) {
  return error(errc::destination_refused,
               "destination " + d.display + " is not empty \u2014 " + std::string(force_words),
               d.display);
}
inline error appeared(const destination_names& d) {
  return error(errc::identity_changed,
               "destination " + d.display +
                   " did not exist when the export started and does now; replacing it was never "
                   "admitted, so nothing was written",
               d.display);
}
inline error is_source(const destination_names& d) {
  return error(errc::overlap,
               "destination " + d.display +
                   " is now one of the trees this export read; publishing would replace the "
                   "source it just copied, so nothing was written",
               d.display);
}
}  // namespace refusal

/// Identity of the directory called `name` in `parent`, or nullopt when the name is absent,
/// is a symlink, is not a directory, or changed between the stat and the open.
template <class Fs>
std::optional<fs::file_id> destination_identity(Fs& fs, const typename Fs::dir& parent,
                                                std::string_view name) {
  const std::optional<fs::stat_info> st = fs.stat_at(parent, name);
  if (!st || st->kind != fs::file_kind::directory) return std::nullopt;
  std::optional<typename Fs::dir> opened;
  try {
    opened.emplace(fs.open_dir_at(parent, name));
  } catch (const error& e) {
    // Only "the name now is something else" means no identity; a failing disk is an error.
    const int err = e.sys_errno();
    if (err == ENOENT || err == ENOTDIR || err == ELOOP) return std::nullopt;
    throw;
  }
  const fs::stat_info now = fs.stat(*opened);
  if (now.id != st->id) return std::nullopt;
  return now.id;
}

/// Admission (`check_destination`, docs/library.md, The Publish policy): refuses a symlink, a
/// non-directory, a directory that changed between stat and open, and a non-empty directory without
/// `force`.
template <class Fs>
admitted<Fs> admit(Fs& fs, const typename Fs::dir& parent, std::string_view name, bool force,
                   const destination_names& d) {
  std::optional<fs::stat_info> st;
  try {
    st = fs.stat_at(parent, name);
  } catch (const error& e) {
    throw with_context(e.code(), e, "failed to inspect destination " + d.display, d.display);
  }
  admitted<Fs> out;
  if (!st) return out;  // vacant
  if (st->kind == fs::file_kind::symlink) throw refusal::symlink(d);
  if (st->kind != fs::file_kind::directory) throw refusal::not_a_directory(d);
  try {
    out.handle.emplace(fs.open_dir_at(parent, name));
  } catch (const error& e) {
    throw with_context(e.code(), e, "failed to open destination " + d.display, d.display);
  }
  fs::stat_info opened;
  try {
    opened = fs.stat(*out.handle);
  } catch (const error& e) {
    throw with_context(e.code(), e, "failed to inspect destination " + d.display, d.display);
  }
  if (opened.id != st->id) throw refusal::changed(d);
  out.adm.id = opened.id;
  if (fs.is_empty(*out.handle)) {
    out.adm.kind = admission_kind::empty;
  } else if (force) {
    out.adm.kind = admission_kind::forced;
  } else {
    throw refusal::not_empty(d);
  }
  return out;
}

/// The re-check before replacing an admitted directory (docs/library.md, The Publish policy): the
/// name must still be the admitted object and never one of the source trees the export read.
template <class Fs>
void recheck_admitted(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                      const admission& adm, const std::vector<fs::file_id>& sources,
                      const destination_names& d) {
  std::optional<fs::file_id> current;
  try {
    current = destination_identity(fs, parent, name);
  } catch (const error& e) {
    throw with_context(errc::publish_failed, e, "failed to inspect destination " + d.display,
                       d.display);
  }
  if (current && std::find(sources.begin(), sources.end(), *current) != sources.end()) {
    throw refusal::is_source(d);
  }
  if (!current || *current != adm.id) throw refusal::changed(d);
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
