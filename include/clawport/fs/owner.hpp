// SPDX-License-Identifier: MIT
// Giving what a command made in a user's install to that user: a root run (`sudo clawport
// import`) must not leave trees the runtime, running as the install's owner, cannot change
// or remove (issue 41 item 8). New files are given their owner one at a time by
// publish::create_owned_file and publish::replace_file; a new tree is given it here, on
// the one tree walk, before it is published.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "policy.hpp"
#include "walk.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

namespace detail {

/// errc::unsafe_path naming `shown` (what the owner was taken from) when this user cannot
/// give `owner` a file.
inline error cannot_give(const error& e, const stat_info& owner, const std::string& shown) {
  return error(errc::unsafe_path,
               shown + " belongs to another user or group (" + std::to_string(owner.uid) + ":" +
                   std::to_string(owner.gid) +
                   ") that this user cannot give a new file, and what clawport writes there "
                   "must stay theirs; run as its owner: " +
                   reason_of(e),
               shown, e.sys_errno());
}

}  // namespace detail

/// Gives the directory `d` to `owner`'s uid and gid when it is not theirs already; a no-op
/// where the backend models no owners.
template <class Fs>
void give_dir(Fs& fs, const typename Fs::dir& d, const stat_info& owner, const std::string& shown) {
  if constexpr (detail::has_set_dir_owner<Fs>::value) {
    const stat_info mine = fs.stat(d);
    if (mine.uid == owner.uid && mine.gid == owner.gid) return;
    try {
      fs.set_owner(d, owner.uid, owner.gid);
    } catch (const error& e) {
      throw detail::cannot_give(e, owner, shown);
    }
  }
}

/// Gives `root` and every directory and regular file below it (never following a link) to
/// `owner`'s uid and gid, as give_dir. `shown` names what the owner was taken from.
template <class Fs>
void give_tree(Fs& fs, const typename Fs::dir& root, const stat_info& owner,
               const std::string& shown) {
  if constexpr (detail::has_set_dir_owner<Fs>::value && detail::has_set_owner<Fs>::value) {
    give_dir(fs, root, owner, shown);
    struct giver : walk_visitor {
      giver(Fs& f, const stat_info& o, const std::string& s) : fs(f), owner(o), shown(s) {}
      Fs& fs;
      const stat_info& owner;
      const std::string& shown;
      bool visit(const typename Fs::dir& parent, std::string_view name, const std::string&,
                 const stat_info& st) {
        if (st.kind == file_kind::directory) return true;
        if (st.kind != file_kind::regular || (st.uid == owner.uid && st.gid == owner.gid))
          return false;
        auto f = fs.open_file_at(parent, name);
        try {
          fs.set_owner(f, owner.uid, owner.gid);
        } catch (const error& e) {
          throw detail::cannot_give(e, owner, shown);
        }
        return false;
      }
      std::optional<typename Fs::dir> enter(const typename Fs::dir& parent, std::string_view name,
                                            const std::string&, const stat_info&) {
        typename Fs::dir d = fs.open_dir_at(parent, name);
        give_dir(fs, d, owner, shown);
        return d;
      }
    } v(fs, owner, shown);
    walk_options opt;
    opt.sorted = false;
    walk(fs, root, v, opt);
  } else {
    (void)fs, (void)root, (void)owner, (void)shown;
  }
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
