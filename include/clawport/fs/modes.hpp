// SPDX-License-Identifier: MIT
// The permission bits clawport creates files and directories with, named once (issue 41:
// tools/check_rules.py fails on a mode literal outside fs/). A copied file's mode is
// fs::copied_mode (copy.hpp); a replaced file keeps its own (publish/replace_file.hpp).
#pragma once

#include "../core/config.hpp"

#include <cstdint>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {
namespace modes {

/// A directory or a file anyone may read, as `mkdir` and `touch` make them (the umask
/// narrows them): what a user's install and a bundle hold.
inline constexpr std::uint32_t dir = 0755;
inline constexpr std::uint32_t file = 0644;
/// The owner's alone: a staging or temporary directory until it is published, a key, a
/// secret, a spill file.
inline constexpr std::uint32_t private_dir = 0700;
inline constexpr std::uint32_t private_file = 0600;
/// The permission bits of a mode (setuid, setgid and sticky cleared), and the owner's.
inline constexpr std::uint32_t permission_bits = 0777;
inline constexpr std::uint32_t owner_bits = 0700;

}  // namespace modes
}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
