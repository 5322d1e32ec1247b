// SPDX-License-Identifier: MIT
// <clawport/publish.hpp> alone: the strategies model the Publish policy over fs::posix.
#include <clawport/fs.hpp>
#include <clawport/publish.hpp>

int header_publish() {
  static_assert(
      clawport::publish::check_policy<clawport::publish::staged_swap, clawport::fs::posix>());
  static_assert(
      clawport::publish::check_policy<clawport::publish::exchange, clawport::fs::posix>());
  static_assert(clawport::publish::check_policy<clawport::publish::none, clawport::fs::posix>());
  return clawport::publish::staged_swap::name.empty() ? 1 : 0;
}
