// SPDX-License-Identifier: MIT
// expect: a Names policy must provide `static std::optional<std::string_view> unportable_reason
// errors: 1
#include <clawport/zeroclaw.hpp>

struct no_reason {};

int main() {
  return clawport::zeroclaw::plan_export<clawport::zeroclaw::schema_v3, no_reason>("", "a")
                 .root_alias.empty()
             ? 0
             : 1;
}
