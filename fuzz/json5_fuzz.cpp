// SPDX-License-Identifier: MIT
// libFuzzer target for the JSON5 reader (openclaw.json). Properties: every input is read or
// refused with a 1-based line and column and a message, never a throw; what is read
// round-trips through nlohmann/json: its stableStringify text is JSON that nlohmann parses,
// and that parse stringifies to the same text; reading the text as JSON5 again gives it too.
#include <clawport/formats.hpp>

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace js = clawport::json;
  using clawport_fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const clawport::json5::result r = clawport::json5::parse(text);
  if (!r.ok()) {
    check(!r.error->empty() && r.line >= 1 && r.column >= 1, "a refusal has a position");
    return 0;
  }
  const std::string json = js::stable_stringify(r.data);
  const js::value parsed = js::value::parse(json, nullptr, false);
  check(!parsed.is_discarded(), "stableStringify of a JSON5 document is JSON");
  check(js::stable_stringify(parsed) == json, "the JSON text reads back to the same data");
  const clawport::json5::result again = clawport::json5::parse(json);
  check(again.ok() && js::stable_stringify(again.data) == json,
        "JSON is JSON5: the stringified text reads back alike");
  return 0;
}
