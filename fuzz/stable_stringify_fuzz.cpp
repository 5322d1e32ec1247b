// SPDX-License-Identifier: MIT
// libFuzzer target for stableStringify: the input is read as JSON (nlohmann, insertion
// order kept). Properties: the text does not depend on key order (every object's members
// reversed, and rotated, give the same bytes); it is JSON that reads back to the same text;
// js_stringify (JSON.stringify) of the same data is JSON too.
#include <clawport/formats.hpp>

#include "common.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace js = clawport::json;

/// `v` with each object's members in another order: reversed, or rotated left by one.
js::value reordered(const js::value& v, bool reverse) {
  if (v.is_array()) {
    js::value out = js::value::array();
    for (const auto& e : v) out.push_back(reordered(e, reverse));
    return out;
  }
  if (!v.is_object()) return v;
  std::vector<std::pair<std::string, js::value>> members;
  for (auto it = v.begin(); it != v.end(); ++it)
    members.emplace_back(it.key(), reordered(it.value(), reverse));
  if (reverse) {
    std::reverse(members.begin(), members.end());
  } else if (!members.empty()) {
    std::rotate(members.begin(), members.begin() + 1, members.end());
  }
  js::value out = js::value::object();
  for (auto& m : members) out[m.first] = std::move(m.second);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using clawport_fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const js::value v = js::value::parse(text.begin(), text.end(), nullptr, false);
  if (v.is_discarded()) return 0;
  const std::string s = js::stable_stringify(v);
  check(js::stable_stringify(reordered(v, true)) == s, "invariant under reversed key order");
  check(js::stable_stringify(reordered(v, false)) == s, "invariant under rotated key order");
  const js::value back = js::value::parse(s, nullptr, false);
  check(!back.is_discarded(), "stableStringify writes JSON");
  check(js::stable_stringify(back) == s, "stableStringify's JSON reads back to the same text");
  check(!js::value::parse(js::js_stringify(v), nullptr, false).is_discarded(),
        "JSON.stringify writes JSON");
  check(!js::value::parse(js::js_stringify(v, 0), nullptr, false).is_discarded(),
        "JSON.stringify without indentation writes JSON");
  return 0;
}
