// SPDX-License-Identifier: MIT
// The one random name (staging tokens, temporary directories) and the one private temporary
// directory (mode 0700) under the host's temporary root, made, filled and removed through
// the Fs policy: `skills install` clones a git source into one, the ssh-keygen signer and
// verifier hand it their input. The name is `<prefix>` and six random letters and digits; a
// name already taken is tried again, so a planted file or link is never used.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "modes.hpp"
#include "policy.hpp"
#include "write_new_file.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// `n` random characters from [A-Za-z0-9] (publish::random_token is six of them).
inline std::string random_name(std::size_t n) {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, sizeof(alphabet) - 2);
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(alphabet[pick(device)]);
  return out;
}

/// The directory, removed with everything in it at scope end. A removal that fails is
/// reported to `on_cleanup_failure` (a destructor does not throw).
template <class Fs>
class temp_dir {
 public:
  temp_dir(Fs& fs, const std::string& root, const std::string& prefix,
           std::function<void(const std::string&)> on_cleanup_failure = {})
      : fs_(fs), root_(root), parent_(open_parent(fs, root)), warn_(std::move(on_cleanup_failure)) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name = prefix + random_name(6);
      try {
        fs_.make_dir_at(*parent_, name, modes::private_dir);
      } catch (const error& e) {
        if (fs_.stat_at(*parent_, name)) continue;  // taken: another name
        throw failed(root, e.sys_errno());
      }
      name_ = std::move(name);
      path_ = paths::join(root, name_);
      return;
    }
    throw failed(root, 0);
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

  /// A new file `name` in the directory holding `bytes` (owner-only, create-only); its path.
  std::string put(const std::string& name, std::string_view bytes) {
    const std::string p = paths::join(path_, name);
    try {
      const typename Fs::dir d = fs_.open_dir_at(*parent_, name_);
      write_new_file(fs_, d, name, bytes, modes::private_file);
    } catch (const error& e) {
      throw with_context(e, "cannot create " + p, p, reason_of(e));
    }
    return p;
  }

 private:
  static error failed(const std::string& root, int err) {
    return error(errc::io,
                 "failed to create a temporary directory in " + root +
                     (err != 0 ? ": " + errno_text(err) : std::string()) +
                     " (set TMPDIR to a writable directory)",
                 root, err);
  }
  static std::optional<typename Fs::dir> open_parent(Fs& fs, const std::string& root) {
    try {
      return fs.open_root(root);
    } catch (const error& e) {
      throw failed(root, e.sys_errno());
    }
  }

  Fs& fs_;
  std::string root_;
  std::optional<typename Fs::dir> parent_;
  std::function<void(const std::string&)> warn_;
  std::string name_;
  std::string path_;
};

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
