// SPDX-License-Identifier: MIT
// Reading a plan kept by --plan-out (plan/plan_file.hpp): the one reader of import's and
// OpenClaw's plan documents.
#include "support/test.hpp"

#include <string>

namespace cp = clawport;

TEST_CASE("plan file: the one reader of a plan kept by --plan-out, import's and OpenClaw's") {
  namespace pl = cp::plan;
  CHECK(pl::integrity_in_plan_document(R"({"plan_integrity": "sha256:ab"})", "", "F") ==
        "sha256:ab");
  CHECK(pl::integrity_in_plan_document(
            R"({"schemaVersion": "openclaw.claws.add-plan.v1", "planIntegrity": "sha256:cd"})",
            "openclaw.claws.add-plan.v1", "F") == "sha256:cd");
  for (const char* wrong : {R"({"plan_integrity": "sha256:ab", "schemaVersion": "x"})",
                            R"({"schemaVersion": 1, "plan_integrity": "sha256:ab"})",
                            R"({"plan_integrity": 1})", "[]", "not json"}) {
    CAPTURE(wrong);
    try {
      (void)pl::integrity_in_plan_document(wrong, "", "plan.json");
      FAIL("read a document that is not an import plan");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::invalid_argument);
      CHECK(e.subject() == "plan.json");
    }
  }
  cp::fs::memory m;
  m.write_file("/plan.json", R"({"plan_integrity": "sha256:ef"})");
  CHECK(pl::read_plan_file(m, "/plan.json", "", "plan.json") == "sha256:ef");
  CHECK_THROWS_AS(pl::read_plan_file(m, "/missing.json", "", "missing.json"), cp::error);
}
