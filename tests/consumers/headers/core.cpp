// SPDX-License-Identifier: MIT
// <clawport/core.hpp> alone: the error type, paths, UTF-8, time.
#include <clawport/core.hpp>

int header_core() {
  if (clawport::paths::normalize("/a/./b/../c") != "/a/c") return 1;
  if (!clawport::utf8::valid("caf\xc3\xa9") || clawport::utf8::valid("\xc0\xaf")) return 1;
  if (clawport::format_rfc3339(clawport::timestamp{}).empty()) return 1;
  const clawport::error e(clawport::errc::config_parse, "x.toml:1:5: bad", "x.toml");
  return e.code() == clawport::errc::config_parse && e.subject() == "x.toml" ? 0 : 1;
}
