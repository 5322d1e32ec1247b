// SPDX-License-Identifier: MIT
// <clawport/memory.hpp> alone, no SQLite: an entry's defaults are the runtime's column
// defaults, and a Store policy that provides both members passes the check.
#include <clawport/memory.hpp>

namespace {
struct empty_store {
  std::size_t read_agent(std::string_view, const clawport::memory::entry_visitor&) { return 0; }
  clawport::memory::store_facts facts() { return {}; }
};
}  // namespace

int header_memory() {
  static_assert(clawport::memory::check_store_policy<empty_store>());
  const clawport::memory::entry e;
  return e.category == "core" && e.ns == "default" && e.importance == 0.5 && !e.pinned ? 0 : 1;
}
