// SPDX-License-Identifier: MIT
// A plan kept for review (`--plan-out F`) and applied from its file (`--plan F`): the one
// reader of such a file, for `import` and `claw add|update|remove|migrate` alike.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../formats/json.hpp"
#include "../fs/read_file.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace plan {

/// The most a plan file may hold (a plan document is kilobytes).
inline constexpr std::uint64_t max_plan_file_bytes = std::uint64_t{16} << 20;

/// The integrity of the plan document `text`: its `plan_integrity` (import) or
/// `planIntegrity` (OpenClaw) member, when its `schemaVersion` is `kind` ("" for an import
/// plan, which has none). errc::invalid_argument naming `shown` when it is not such a plan.
inline std::string integrity_in_plan_document(std::string_view text, std::string_view kind,
                                              const std::string& shown) {
  const nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  std::string integrity;
  if (doc.is_object()) {
    for (const char* key : {"plan_integrity", "planIntegrity"}) {
      const auto it = doc.find(key);
      if (it != doc.end() && it->is_string()) {
        integrity = it->get<std::string>();
        break;
      }
    }
  }
  std::string version;  // absent for an import plan; a member of another type is no plan's
  if (doc.is_object() && doc.contains("schemaVersion"))
    version = doc["schemaVersion"].is_string() ? doc["schemaVersion"].get<std::string>() : "?";
  const bool right_kind = doc.is_object() && version == kind;
  if (integrity.empty() || !right_kind)
    throw error(errc::invalid_argument,
                shown +
                    " is not a plan of this command: write it with --plan-out on the same "
                    "command, without --yes",
                shown);
  return integrity;
}

/// Reads the plan file at the absolute `path` (a regular file, bounded) and returns the
/// integrity of the plan it holds (`integrity_in_plan_document`); `shown` names it.
template <class Fs>
std::string read_plan_file(Fs& fs, const std::string& path, std::string_view kind,
                           const std::string& shown) {
  const std::string text =
      fs::read_file(fs, path, max_plan_file_bytes, fs::read_kinds::regular, "the plan file");
  return integrity_in_plan_document(text, kind, shown);
}

}  // namespace plan
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
