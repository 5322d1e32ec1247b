// SPDX-License-Identifier: MIT
// libFuzzer target for the OpenClaw YAML subset reader (and the JSON5 reader): every input
// parses or is refused with a position, never anything else; an accepted document's
// stableStringify text is JSON, which is YAML, and reads back to the same data.
#include <clawport/clawport.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace js = clawport::json;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const clawport::yaml::result r = clawport::yaml::parse(text);
  if (r.ok()) {
    const std::string json = js::stable_stringify(r.value);
    const clawport::yaml::result back = clawport::yaml::parse(json);
    if (!back.ok() || js::stable_stringify(back.value) != json) std::abort();
    const js::value parsed = js::value::parse(json, nullptr, false);
    if (parsed.is_discarded()) std::abort();
  } else if (r.error->line == 0 || r.error->column == 0 || r.error->message.empty()) {
    std::abort();
  }
  const clawport::json5::result j = clawport::json5::parse(text);
  if (j.ok() && js::value::parse(js::stable_stringify(j.data), nullptr, false).is_discarded()) {
    std::abort();
  }
  return 0;
}
