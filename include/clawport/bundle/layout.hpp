// SPDX-License-Identifier: MIT
// The bundle layout (docs/format.md, "Layout"): the names of what an agent bundle holds and
// the format version. The exporter writes this layout; import and verify read it. Nothing
// here touches a filesystem.
#pragma once

#include "../core/config.hpp"
#include "../core/paths.hpp"
#include "../core/utf8.hpp"
#include "../core/version.hpp"

#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace bundle {

/// The format this library writes and the only one it reads (`format_version` in the
/// manifest and in the JSON documents).
inline constexpr int format_version = bundle_format_version;

/// The manifest, at the bundle root.
inline constexpr std::string_view manifest_file = "zeroclaw-agent.toml";
/// clawport's addition: a `sha256sum -c` list of every other bundle file, at the root.
inline constexpr std::string_view digest_list_file = "zeroclaw-agent.sha256";
/// Optional (issue 29): an SSH signature (`ssh-keygen -Y sign`, namespace
/// `clawport-bundle`) over the digest list's bytes, at the root. Not in the digest list: it
/// signs the list, which names every other file. A bundle without it is still format 1.
inline constexpr std::string_view signature_file = "zeroclaw-agent.sha256.sig";
/// The SSHSIG namespace a bundle's signature is made under (a signature made for another
/// purpose with the same key does not verify as a bundle's).
inline constexpr std::string_view signature_namespace = "clawport-bundle";
/// The agent's config closure, at the bundle root.
inline constexpr std::string_view config_file = "config.toml";
/// The agent's workspace (minus what the workspace filter keeps behind).
inline constexpr std::string_view workspace_dir = "workspace";
/// The skill bundles: `skills/<alias>/<skill>/...`.
inline constexpr std::string_view skills_dir = "skills";
/// Format 2 only (`--with-memory`, issue 47): the agent's memory, `memory/entries.jsonl`.
inline constexpr std::string_view memory_dir = "memory";
inline constexpr std::string_view memory_entries_file = "memory/entries.jsonl";
/// The format of a bundle that carries memory; one without stays `format_version`.
inline constexpr int memory_format_version = 2;

/// Whether a bundle may carry a file or directory called `name`: valid UTF-8 without an ASCII
/// control character (a name with a newline cannot stand in the digest list unescaped, nor
/// in a report). `clawport verify` refuses any other name (`name_invalid`), so the exporter
/// refuses to write one. The one rule for both.
constexpr bool carries_name(std::string_view name) noexcept {
  if (!utf8::valid(name)) return false;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return false;
  }
  return true;
}

/// `skills/<alias>`: where skill bundle `alias` travels (also its drop path).
inline std::string skill_bundle_path(std::string_view alias) {
  return paths::join(skills_dir, alias);
}

/// What a bundle may hold at its root: exactly these six names (the manifest, the digest
/// list and the config always; `workspace/` and `skills/` when something travelled; the
/// signature when the export was signed).
constexpr bool is_bundle_entry(std::string_view name) noexcept {
  return name == manifest_file || name == digest_list_file || name == config_file ||
         name == workspace_dir || name == skills_dir || name == signature_file;
}

}  // namespace bundle
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
