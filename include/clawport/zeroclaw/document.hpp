// SPDX-License-Identifier: MIT
// ZeroClaw's configs, closures and manifests are TOML documents in the runtime-neutral
// ordered model (formats/toml_document.hpp); its names, as ZeroClaw's code spells them.
#pragma once

#include "../core/config.hpp"
#include "../formats/toml_document.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

using toml_doc::find_path;
using toml_doc::find_table;
using toml_doc::make_table_path;
using toml_doc::member;
using toml_doc::value;

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
