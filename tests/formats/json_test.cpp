// SPDX-License-Identifier: MIT
// JSON rendering (formats/json.hpp): json::dump, the one serialiser of every --json document,
// and the error document every command prints on failure with --json (issue 9 item 18).
#include "support/test.hpp"

#include <string>

namespace {

namespace cp = clawport;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("json::dump replaces bytes that are not UTF-8 by U+FFFD and is nlohmann's layout else") {
  nlohmann::ordered_json j;
  j["plain"] = "caf\xc3\xa9 \"q\" \\ \n\t\x01";
  j["bad"] = std::string("a\xff\xc3(b\xed\xa0\x80", 8);
  j["n"] = 3;
  j["list"] = nlohmann::ordered_json::array({1, nullptr, true});
  j["empty"] = nlohmann::ordered_json::object();
  j["none"] = nlohmann::ordered_json::array();
  nlohmann::ordered_json valid = j;
  valid.erase("bad");
  CHECK(cp::json::dump(valid) == valid.dump(2));
  CHECK(cp::json::dump(valid, -1) == valid.dump());
  const std::string out = cp::json::dump(j);
  const std::string r = "\xef\xbf\xbd";  // U+FFFD
  CHECK(has(out, "\"bad\": \"a" + r + r + "(b" + r + r + r + "\""));
  CHECK(nlohmann::json::parse(out)["n"] == 3);
}

TEST_CASE("the --json error document") {
  const cp::error e(cp::errc::overlap, "destination x is the install root", "x");
  CHECK(
      cp::json::dump(cp::json::error_document(e), -1) ==
      R"({"error":{"code":"overlap","message":"destination x is the install root","subject":"x"}})");
  const cp::error bare(cp::errc::cancelled, "stop\xff");
  CHECK(cp::json::dump(cp::json::error_document(bare), -1) ==
        "{\"error\":{\"code\":\"cancelled\",\"message\":\"stop\xef\xbf\xbd\",\"subject\":null}}");
}
