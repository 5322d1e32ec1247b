// SPDX-License-Identifier: MIT
// A private temporary directory (mode 0700) under the host's temporary root, made and
// removed through the Fs policy: `skills install` clones a git source into one. The name
// is `<prefix>XXXXXX` with six random letters and digits; a name already taken is tried
// again, so a planted file or link is never used.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// The directory, removed with everything in it at scope end. A removal that fails is
/// reported to `on_cleanup_failure` (a destructor does not throw).
template <class Fs>
class temp_dir {
 public:
  temp_dir(Fs& fs, const std::string& root, const std::string& prefix,
           std::function<void(const std::string&)> on_cleanup_failure = {})
      : fs_(fs), parent_(open_parent(fs, root)), warn_(std::move(on_cleanup_failure)) {
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device rd;
    std::uniform_int_distribution<std::size_t> pick(0, sizeof alphabet - 2);
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name = prefix;
      for (int k = 0; k < 6; ++k) name += alphabet[pick(rd)];
      try {
        fs_.make_dir_at(*parent_, name, fs::modes::private_dir);
      } catch (const error& e) {
        if (fs_.stat_at(*parent_, name)) continue;  // taken: another name
        throw error(errc::io, "failed to create a temporary directory in " + root, root,
                    e.sys_errno());
      }
      name_ = std::move(name);
      path_ = root + "/" + name_;
      return;
    }
    throw error(errc::io, "failed to create a temporary directory in " + root, root);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    try {
      fs_.remove_tree_at(*parent_, name_);
    } catch (...) {
      if (warn_) warn_("could not remove the temporary directory " + path_);
    }
  }
  /// The directory's absolute path.
  const std::string& path() const { return path_; }

 private:
  static std::optional<typename Fs::dir> open_parent(Fs& fs, const std::string& root) {
    try {
      return fs.open_root(root);
    } catch (const error& e) {
      throw error(errc::io, "failed to create a temporary directory in " + root, root,
                  e.sys_errno());
    }
  }

  Fs& fs_;
  std::optional<typename Fs::dir> parent_;
  std::function<void(const std::string&)> warn_;
  std::string name_;
  std::string path_;
};

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
