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
  namespace oc = clawport::openclaw;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const oc::yaml::result r = oc::yaml::parse(text);
  if (r.ok()) {
    const std::string json = oc::stable_stringify(r.value);
    const oc::yaml::result back = oc::yaml::parse(json);
    if (!back.ok() || oc::stable_stringify(back.value) != json) std::abort();
    const oc::value parsed = oc::value::parse(json, nullptr, false);
    if (parsed.is_discarded()) std::abort();
  } else if (r.error->line == 0 || r.error->column == 0 || r.error->message.empty()) {
    std::abort();
  }
  const oc::json5::result j = oc::json5::parse(text);
  if (j.ok() && oc::value::parse(oc::stable_stringify(j.data), nullptr, false).is_discarded()) {
    std::abort();
  }
  return 0;
}
