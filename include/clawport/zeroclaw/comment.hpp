// SPDX-License-Identifier: MIT
// What a TOML comment written into a user's config may hold. `append_tables` writes the import's
// provenance (bundle strings included) as `# ` lines; `verify` refuses a manifest string this
// rule rejects, so a bundle that verifies is one whose import can be applied (issue 22 item 4).
#pragma once

#include "../core/config.hpp"
#include "../core/utf8.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// Why `text` cannot be written as the text of TOML comment lines (one `# ` line per
/// `\n`-separated line), or nothing. TOML allows in a comment valid UTF-8 and no control
/// character but tab: a CR, an ESC or a NUL would make the whole config unparsable.
inline std::optional<std::string> comment_problem(std::string_view text) {
  if (!utf8::valid(text)) return std::string("it is not valid UTF-8");
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\t') continue;
    if (u < 0x20 || u == 0x7f) {
      static const char hex[] = "0123456789ABCDEF";
      return std::string("it holds the control character U+00") + hex[u >> 4] + hex[u & 15] +
             ", which a TOML comment cannot hold";
    }
  }
  return std::nullopt;
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
