// SPDX-License-Identifier: MIT
// The required-secrets ledger: clawport's own file beside an install's config,
// `clawport-required-secrets.json`, listing the secret fields an import left blank for the
// user to supply (docs/format.md, "The required-secrets ledger"). An export of such an agent
// before its secrets are supplied lists those still-blank fields in `required_secrets`, so
// the requirement survives a hand-off. Read by fs::read_file, written by
// publish::replace_file (the one atomic replace); ZeroClaw never reads it.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../formats/json.hpp"
#include "../fs/read_file.hpp"
#include "../publish/replace_file.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The ledger's file name in the directory holding the config, and its schema.
inline constexpr const char* secret_ledger_name = "clawport-required-secrets.json";
inline constexpr const char* secret_ledger_schema = "clawport.requiredSecrets.v1";
inline constexpr std::uint64_t secret_ledger_max_bytes = 4 * 1024 * 1024;

namespace detail {

/// The ledger in `install_root` (a fresh empty one when absent), checked to be clawport's
/// document: anything else is errc::config_parse naming it (nothing is decided from a guess).
/// `J` is nlohmann::ordered_json to rewrite it (its order kept), nlohmann::json only to read
/// it: the export then instantiates one JSON type, not two (issue 48).
template <class J, class Fs>
J load_secret_ledger(Fs& fs, const std::string& install_root) {
  using ledger_json = J;
  const std::string path = paths::join(install_root, secret_ledger_name);
  fs::read_result r;
  {
    auto d = fs.open_root(install_root);
    r = fs::try_read_file_at(fs, d, secret_ledger_name, secret_ledger_max_bytes);
  }
  ledger_json doc;
  if (r.refusal == fs::read_refusal::missing) {
    doc["schemaVersion"] = secret_ledger_schema;
    doc["configs"] = ledger_json::object();
    return doc;
  }
  if (r.refusal != fs::read_refusal::none)
    throw fs::read_refusal_error(r.refusal, path, secret_ledger_max_bytes);
  doc = ledger_json::parse(r.bytes, nullptr, false);
  bool ok = !doc.is_discarded() && doc.is_object() && doc.contains("schemaVersion") &&
            doc["schemaVersion"] == secret_ledger_schema && doc.contains("configs") &&
            doc["configs"].is_object();
  if (ok) {
    for (const auto& config : doc["configs"]) {
      ok = ok && config.is_array();
      if (ok)
        for (const auto& s : config) ok = ok && s.is_string();
    }
  }
  if (!ok)
    throw error(errc::config_parse,
                path + " is not a " + std::string(secret_ledger_schema) +
                    " document; fix or remove it (clawport will not guess which secrets are "
                    "required)",
                path);
  return doc;
}

}  // namespace detail

/// The config paths the ledger in `install_root` records for the config named
/// `config_name` (empty when there is no ledger or no entry for that config).
template <class Fs>
std::set<std::string> read_secret_ledger(Fs& fs, const std::string& install_root,
                                         const std::string& config_name) {
  const auto doc = detail::load_secret_ledger<json::json_for<Fs>>(fs, install_root);
  std::set<std::string> out;
  const auto it = doc["configs"].find(config_name);
  if (it != doc["configs"].end())
    for (const auto& s : *it) out.insert(s.template get<std::string>());
  return out;
}

/// Adds `secrets` to the ledger in `install_root` under `config_name` (created when absent,
/// kept sorted and unique, other configs' entries kept, a new one owned as the config is),
/// replacing it with publish::replace_file. Returns the ledger's path; writes nothing and returns
/// "" when `secrets` is empty.
template <class Fs>
std::string record_secret_ledger(Fs& fs, const std::string& install_root,
                                 const std::string& config_name,
                                 const std::vector<std::string>& secrets) {
  if (secrets.empty()) return {};
  const std::string path = paths::join(install_root, secret_ledger_name);
  auto doc = detail::load_secret_ledger<json::ordered_json_for<Fs>>(fs, install_root);
  std::set<std::string> all(secrets.begin(), secrets.end());
  const auto it = doc["configs"].find(config_name);
  if (it != doc["configs"].end())
    for (const auto& s : *it) all.insert(s.template get<std::string>());
  doc["configs"][config_name] = std::vector<std::string>(all.begin(), all.end());
  auto d = fs.open_root(install_root);
  publish::replace_options ro;
  ro.new_owner = fs.stat_at(d, config_name);  // a new ledger is the install's, not root's
  (void)publish::replace_file(fs, d, secret_ledger_name, json::dump(doc, 2) + "\n", path, ro);
  return path;
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
