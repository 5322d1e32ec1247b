// SPDX-License-Identifier: MIT
// The compiled mode: this TU sees only the declarations of <clawport/compiled/api.hpp> (no
// toml++, no nlohmann/json, no template of the library) and links clawport::compiled. It
// exports an agent of examples/zeroclaw-install, verifies the bundle, and checks that a
// refusal is the same clawport::error as in header-only use, with nothing written.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <clawport/compiled/api.hpp>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#ifdef TOML_VERSION_MAJOR
#error "compiled/api.hpp must not include toml++"
#endif
#ifdef INCLUDE_NLOHMANN_JSON_HPP_
#error "compiled/api.hpp must not include nlohmann/json"
#endif

namespace {

std::string source_path(const std::string& relative) {
  return std::string(CLAWPORT_TEST_SOURCE_DIR) + "/" + relative;
}

struct scratch {
  std::string root;
  scratch() {
    std::string tmpl = "/tmp/clawport-compiled-XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    root = tmpl;
  }
  ~scratch() {
    const std::string cmd = "rm -rf '" + root + "'";
    (void)std::system(cmd.c_str());
  }
};

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

clawport::export_options options_for(const std::string& alias, const std::string& out) {
  clawport::export_options o;
  o.alias = alias;
  o.config_path = source_path("examples/zeroclaw-install/config.toml");
  o.out = out;
  o.out_path = out;
  o.sync = false;
  o.exported_at = clawport::timestamp{1700000000, 0};
  return o;
}

}  // namespace

TEST_CASE("compiled mode: export, report, JSON and verify through the declarations only") {
  scratch s;
  const std::string out = s.root + "/bundle";
  const clawport::export_result r = clawport::compiled::run_export(options_for("researcher", out));
  CHECK(r.alias == "researcher");
  CHECK(r.destination == out);
  CHECK_FALSE(r.dry_run);
  CHECK(exists(out + "/zeroclaw-agent.toml"));
  CHECK(exists(out + "/config.toml"));
  CHECK(exists(out + "/zeroclaw-agent.sha256"));
  const std::string report = clawport::compiled::render_report(r);
  CHECK(report.find("researcher") != std::string::npos);
  const std::string json = clawport::compiled::to_json(r);
  CHECK(json.find("\"alias\": \"researcher\"") != std::string::npos);
  CHECK(clawport::compiled::to_json(r, -1).find('\n') == std::string::npos);

  const clawport::verify::report v = clawport::compiled::verify_bundle(out);
  CHECK(v.ok());
  CHECK(v.authenticated);
  CHECK(v.root_agent == "researcher");
  CHECK(v.file("config.toml") != nullptr);
  CHECK(clawport::compiled::to_json(v).find("\"ok\": true") != std::string::npos);
  CHECK_FALSE(clawport::compiled::render_report(v).empty());

  // A byte changed in the bundle: verify names the file, and the limits are the caller's.
  {
    FILE* f = std::fopen((out + "/config.toml").c_str(), "a");
    REQUIRE(f != nullptr);
    std::fputs("\n# changed\n", f);
    std::fclose(f);
  }
  const clawport::verify::report bad = clawport::compiled::verify_bundle(out);
  CHECK_FALSE(bad.ok());
  bool names_config = false;
  for (const clawport::verify::finding& f : bad.findings) names_config |= f.path == "config.toml";
  CHECK(names_config);
  clawport::verify::limits tight;
  tight.max_files = 1;
  const clawport::verify::report limited = clawport::compiled::verify_bundle(out, tight);
  CHECK(limited.first_error().code() == clawport::errc::limit_exceeded);
}

TEST_CASE("compiled mode: a refusal is the same clawport::error, and nothing is written") {
  scratch s;
  const std::string out = s.root + "/bundle";
  try {
    (void)clawport::compiled::run_export(options_for("nobody", out));
    FAIL("exporting an unknown agent succeeded");
  } catch (const clawport::error& e) {
    CHECK(e.code() == clawport::errc::unknown_agent);
    CHECK(std::string(e.what()).find("nobody") != std::string::npos);
  }
  CHECK_FALSE(exists(out));
  CHECK_THROWS_AS((void)clawport::compiled::verify_bundle(s.root + "/missing"), clawport::error);
}
