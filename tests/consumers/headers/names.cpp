// SPDX-License-Identifier: MIT
// <clawport/names.hpp> alone: the portable name grammar and identity paths.
#include <clawport/names.hpp>

#include <string_view>

int header_names() {
  static_assert(clawport::names::portable::unportable_reason("CON.txt").has_value());
  const auto r = clawport::names::portable_identity_path("identity/me.json",
                                                         [](std::string_view) { return true; });
  return r.path && *r.path == "identity/me.json" &&
                 !clawport::names::portable::unportable_reason("notes")
             ? 0
             : 1;
}
