// SPDX-License-Identifier: MIT
// The entry points of the pure export half, declared in one place. Definitions live in
// closure.hpp (planning) and render.hpp (config and manifest text), included at the end, so
// that this header alone defines what it declares.
#pragma once

#include <string>
#include <string_view>

#include "../core/time.hpp"
#include "../names/grammar.hpp"
#include "plan.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

struct schema_v3;

/// Plans the export of agent `alias` from the text of an install's config.toml
/// (docs/format.md): closure, scrub, drops, risk flags, workspace, identity and
/// skill sources. Pure: no I/O. Throws clawport::error: errc::config_parse (the text is
/// not TOML), errc::unknown_agent, errc::config_invalid (a carried value has the wrong
/// type or value), errc::ciphertext (enc:/enc2: survived scrubbing; subject = the path).
template <typename Schema = schema_v3, typename Names = names::portable>
export_plan plan_export(std::string_view config_text, std::string_view alias,
                        const plan_options& options = {});

/// Renders config.toml (header comment + closure), re-parses it, checks the round trip and
/// validates the closure standing alone (docs/format.md). Throws errc::config_invalid with the
/// spec's "does not validate on a clean install" message, subject = the field named.
template <typename Schema = schema_v3>
std::string render_config_toml(const export_plan& plan);

/// Renders zeroclaw-agent.toml for `plan` with `provenance.exported_at` = `exported_at`
/// (RFC 3339, `+00:00`). Same plan and time give the same bytes.
inline std::string render_manifest(const export_plan& plan, const timestamp& exported_at);

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport

// The definitions. Both include this header first, hence after the declarations.
#include "closure.hpp"
#include "render.hpp"
