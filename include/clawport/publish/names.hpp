// SPDX-License-Identifier: MIT
// The names an export leaves beside its destination (docs/library.md, The Publish policy): the
// staging directory
// `.zeroclaw-export-<token>` and the retired old bundle `.zeroclaw-export-old-<token>`.
// They share the token so a crashed export leaves a pair `clawport recover` recognises.
#pragma once

#include "../core/config.hpp"

#include <cstddef>
#include <random>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// Prefix of a staging directory beside the destination.
inline constexpr std::string_view staging_prefix = ".zeroclaw-export-";
/// Prefix of the previous bundle while it is moved aside.
inline constexpr std::string_view retired_prefix = ".zeroclaw-export-old-";
/// Length of a generated token (the `tempfile` default upstream uses).
inline constexpr std::size_t token_length = 6;

/// A fresh random token of `token_length` characters from [A-Za-z0-9].
inline std::string random_token() {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, sizeof(alphabet) - 2);
  std::string token;
  for (std::size_t i = 0; i < token_length; ++i) token.push_back(alphabet[pick(device)]);
  return token;
}

/// `.zeroclaw-export-<token>`.
inline std::string staging_name(std::string_view token) {
  return std::string(staging_prefix) + std::string(token);
}

/// The retired name paired with a staging name: the staging prefix is replaced by the
/// old-bundle prefix; a name without the prefix is used whole as the token (upstream's
/// `retired_name`).
inline std::string retired_name(std::string_view staging) {
  std::string_view token = staging;
  if (token.substr(0, staging_prefix.size()) == staging_prefix) {
    token.remove_prefix(staging_prefix.size());
  }
  return std::string(retired_prefix) + std::string(token);
}

/// True for `.zeroclaw-export-old-<token>` (non-empty token).
inline bool is_retired_name(std::string_view name) {
  return name.size() > retired_prefix.size() &&
         name.substr(0, retired_prefix.size()) == retired_prefix;
}

/// True for `.zeroclaw-export-<token>` that is not a retired name.
inline bool is_staging_name(std::string_view name) {
  return name.size() > staging_prefix.size() &&
         name.substr(0, staging_prefix.size()) == staging_prefix && !is_retired_name(name);
}

/// The token of a staging or retired name ("" for other names).
inline std::string_view token_of(std::string_view name) {
  if (is_retired_name(name)) return name.substr(retired_prefix.size());
  if (is_staging_name(name)) return name.substr(staging_prefix.size());
  return {};
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
