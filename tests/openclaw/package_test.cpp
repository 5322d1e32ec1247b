// SPDX-License-Identifier: MIT
// OpenClaw Claws on disk: reading packages through the Fs policy (package.json, CLAW.md,
// grouped JSON, profile, BOOTSTRAP.md, workspace sources, limits, links), the snapshot
// integrity, destination resolution and the add plan with its planIntegrity. Test names
// follow openclaw-claws.md §9; the broken-package table covers every refusal code.
#include "fs/fixture.hpp"
#include "openclaw/plan_documents.hpp"
#include "support/test.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace oc = clawport::openclaw;
using oc::value;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

const char* const example_files[] = {"package.json",
                                     "CLAW.md",
                                     "profiles/openclaw.yml",
                                     "assets/avatar.png",
                                     "workspace/AGENTS.md",
                                     "workspace/HEARTBEAT.md",
                                     "workspace/IDENTITY.md",
                                     "workspace/TOOLS.md",
                                     "workspace/reference/severity-policy.md",
                                     "workspace/templates/handoff.md"};

const std::string minimal_json =
    "{\"name\": \"demo-claw\", \"version\": \"1.0.0\", \"openclaw\": {\"claw\": \"CLAW.md\"}}";

struct claw_fixture : clawport::testing::posix_fixture {
  std::string path(const std::string& rel = "") const {
    return rel.empty() ? root_path() + "/pkg" : root_path() + "/pkg/" + rel;
  }
  void put(const std::string& rel, const std::string& content) { write("pkg/" + rel, content); }
  void example() {
    for (const char* f : example_files)
      put(f, slurp(clawport::testing::source_path(std::string("examples/openclaw-claw/") + f)));
  }
  /// A small valid package: CLAW.md with a body, one bootstrap file, one extra file.
  void minimal(const std::string& extra_frontmatter = "", const std::string& body = "Be kind.\n") {
    put("package.json", minimal_json);
    put("CLAW.md",
        "---\nschemaVersion: 1\nagent:\n  id: demo\nworkspace:\n  bootstrapFiles:\n"
        "    AGENTS.md: {source: ws/AGENTS.md}\n  files:\n    - {source: ws/ref.md, path: "
        "ref.md}\n" +
            extra_frontmatter + "---\n" + body);
    put("ws/AGENTS.md", "agents\n");
    put("ws/ref.md", "ref\n");
  }
  oc::claw_package load(const oc::read_options& opt = {}) {
    return oc::read_package(fs, path(), opt);
  }
  oc::claw_package read_at(const std::string& p, const oc::read_options& opt = {}) {
    return oc::read_package(fs, p, opt);
  }
  oc::destination_request request() const {
    oc::destination_request r;
    r.home = root_path() + "/home";
    r.cwd = root_path();
    r.state_dir = root_path() + "/state";
    return r;
  }
  oc::add_plan plan(const oc::claw_package& pkg, const oc::destination_request& req) {
    const auto host = oc::read_host_state(fs, req);
    const auto dest = oc::resolve_destination(fs, pkg, req);
    return oc::build_add_plan(pkg, dest, host);
  }
};

bool has(const std::vector<oc::diagnostic>& ds, const std::string& code,
         const std::string& path = "") {
  for (const auto& d : ds)
    if (to_string(d.code) == code && (path.empty() || d.path == path)) return true;
  return false;
}

std::string listing(const std::vector<oc::diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds) out += oc::human_line(d) + "\n";
  return out;
}

bool blocker(const value& plan, const std::string& code) {
  for (const auto& b : plan["blockers"])
    if (b["code"] == code) return true;
  return false;
}

const value* action_of(const value& plan, const std::string& kind, const std::string& id) {
  for (const auto& a : plan["actions"])
    if (a["kind"] == kind && a["id"] == id) return &a;
  return nullptr;
}

/// Counts the bytes every read returns.
struct counting_fs : clawport::fs::posix {
  std::size_t bytes = 0;
  std::size_t read(file& f, char* buf, std::size_t n) {
    const std::size_t got = clawport::fs::posix::read(f, buf, n);
    bytes += got;
    return got;
  }
};

/// Reads that grow the file they read by one byte on the first call.
struct growing_fs : clawport::fs::posix {
  std::string victim;
  bool grown = false;
  std::size_t read(file& f, char* buf, std::size_t n) {
    if (!grown && !victim.empty()) {
      grown = true;
      std::ofstream(victim, std::ios::app) << "x";
    }
    return clawport::fs::posix::read(f, buf, n);
  }
};

}  // namespace

TEST_SUITE("openclaw.package") {
  TEST_CASE("the example package inspects clean") {
    claw_fixture fx;
    fx.example();
    const auto pkg = fx.load();
    INFO(listing(pkg.diagnostics));
    REQUIRE(pkg.ok());
    // Only the warning openclaw@2026.9.6 gives its metadata profile pointer.
    REQUIRE(pkg.diagnostics.size() == 1);
    CHECK(to_string(pkg.diagnostics[0].code) == std::string("deprecated_openclaw_profile_pointer"));
    CHECK(pkg.source.kind == "package");
    CHECK(pkg.source.name == "@acme/incident-triage-claw");
    CHECK(pkg.source.version == "1.3.0");
    CHECK(pkg.source.manifest_path == fx.path("CLAW.md"));
    CHECK(pkg.profile_path == "profiles/openclaw.yml");
    REQUIRE(pkg.body);
    CHECK(pkg.body->rfind("\n# Incident Triage", 0) == 0);
    CHECK(pkg.sources.size() == 7);
    CHECK(pkg.sources[0].destination == "AGENTS.md");
    CHECK(pkg.sources[6].destination == "avatars/incident-triage.png");
    CHECK(pkg.model.packages.size() == 2);
    const value doc = oc::inspect_document(pkg);
    CHECK(doc["schemaVersion"] == "openclaw.clawInspect.v1");
    CHECK(doc["stability"] == "experimental");
    CHECK(doc["valid"] == true);
    CHECK(doc["openClawProfile"]["agent"]["tools"]["profile"] == "coding");
    // Byte length: the canonical-source string plus every record's bytes.
    std::uint64_t total = fx.path("CLAW.md").size();
    for (const char* f : example_files) total += fx.read("pkg/" + std::string(f)).size();
    CHECK(pkg.source.byte_length == total);
  }

  TEST_CASE("parses the grouped portable contract") {
    claw_fixture fx;
    fx.put("package.json",
           "{\"name\":\"g\",\"version\":\"1.0.0\",\"openclaw\":{\"claw\":\"openclaw.claw.json\"}}");
    fx.put("openclaw.claw.json", R"({
  "schemaVersion": 1,
  "agent": { "id": "incident-triage", "name": "Incident Triage" },
  "metadata": { "openclaw.config": "profiles/openclaw.yml" },
  "workspace": {
    "bootstrapFiles": { "SOUL.md": { "source": "workspace/SOUL.md" } },
    "files": [{ "source": "workspace/reference/policy.md", "path": "reference/policy.md" }]
  },
  "packages": [{ "kind": "skill", "source": "clawhub", "ref": "incident-triage", "version": "1.0.0" }],
  "mcpServers": {},
  "cronJobs": []
})");
    fx.put("profiles/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
    fx.put("workspace/SOUL.md", "soul\n");
    fx.put("workspace/reference/policy.md", "policy\n");
    const auto pkg = fx.load();
    INFO(listing(pkg.diagnostics));
    REQUIRE(pkg.ok());
    CHECK_FALSE(pkg.body);
    CHECK(pkg.model.packages[0].kind == "skill");
    CHECK(oc::to_json(pkg.model)["workspace"]["bootstrapFiles"].contains("SOUL.md"));
    CHECK(pkg.profile_path == "profiles/openclaw.yml");
  }

  TEST_CASE("reads a human-authored CLAW.md package through the same manifest schema") {
    claw_fixture fx;
    fx.minimal("  model: gpt\n");
    const auto pkg = fx.load();
    CHECK(has(pkg.diagnostics, "invalid_manifest", "$.workspace"));
  }

  TEST_CASE("takes published identity from package.json") {
    claw_fixture fx;
    fx.minimal();
    const auto pkg = fx.load();
    REQUIRE(pkg.ok());
    CHECK(pkg.source.name == "demo-claw");
    CHECK(pkg.source.version == "1.0.0");
  }

  TEST_CASE("rejects noncanonical package metadata") {
    const std::pair<const char*, const char*> cases[] = {{"Demo", "1.0.0"},    {"demo", "v1.0.0"},
                                                         {"demo", "1.0"},      {"", "1.0.0"},
                                                         {"@Acme/x", "1.0.0"}, {"demo", "01.0.0"}};
    for (const auto& c : cases) {
      claw_fixture fx;
      fx.minimal();
      fx.put("package.json", std::string("{\"name\":\"") + c.first + "\",\"version\":\"" +
                                 c.second + "\",\"openclaw\":{\"claw\":\"CLAW.md\"}}");
      INFO(c.first << "@" << c.second);
      CHECK(has(fx.load().diagnostics, "invalid_package_metadata", "$"));
    }
    claw_fixture fx;
    fx.minimal();
    fx.put("package.json",
           "{\"name\":\"demo\",\"version\":\"1.0.0\",\"openclaw\":{\"claw\":\"  \"}}");
    CHECK(has(fx.load().diagnostics, "invalid_package_metadata"));
  }

  TEST_CASE("synthesizes explicit development identity for a standalone manifest") {
    claw_fixture fx;
    fx.put("demo.claw.json", "{\"schemaVersion\":1,\"agent\":{\"id\":\"demo\"}}");
    const auto pkg = fx.read_at(fx.path("demo.claw.json"));
    INFO(listing(pkg.diagnostics));
    REQUIRE(pkg.ok());
    CHECK(pkg.source.kind == "development");
    CHECK(pkg.source.name == "local:demo.claw");
    CHECK(pkg.source.version == "0.0.0-development");
    CHECK(pkg.source.package_root == fx.path());
    fx.minimal();
    const auto md = fx.read_at(fx.path("CLAW.md"));
    REQUIRE(md.ok());
    CHECK(md.source.name == "local:CLAW.md");
  }

  TEST_CASE("accepts a UTF-8 BOM and includes its bytes in snapshot integrity") {
    claw_fixture fx;
    fx.minimal();
    const auto plain = fx.load();
    fx.put("CLAW.md", "\xEF\xBB\xBF" + fx.read("pkg/CLAW.md"));
    const auto bom = fx.load();
    INFO(listing(bom.diagnostics));
    REQUIRE(bom.ok());
    CHECK(bom.source.integrity != plain.source.integrity);
    CHECK(bom.source.byte_length == plain.source.byte_length + 3);
  }

  TEST_CASE("hashes original CLAW.md bytes rather than decoded text") {
    claw_fixture fx;
    fx.minimal();
    const auto lf = fx.load();
    std::string crlf;
    for (const char c : fx.read("pkg/CLAW.md"))
      crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    fx.put("CLAW.md", crlf);
    const auto other = fx.load();
    REQUIRE(other.ok());
    CHECK(oc::to_json(other.model) == oc::to_json(lf.model));
    CHECK(other.source.integrity != lf.source.integrity);
  }

  TEST_CASE("rejects CLAW.md without YAML frontmatter") {
    for (const char* text :
         {"# no frontmatter\n", "---\n---\n", "---\nschemaVersion: 1\n", "--- \nx: 1\n---\n"}) {
      claw_fixture fx;
      fx.minimal();
      fx.put("CLAW.md", text);
      INFO(text);
      CHECK(has(fx.load().diagnostics, "missing_claw_frontmatter", "$"));
    }
  }

  TEST_CASE("rejects CLAW.md YAML anchor, alias, merge key, explicit tag") {
    const std::pair<const char*, const char*> cases[] = {{"x: &a 1\n", "anchors"},
                                                         {"x: *a\n", "aliases"},
                                                         {"x:\n  <<: {a: 1}\n", "merge keys"},
                                                         {"x: !!str 1\n", "explicit tags"}};
    for (const auto& c : cases) {
      claw_fixture fx;
      fx.put("package.json", minimal_json);
      fx.put("CLAW.md",
             std::string("---\nschemaVersion: 1\nagent: {id: demo}\n") + c.first + "---\n");
      const auto pkg = fx.load();
      INFO(c.second);
      REQUIRE(has(pkg.diagnostics, "unsupported_claw_yaml_feature", "$"));
      CHECK(pkg.diagnostics[0].phase == oc::phase::parse);
      CHECK(pkg.diagnostics[0].message.find(std::string("uses ") + c.second) != std::string::npos);
      INFO(pkg.diagnostics[0].message);
      const char* line =
          std::string(c.second) == "merge keys" ? "(line 5, column 3)" : "(line 4, column 4)";
      CHECK(pkg.diagnostics[0].message.find(line) != std::string::npos);
    }
    claw_fixture fx;
    fx.put("package.json", minimal_json);
    fx.put("CLAW.md", "---\nschemaVersion: 1\nschemaVersion: 1\n---\n");
    const auto dup = fx.load();
    REQUIRE(has(dup.diagnostics, "invalid_claw_frontmatter", "$"));
    CHECK(dup.diagnostics[0].message.find("line 3, column 1") != std::string::npos);
  }

  TEST_CASE("invalid UTF-8 in the frontmatter or the body is refused") {
    claw_fixture fx;
    fx.minimal("", "bad \xFF byte\n");
    CHECK(has(fx.load().diagnostics, "invalid_claw_markdown_utf8"));
  }

  TEST_CASE("a whitespace-only body creates no SOUL.md; a body conflicts with a declared SOUL.md") {
    claw_fixture fx;
    fx.minimal("", " \n\t\xC2\xA0\n");
    const auto blank = fx.load();
    REQUIRE(blank.ok());
    CHECK_FALSE(blank.body);
    claw_fixture fx2;
    fx2.minimal("    - {source: ws/ref.md, path: soul.MD}\n");
    CHECK(has(fx2.load().diagnostics, "claw_body_soul_conflict", "$.workspace"));
    claw_fixture fx3;
    fx3.minimal("    - {source: ws/ref.md, path: SOUL.md/x.md}\n");
    CHECK(has(fx3.load().diagnostics, "claw_body_soul_conflict", "$.workspace"));
  }

  TEST_CASE("uses the declared CLAW.md path when it is an in-package symlink") {
    claw_fixture fx;
    fx.minimal();
    fx.rename("pkg/CLAW.md", "pkg/real/CLAW.md");
    fx.symlink("pkg/CLAW.md", "real/CLAW.md");
    fx.put("real/ws/AGENTS.md", "a\n");
    fx.put("real/ws/ref.md", "r\n");
    const auto pkg = fx.load();
    INFO(listing(pkg.diagnostics));
    REQUIRE(pkg.ok());
    CHECK(pkg.source.manifest_path == fx.path("real/CLAW.md"));
  }

  TEST_CASE("parses a CLAW.md that links to a JSON file by the declared name, as Markdown") {
    // schema-conformance.test.ts: the declared manifest name decides the format, not the
    // link target's extension. JSON in a CLAW.md is not an envelope.
    claw_fixture fx;
    fx.minimal();
    fx.put("manifest.json", "{\"schemaVersion\": 1, \"agent\": {\"id\": \"demo\"}}");
    fx.remove("pkg/CLAW.md");
    fx.symlink("pkg/CLAW.md", "manifest.json");
    const auto pkg = fx.load();
    CHECK(has(pkg.diagnostics, "missing_claw_frontmatter", "$"));
    CHECK_FALSE(has(pkg.diagnostics, "invalid_json"));
    // The same file named as JSON in package.json is JSON.
    fx.put("package.json",
           "{\"name\":\"d\",\"version\":\"1.0.0\",\"openclaw\":{\"claw\":\"manifest.json\"}}");
    CHECK(fx.load().ok());
  }

  TEST_CASE("rejects package manifests that escape the package root") {
    claw_fixture fx;
    fx.minimal();
    fx.write("outside/CLAW.md", fx.read("pkg/CLAW.md"));
    fx.remove("pkg/CLAW.md");
    fx.symlink("pkg/CLAW.md", "../outside/CLAW.md");
    // Upstream's path (`$`) and words (issue 42 §2 item 7; tests/oracle/cases/diagnostics.sh).
    CHECK(has(fx.load().diagnostics, "manifest_escapes_package", "$"));
    CHECK(fx.load().diagnostics[0].message ==
          "The declared Claw manifest must resolve inside its package root.");
    fx.put("package.json",
           "{\"name\":\"d\",\"version\":\"1.0.0\",\"openclaw\":{\"claw\":\"../outside/CLAW.md\"}}");
    CHECK(has(fx.load().diagnostics, "manifest_escapes_package", "$"));
    fx.put("package.json",
           "{\"name\":\"d\",\"version\":\"1.0.0\",\"openclaw\":{\"claw\":\"/etc/passwd\"}}");
    CHECK(has(fx.load().diagnostics, "manifest_escapes_package", "$"));
    CHECK(fx.load().diagnostics[0].message == "openclaw.claw must be package-relative.");
  }

  TEST_CASE("a symlinked package root is fine") {
    claw_fixture fx;
    fx.minimal();
    fx.symlink("link", "pkg");
    const auto pkg = fx.read_at(fx.root_path() + "/link");
    REQUIRE(pkg.ok());
    CHECK(pkg.source.package_root == fx.path());
  }

  TEST_CASE("binds every referenced workspace source") {
    claw_fixture fx;
    fx.minimal();
    const auto a = fx.load();
    fx.put("ws/ref.md", "changed\n");
    const auto b = fx.load();
    fx.put("unrelated.txt", "not selected\n");
    fx.put("profiles/codex.yml", std::string(300 * 1024, '#'));
    const auto c = fx.load();
    REQUIRE(b.ok());
    CHECK(a.source.integrity != b.source.integrity);
    CHECK(b.source.integrity ==
          c.source.integrity);  // "does not inspect profiles owned by other harnesses"
  }

  TEST_CASE("loads and integrity-binds the conventional profile") {
    claw_fixture fx;
    fx.minimal();
    const auto none = fx.load();
    fx.put("profiles/openclaw.yml", "schemaVersion: 1\nagent:\n  tools: {profile: minimal}\n");
    const auto with = fx.load();
    INFO(listing(with.diagnostics));
    REQUIRE(with.ok());
    REQUIRE(with.profile);
    CHECK(with.profile_path == "profiles/openclaw.yml");
    CHECK(with.source.integrity != none.source.integrity);
    fx.put("profiles/openclaw.yml",
           "schemaVersion: 1\nagent:\n  tools: {profile: messaging, allow: [read]}\n");
    CHECK(fx.load().source.integrity != with.source.integrity);
  }

  // The profile YAML refusals (anchors, aliases, tags, merge keys, duplicate keys, syntax)
  // are in profile_test.cpp, the counterpart of upstream's openclaw-profile.test.ts.

  TEST_CASE("rejects a hardlinked profile") {
    claw_fixture fx;
    fx.minimal();
    fx.put("profiles/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
    fx.hardlink("pkg/profiles/openclaw.yml", "elsewhere.yml");
    CHECK(has(fx.load().diagnostics, "openclaw_profile_unsafe", "$.profiles.openclaw"));
  }

  TEST_CASE("rejects a symlinked profile at the read boundary") {
    claw_fixture fx;
    fx.minimal();
    fx.put("real.yml", "schemaVersion: 1\nagent: {}\n");
    fx.symlink("pkg/profiles/openclaw.yml", "../real.yml");
    CHECK(has(fx.load().diagnostics, "openclaw_profile_unsafe", "$.profiles.openclaw"));
    claw_fixture fx2;
    fx2.minimal();
    fx2.put("real/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
    fx2.symlink("pkg/profiles", "real");
    CHECK(has(fx2.load().diagnostics, "openclaw_profile_unsafe", "$.profiles.openclaw"));
  }

  TEST_CASE("fails closed for an escaping metadata profile pointer") {
    for (const char* p :
         {"../openclaw.yml", "profiles\\\\openclaw.yml", "profiles/openclaw.json", "/abs.yml"}) {
      claw_fixture fx;
      fx.minimal(std::string("metadata:\n  openclaw.config: \"") + p + "\"\n");
      INFO(p);
      CHECK(has(fx.load().diagnostics, "invalid_openclaw_profile_path",
                "$.metadata.openclaw.config"));
    }
  }

  TEST_CASE("still reads the deprecated metadata profile pointer with a warning") {
    claw_fixture fx;
    fx.minimal("metadata:\n  openclaw.config: config/claw.yaml\n");
    fx.put("config/claw.yaml", "schemaVersion: 1\nagent:\n  sandbox: {mode: bogus}\n");
    const auto bad = fx.load();
    CHECK(
        has(bad.diagnostics, "invalid_manifest", "$.metadata.openclaw.config.agent.sandbox.mode"));
    fx.put("config/claw.yaml", "schemaVersion: 1\nagent: {}\n");
    const auto pkg = fx.load();  // the release warns by default
    REQUIRE(pkg.ok());
    CHECK(pkg.profile_path == "config/claw.yaml");
    CHECK(
        has(pkg.diagnostics, "deprecated_openclaw_profile_pointer", "$.metadata.openclaw.config"));
    CHECK(pkg.diagnostics[0].level == oc::level::warning);
    oc::read_options era;
    era.warn_deprecated_pointer = false;
    CHECK(fx.load(era).diagnostics.empty());  // the pointer era: no warning
  }

  TEST_CASE("accepts a deprecated pointer that already targets the conventional profile") {
    claw_fixture fx;
    fx.minimal("metadata:\n  openclaw.config: profiles/openclaw.yml\n");
    fx.put("profiles/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
    const auto pkg = fx.load();
    REQUIRE(pkg.ok());
    CHECK(pkg.profile_path == "profiles/openclaw.yml");
  }

  TEST_CASE("fails closed when a deprecated pointer diverges from the conventional profile") {
    claw_fixture fx;
    fx.minimal("metadata:\n  openclaw.config: other.yml\n");
    fx.put("profiles/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
    fx.put("other.yml", "schemaVersion: 1\nagent: {}\n");
    CHECK(has(fx.load().diagnostics, "conflicting_openclaw_profile_pointer",
              "$.metadata.openclaw.config"));
  }

  TEST_CASE("rejects workspace sources through an intermediate symlink") {
    claw_fixture fx;
    fx.minimal();
    fx.rename("pkg/ws", "pkg/real-ws");
    fx.symlink("pkg/ws", "real-ws");
    CHECK(has(fx.load().diagnostics, "workspace_source_unsafe", "$.workspace"));
  }

  TEST_CASE("rejects a workspace source over the per-file byte limit") {
    claw_fixture fx;
    fx.minimal();
    fx.put("ws/ref.md", std::string(1024 * 1024, 'a'));
    CHECK(fx.load().ok());
    fx.put("ws/ref.md", std::string(1024 * 1024 + 1, 'a'));
    CHECK(has(fx.load().diagnostics, "workspace_source_too_large", "$.workspace"));
  }

  TEST_CASE("rejects aggregate workspace bytes before reading source contents") {
    // As upstream's reader: the sources alone (stat sizes) against 4 MiB; the body counts
    // only in the plan, which then blocks every file (tests/oracle/cases/diagnostics.sh).
    claw_fixture fx;
    std::string files;
    for (int k = 0; k < 5; ++k) {
      fx.put("ws/f" + std::to_string(k), std::string(k == 4 ? 0 : 1024 * 1024, 'a'));
      files += "    - {source: ws/f" + std::to_string(k) + ", path: f" + std::to_string(k) + "}\n";
    }
    fx.put("package.json", minimal_json);
    fx.put("CLAW.md", "---\nschemaVersion: 1\nagent: {id: demo}\nworkspace:\n  files:\n" + files +
                          "---\nBody.\n");
    // Sources exactly 4 MiB: the package reads; with the 6-byte body the plan blocks.
    const auto at_limit = fx.load();
    REQUIRE(at_limit.ok());
    CHECK(at_limit.sources_too_large);
    const auto plan = oc::to_json(fx.plan(at_limit, fx.request()));
    REQUIRE(blocker(plan, "workspace_sources_too_large"));
    CHECK(plan["blockers"][0]["path"] == "$.workspace");
    CHECK(plan["blockers"][0]["message"] == "Workspace sources exceed 4194304 aggregate bytes.");
    for (const auto& a : plan["actions"])
      if (a["kind"] == "workspaceFile") CHECK((a["blocked"] == true && !a.contains("digest")));
    fx.put("ws/f4", "a");  // now 4 MiB + 1 of sources
    counting_fs spy;
    const auto pkg = oc::read_package(spy, fx.path());
    CHECK(has(pkg.diagnostics, "workspace_sources_too_large", "$.workspace"));
    CHECK(pkg.diagnostics.size() == 1);
    CHECK(spy.bytes < 4096);  // refused from stat sizes: no source content was read
  }

  TEST_CASE("a source that grows while it is read is caught") {
    claw_fixture fx;
    fx.minimal();
    growing_fs g;
    g.victim = fx.path("package.json");
    CHECK(has(oc::read_package(g, fx.path()).diagnostics, "package_read_failed", "$"));
  }

  TEST_CASE("package-root BOOTSTRAP.md is read, bound and checked") {
    claw_fixture fx;
    fx.minimal();
    const auto without = fx.load();
    fx.put("BOOTSTRAP.md", "First run: introduce yourself.\n");
    const auto with = fx.load();
    REQUIRE(with.ok());
    REQUIRE(with.bootstrap);
    CHECK(with.source.integrity != without.source.integrity);
    // The plan's bootstrap action (issue 42 §2 item 8, tests/oracle/cases/package_bootstrap.sh):
    // verb write, after the workspace and before the body's SOUL.md, upstream's details.
    const auto plan = oc::to_json(fx.plan(with, fx.request()));
    REQUIRE(plan["actions"].size() >= 3);
    const value& a = plan["actions"][2];
    CHECK(a["kind"] == "bootstrap");
    CHECK(a["action"] == "write");
    CHECK(a["target"] == fx.root_path() + "/state/workspace-demo/BOOTSTRAP.md");
    CHECK(a["digest"] == oc::sha256_digest("First run: introduce yourself.\n"));
    CHECK(a["details"] == value::parse(R"({"sourcePath": "BOOTSTRAP.md", "byteLength": 31,
      "expectedState": "absent-or-native-consumed", "lifecycle": "native-seed-once"})"));
    CHECK(a["blocked"] == false);
    fx.put("BOOTSTRAP.md", " \n");
    CHECK(has(fx.load().diagnostics, "package_bootstrap_empty"));
    CHECK(fx.load().diagnostics[0].message ==
          "Package-root BOOTSTRAP.md must contain first-run instructions.");
    fx.put("BOOTSTRAP.md", "\xFF\n");
    CHECK(has(fx.load().diagnostics, "package_bootstrap_invalid"));
    CHECK(fx.load().diagnostics[0].message ==
          "Package-root BOOTSTRAP.md must be a safe UTF-8 regular file: The encoded data was not "
          "valid for encoding utf-8");
  }
}

TEST_SUITE("openclaw.broken_packages") {
  TEST_CASE("every broken package is refused with its code, and nothing is written") {
    struct row {
      const char* name;
      std::function<void(claw_fixture&)> breakit;
      const char* code;
      const char* path;
    };
    const std::string fm = "---\nschemaVersion: 1\nagent: {id: demo}\n";
    const std::vector<row> rows = {
        {"missing source", [](claw_fixture& f) { f.remove("pkg"); }, "read_failed", "$"},
        {"fifo source",
         [](claw_fixture& f) {
           f.remove("pkg");
           f.fifo("pkg");
         },
         "unsupported_source", "$"},
        {"package.json missing", [](claw_fixture& f) { f.remove("pkg/package.json"); },
         "package_read_failed", "$"},
        {"package.json +1 byte",
         [](claw_fixture& f) {
           f.put("package.json",
                 minimal_json + std::string(256 * 1024 + 1 - minimal_json.size(), ' '));
         },
         "package_read_failed_too_large", "$"},
        {"package.json symlink",
         [](claw_fixture& f) {
           f.write("pj", minimal_json);
           f.remove("pkg/package.json");
           f.symlink("pkg/package.json", "../pj");
         },
         "package_read_failed", "$"},
        {"package.json hard link", [](claw_fixture& f) { f.hardlink("pkg/package.json", "pj"); },
         "package_read_failed", "$"},
        {"package.json not JSON", [](claw_fixture& f) { f.put("package.json", "{name:"); },
         "invalid_json", "$"},
        {"package.json no claw",
         [](claw_fixture& f) { f.put("package.json", "{\"name\":\"a\",\"version\":\"1.0.0\"}"); },
         "invalid_package_metadata", "$"},
        // Upstream: a declared manifest that does not resolve escapes the package.
        {"manifest missing", [](claw_fixture& f) { f.remove("pkg/CLAW.md"); },
         "manifest_escapes_package", "$"},
        {"manifest +1 byte",
         [fm](claw_fixture& f) {
           const std::string t = fm + "---\n";
           f.put("CLAW.md", t + std::string(1024 * 1024 + 1 - t.size(), 'x'));
         },
         "read_failed_too_large", "$"},
        {"manifest hard link", [](claw_fixture& f) { f.hardlink("pkg/CLAW.md", "claw-copy"); },
         "read_failed", "$"},
        {"manifest a directory",
         [](claw_fixture& f) {
           f.remove("pkg/CLAW.md");
           f.mkdir("pkg/CLAW.md");
         },
         "read_failed", "$"},
        {"grouped JSON invalid",
         [](claw_fixture& f) {
           f.put("package.json",
                 "{\"name\":\"a\",\"version\":\"1.0.0\",\"openclaw\":{\"claw\":\"c.json\"}}");
           f.put("c.json", "{,}");
         },
         "invalid_json", "$"},
        {"no frontmatter", [](claw_fixture& f) { f.put("CLAW.md", "hello\n"); },
         "missing_claw_frontmatter", "$"},
        {"frontmatter not UTF-8",
         [](claw_fixture& f) {
           f.put("CLAW.md", "---\nschemaVersion: 1\nagent: {id: \"\xC0\xAF\"}\n---\n");
         },
         "invalid_claw_markdown_utf8", "$"},
        {"frontmatter syntax",
         [](claw_fixture& f) { f.put("CLAW.md", "---\nschemaVersion: [1\n---\n"); },
         "invalid_claw_frontmatter", "$"},
        {"frontmatter two documents",
         [fm](claw_fixture& f) { f.put("CLAW.md", fm + "...\nx: 1\n---\n"); },
         "invalid_claw_frontmatter", "$"},
        {"frontmatter anchor", [fm](claw_fixture& f) { f.put("CLAW.md", fm + "x: &a 1\n---\n"); },
         "unsupported_claw_yaml_feature", "$"},
        {"frontmatter alias", [fm](claw_fixture& f) { f.put("CLAW.md", fm + "x: *a\n---\n"); },
         "unsupported_claw_yaml_feature", "$"},
        {"frontmatter tag", [fm](claw_fixture& f) { f.put("CLAW.md", fm + "x: !t 1\n---\n"); },
         "unsupported_claw_yaml_feature", "$"},
        {"frontmatter merge key", [fm](claw_fixture& f) { f.put("CLAW.md", fm + "<<: {}\n---\n"); },
         "unsupported_claw_yaml_feature", "$"},
        {"frontmatter complex key",
         [fm](claw_fixture& f) { f.put("CLAW.md", fm + "? x\n: y\n---\n"); },
         "unsupported_claw_yaml_feature", "$"},
        {"frontmatter number key", [fm](claw_fixture& f) { f.put("CLAW.md", fm + "1: y\n---\n"); },
         "unsupported_claw_yaml_feature", "$"},
        {"frontmatter .inf", [fm](claw_fixture& f) { f.put("CLAW.md", fm + "x: .inf\n---\n"); },
         "unsupported_claw_yaml_feature", "$"},
        {"frontmatter too deep",
         [fm](claw_fixture& f) {
           f.put("CLAW.md", fm + "x: " + std::string(65, '[') + std::string(65, ']') + "\n---\n");
         },
         "invalid_claw_frontmatter", "$"},
        {"unknown top-level key",
         [fm](claw_fixture& f) { f.put("CLAW.md", fm + "extra: 1\n---\n"); }, "invalid_manifest",
         "$"},
        {"unknown agent key",
         [](claw_fixture& f) {
           f.put("CLAW.md", "---\nschemaVersion: 1\nagent: {id: demo, model: x}\n---\n");
         },
         "invalid_manifest", "$.agent"},
        {"unknown identity key",
         [](claw_fixture& f) {
           f.put("CLAW.md",
                 "---\nschemaVersion: 1\nagent: {id: demo, identity: {voice: x}}\n---\n");
         },
         "invalid_manifest", "$.agent.identity"},
        {"source traversal",
         [fm](claw_fixture& f) {
           f.put("CLAW.md", fm + "workspace:\n  files: [{source: ../x, path: x}]\n---\n");
         },
         "invalid_manifest", "$.workspace.files[0].source"},
        {"duplicate destination",
         [fm](claw_fixture& f) {
           f.put("CLAW.md", fm + "workspace:\n  bootstrapFiles: {TOOLS.md: {source: a}}\n  files: "
                                 "[{source: b, path: tools.md}]\n---\n");
         },
         "invalid_manifest", "$.workspace.files[0].path"},
        {"undeclared avatar",
         [](claw_fixture& f) {
           f.put("CLAW.md",
                 "---\nschemaVersion: 1\nagent: {id: demo, identity: {avatar: a.png}}\n---\n");
         },
         "invalid_manifest", "$.agent.identity.avatar"},
        {"duplicate package",
         [fm](claw_fixture& f) {
           f.put("CLAW.md",
                 fm + "packages:\n  - {kind: skill, source: clawhub, ref: a, version: 1.0.0}\n  - "
                      "{kind: skill, source: clawhub, ref: a, version: 1.0.1}\n---\n");
         },
         "invalid_manifest", "$.packages[1]"},
        {"duplicate cron id",
         [fm](claw_fixture& f) {
           f.put("CLAW.md", fm + "cronJobs:\n  - {id: a, schedule: {cron: '* * * * *', timezone: "
                                 "UTC}, session: main, message: m}\n  - {id: a, schedule: {cron: "
                                 "'* * * * *', timezone: UTC}, session: main, message: m}\n---\n");
         },
         "invalid_manifest", "$.cronJobs[1].id"},
        {"body vs SOUL.md",
         [](claw_fixture& f) {
           f.put("CLAW.md",
                 "---\nschemaVersion: 1\nagent: {id: demo}\nworkspace:\n  bootstrapFiles: "
                 "{SOUL.md: {source: ws/ref.md}}\n---\nbody\n");
         },
         "claw_body_soul_conflict", "$.workspace"},
        {"profile pointer escapes",
         [fm](claw_fixture& f) {
           f.put("CLAW.md", fm + "metadata: {openclaw.config: ../p.yml}\n---\n");
         },
         "invalid_openclaw_profile_path", "$.metadata.openclaw.config"},
        {"profile pointer target missing",
         [fm](claw_fixture& f) {
           f.put("CLAW.md", fm + "metadata: {openclaw.config: p.yml}\n---\n");
         },
         "openclaw_profile_read_failed", "$.metadata.openclaw.config"},
        {"profile +1 byte",
         [](claw_fixture& f) {
           const std::string t = "schemaVersion: 1\nagent: {}\n#";
           f.put("profiles/openclaw.yml", t + std::string(256 * 1024 + 1 - t.size(), 'x'));
         },
         "openclaw_profile_too_large", "$.profiles.openclaw"},
        {"profile hard link",
         [](claw_fixture& f) {
           f.put("profiles/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
           f.hardlink("pkg/profiles/openclaw.yml", "p2");
         },
         "openclaw_profile_unsafe", "$.profiles.openclaw"},
        {"profile unknown key",
         [](claw_fixture& f) {
           f.put("profiles/openclaw.yml",
                 "schemaVersion: 1\nagent: {model: x, tools: {}}\nextra: 1\n");
         },
         "invalid_manifest", "$.profiles.openclaw"},
        {"profile not UTF-8",
         [](claw_fixture& f) {
           f.put("profiles/openclaw.yml", "schemaVersion: 1\nagent: {x: \"\xFF\"}\n");
         },
         "invalid_openclaw_profile", "$.profiles.openclaw"},
        {"source missing", [](claw_fixture& f) { f.remove("pkg/ws/ref.md"); },
         "workspace_source_invalid", "$.workspace"},
        {"source symlink",
         [](claw_fixture& f) {
           f.write("o.md", "x");
           f.remove("pkg/ws/ref.md");
           f.symlink("pkg/ws/ref.md", "../../o.md");
         },
         "workspace_source_unsafe", "$.workspace"},
        {"source symlinked parent",
         [](claw_fixture& f) {
           f.rename("pkg/ws", "pkg/real");
           f.symlink("pkg/ws", "real");
         },
         "workspace_source_unsafe", "$.workspace"},
        {"source hard link", [](claw_fixture& f) { f.hardlink("pkg/ws/ref.md", "ref-copy"); },
         "workspace_source_unsafe", "$.workspace"},
        {"source is a FIFO",
         [](claw_fixture& f) {
           f.remove("pkg/ws/ref.md");
           f.fifo("pkg/ws/ref.md");
         },
         "workspace_source_invalid", "$.workspace"},
        {"source +1 byte",
         [](claw_fixture& f) { f.put("ws/ref.md", std::string(1024 * 1024 + 1, 'x')); },
         "workspace_source_too_large", "$.workspace"},
        {"BOOTSTRAP.md +1 byte",
         [](claw_fixture& f) { f.put("BOOTSTRAP.md", std::string(2 * 1024 * 1024 + 1, 'x')); },
         "package_bootstrap_too_large", "$.bootstrap"},
        {"BOOTSTRAP.md symlink",
         [](claw_fixture& f) {
           f.write("b.md", "x");
           f.symlink("pkg/BOOTSTRAP.md", "../b.md");
         },
         "package_bootstrap_invalid", "$.bootstrap"},
    };
    for (const auto& r : rows) {
      claw_fixture fx;
      fx.minimal();
      r.breakit(fx);
      const auto before = fx.snapshot();
      const auto pkg = fx.load();
      INFO(r.name);
      INFO(listing(pkg.diagnostics));
      CHECK_FALSE(pkg.ok());
      CHECK(has(pkg.diagnostics, r.code, r.path));
      CHECK(fx.snapshot() == before);
      const value doc = oc::inspect_document(pkg);
      CHECK(doc["valid"] == false);
      CHECK_FALSE(doc.contains("manifest"));
    }
  }
}

TEST_SUITE("openclaw.plan") {
  TEST_CASE("plans one new agent, workspace, packages, MCP servers, and agent-pinned cron jobs") {
    claw_fixture fx;
    fx.example();
    const auto pkg = fx.load();
    REQUIRE(pkg.ok());
    const auto p = fx.plan(pkg, fx.request());
    const value plan = oc::to_json(p);
    CHECK(plan["schemaVersion"] == "openclaw.clawAddPlan.v1");
    CHECK(plan["manifestSchemaVersion"] == 1);
    CHECK(plan["dryRun"] == true);
    CHECK(plan["mutationAllowed"] == false);
    CHECK(plan["agent"]["finalId"] == "incident-triage");
    CHECK(plan["agent"]["workspace"] == fx.root_path() + "/state/workspace-incident-triage");
    const value& s = plan["summary"];
    CHECK(s["totalActions"] == 16);
    CHECK(s["agentActions"] == 1);
    CHECK(s["workspaceActions"] == 9);
    CHECK(s["packageActions"] == 2);
    CHECK(s["mcpServerActions"] == 2);
    CHECK(s["cronJobActions"] == 2);
    CHECK(s["blockedActions"] == 2);
    CHECK(s["capabilityEscalations"] == 7);
    const std::vector<std::string> kinds = {"agent", "workspace", "workspaceFile", "workspaceFile"};
    for (std::size_t k = 0; k < kinds.size(); ++k) CHECK(plan["actions"][k]["kind"] == kinds[k]);
    CHECK(plan["actions"][2]["id"] == "SOUL.md");
    CHECK(plan["actions"][2]["sourceKind"] == "clawMarkdownBody");
    CHECK(plan["actions"][2]["source"] == fx.path("CLAW.md"));
    CHECK(plan["actions"][0]["target"] == "agents.entries[\"incident-triage\"]");
    CHECK(plan["actions"][0]["details"]["sandbox"]["mode"] == "all");
    CHECK(plan["actions"][0]["details"]["expectedState"] == "absent");
    const value* cron = action_of(plan, "cronJob", "morning-digest");
    REQUIRE(cron);
    CHECK((*cron)["target"] == "cron:morning-digest:agent=incident-triage");
    CHECK((*cron)["details"]["deliveryResolution"] == "local-channel-state:last");
    CHECK(plan["readiness"]["ready"] == false);
    CHECK(plan["readiness"]["requirements"][0] == value::object({{"kind", "environment"},
                                                                 {"mcpServer", "statuspage"},
                                                                 {"name", "STATUSPAGE_TOKEN"}}));
    CHECK(plan["readiness"]["requirements"][1] ==
          value::object({{"kind", "oauth"}, {"mcpServer", "linear"}}));
    // Offline: both packages are unresolved blockers with upstream's codes per kind, their
    // digest present-but-undefined, requirementState conflicting (issue 42 §2 item 7).
    CHECK(plan["blockers"].size() == 2);
    CHECK(blocker(plan, "skill_preflight_failed"));
    CHECK(blocker(plan, "plugin_preflight_failed"));
    const value* skill = action_of(plan, "package", "skill:incident-triage-playbook");
    REQUIRE(skill);
    CHECK(clawport::json::is_undefined((*skill)["digest"]));
    CHECK((*skill)["details"]["requirementState"] == "conflicting");
    CHECK((*skill)["details"]["expectedState"] == "unresolved");
    CHECK(p.blocked);
    // The MCP capability withholds env values.
    for (const auto& c : plan["capabilityChanges"]) {
      if (c["id"] == "statuspage") CHECK(c["effect"]["env"] == value::array({"STATUSPAGE_TOKEN"}));
      CHECK(c["classification"] == "escalation");
    }
    CHECK(plan["capabilityChanges"][0]["kind"] == "agent");
    // 2026.9.6: each record carries its reason (bound into planIntegrity), and the plan its
    // extensions, `[]` included.
    std::map<std::string, std::string> reasons;
    for (const auto& c : plan["capabilityChanges"])
      reasons[c["kind"].get<std::string>()] = c["reason"].get<std::string>();
    CHECK(reasons["mcpServer"] == "The Claw declares an MCP execution or network tool surface.");
    CHECK(reasons["cronJob"] == "The Claw declares recurring scheduled work.");
    CHECK(reasons["package"] ==
          "The Claw requires downloadable package content or executable code.");
    CHECK(reasons["agent"] ==
          "The new agent declares sandbox, tool, memory-search, or recurring heartbeat "
          "capabilities.");
    CHECK(plan["extensions"] == value::array());
    CHECK(plan["planIntegrity"] == plan_documents::add_integrity(plan));
    CHECK(p.integrity == oc::add_plan_integrity_of(p));
  }

  TEST_CASE("materializes resolved package identity into the consented plan") {
    struct registry {
      std::optional<oc::package_preflight> preflight(const value& p) const {
        oc::package_preflight r;
        r.ok = true;
        r.action = "install";
        r.integrity = "sha256:" + std::string(64, p["kind"] == "skill" ? 'a' : 'b');
        if (p["kind"] == "plugin") r.install_id = "statuspage-tools";
        r.warning = "unreviewed publisher";
        return r;
      }
    };
    claw_fixture fx;
    fx.example();
    const auto pkg = fx.load();
    const auto req = fx.request();
    const auto plan = oc::build_add_plan(pkg, oc::resolve_destination(fx.fs, pkg, req),
                                         oc::read_host_state(fx.fs, req), registry{});
    const value doc = oc::to_json(plan);
    const value* plugin = action_of(doc, "package", "plugin:@acme/statuspage-tools");
    REQUIRE(plugin);
    CHECK((*plugin)["digest"] == "sha256:" + std::string(64, 'b'));
    CHECK((*plugin)["details"]["installId"] == "statuspage-tools");
    CHECK((*plugin)["details"]["riskWarning"] == "unreviewed publisher");
    CHECK((*plugin)["details"]["ownerAction"] == "install");
    CHECK((*plugin)["blocked"] == false);
    for (const auto& c : doc["capabilityChanges"])
      if (c["id"] == "plugin:@acme/statuspage-tools")
        CHECK(c["effect"]["installId"] == "statuspage-tools");
    CHECK_FALSE(plan.blocked);
    CHECK(doc["planIntegrity"] != oc::to_json(fx.plan(pkg, req))["planIntegrity"]);
  }

  TEST_CASE("blocks agent, configured workspace, and MCP collisions") {
    claw_fixture fx;
    fx.example();
    fx.mkdir("ws-elsewhere");
    fx.write("state/openclaw.json",
             "// existing install\n{agents: {entries: {'incident-triage': {workspace: '" +
                 fx.root_path() +
                 "/state/workspace-incident-triage'}}},\n mcp: {servers: {linear: {url: "
                 "'https://other.example/mcp', transport: 'sse'}}}}\n");
    const auto plan = oc::to_json(fx.plan(fx.load(), fx.request()));
    std::vector<std::string> codes;
    for (const auto& b : plan["blockers"]) codes.push_back(b["code"].get<std::string>());
    CHECK(codes == std::vector<std::string>{"agent_id_collision", "workspace_collision",
                                            "skill_preflight_failed", "plugin_preflight_failed",
                                            "mcp_server_collision"});
    CHECK(plan["blockers"][0]["path"] == "$.agent.id");
    CHECK(plan["blockers"][0]["phase"] == "plan");
    const value* file = action_of(plan, "workspaceFile", "AGENTS.md");
    REQUIRE(file);
    CHECK((*file)["blocked"] == true);
    CHECK((*file)["reason"].get<std::string>().find("already exists") != std::string::npos);
    CHECK(file->contains("digest"));  // upstream still shows what it would write
    // The agent action blocks without a reason of its own (the blocker says why); the
    // body's SOUL.md is not blocked by the workspace (tests/oracle/cases/workspace_collision.sh).
    const value* agent = action_of(plan, "agent", "incident-triage");
    REQUIRE(agent);
    CHECK((*agent)["blocked"] == true);
    CHECK_FALSE(agent->contains("reason"));
    CHECK(action_of(plan, "workspaceFile", "SOUL.md")->at("blocked") == false);
  }

  TEST_CASE("a workspace that exists on disk, a file or an empty directory, collides") {
    // Issue 42 §2 item 3: openclaw 2026.9.6 blocks an existing empty directory too
    // (tests/oracle/cases/workspace_collision.sh); clawport used to adopt it.
    claw_fixture fx;
    fx.minimal();
    fx.write("state/workspace-demo", "not a directory");
    CHECK(blocker(oc::to_json(fx.plan(fx.load(), fx.request())), "workspace_collision"));
    fx.remove("state/workspace-demo");
    fx.mkdir("state/workspace-demo");
    const auto plan = oc::to_json(oc::plan_add(fx.fs, fx.load(), fx.request()));
    REQUIRE(blocker(plan, "workspace_collision"));
    CHECK(plan["blockers"][0]["message"] ==
          "Workspace \"" + fx.root_path() +
              "/state/workspace-demo\" already exists; a Claw requires a new "
              "workspace.");
    CHECK(plan["actions"][1]["action"] == "create");
    CHECK(plan["actions"][1]["blocked"] == true);
  }

  TEST_CASE("the implicit main agent exists when no entries are configured") {
    claw_fixture fx;
    fx.minimal();
    auto req = fx.request();
    req.agent_id = "main";
    const auto plan = oc::to_json(fx.plan(fx.load(), req));
    CHECK(blocker(plan, "agent_id_collision"));
    req.agent_id = "Not-An-Id";
    CHECK(blocker(oc::to_json(fx.plan(fx.load(), req)), "invalid_agent_id"));
  }

  TEST_CASE("plans reuse for an exact existing MCP server") {
    claw_fixture fx;
    fx.example();
    fx.write("state/openclaw.json",
             "{mcp: {servers: {linear: {auth: 'oauth', url: 'https://mcp.linear.app/mcp', type: "
             "'streamable-http',"
             " tool_filter: {include: ['list_issues', 'create_issue']}}}}}");
    const auto plan = oc::to_json(fx.plan(fx.load(), fx.request()));
    const value* linear = action_of(plan, "mcpServer", "linear");
    REQUIRE(linear);
    CHECK((*linear)["details"]["expectedState"] == "present-exact");
    CHECK((*linear)["blocked"] == false);
    CHECK_FALSE(blocker(plan, "mcp_server_collision"));
  }

  TEST_CASE("uses an explicit unused agent id for every derived action") {
    claw_fixture fx;
    fx.example();
    auto req = fx.request();
    req.agent_id = "triage-two";
    const auto plan = oc::to_json(fx.plan(fx.load(), req));
    CHECK(plan["agent"]["requestedId"] == "incident-triage");
    CHECK(plan["agent"]["finalId"] == "triage-two");
    CHECK(plan["agent"]["workspace"] == fx.root_path() + "/state/workspace-triage-two");
    CHECK(plan["actions"][0]["target"] == "agents.entries[\"triage-two\"]");
    CHECK(plan["actions"][0]["details"]["id"] == "triage-two");
    for (const auto& a : plan["actions"]) {
      if (a["kind"] == "cronJob") {
        CHECK(a["target"].get<std::string>().find(":agent=triage-two") != std::string::npos);
        CHECK(a["details"]["agentId"] == "triage-two");
      }
    }
  }

  TEST_CASE("canonicalizes a missing workspace through an existing aliased parent") {
    claw_fixture fx;
    fx.minimal();
    fx.mkdir("real-parent");
    fx.symlink("alias", "real-parent");
    auto req = fx.request();
    req.workspace = fx.root_path() + "/alias/./new-ws";
    const auto plan = oc::to_json(fx.plan(fx.load(), req));
    CHECK(plan["agent"]["workspace"] == fx.root_path() + "/real-parent/new-ws");
    CHECK_FALSE(blocker(plan, "workspace_collision"));
  }

  TEST_CASE("canonicalizes workspace identity through symlinked parents") {
    claw_fixture fx;
    fx.minimal();
    fx.mkdir("real/ws");
    fx.symlink("alias", "real");
    fx.write("state/openclaw.json",
             "{agents: {entries: {other: {workspace: '" + fx.root_path() + "/real/ws'}}}}");
    auto req = fx.request();
    req.workspace = "alias/ws";  // relative to cwd
    const auto plan = oc::to_json(fx.plan(fx.load(), req));
    CHECK(plan["agent"]["workspace"] == fx.root_path() + "/real/ws");
    CHECK(blocker(plan, "workspace_collision"));
    req.workspace = "~/elsewhere";
    CHECK(oc::to_json(fx.plan(fx.load(), req))["agent"]["workspace"] ==
          fx.root_path() + "/home/elsewhere");
  }

  TEST_CASE("rejects workspace sources through symlinked parents (blocked action, no digest)") {
    claw_fixture fx;
    fx.minimal();
    auto pkg = fx.load();
    // The package was read, then a source was swapped for a symlinked parent: re-reading
    // records the problem, and the plan blocks that action without a digest.
    fx.rename("pkg/ws", "pkg/real");
    fx.symlink("pkg/ws", "real");
    const auto swapped = fx.load();
    REQUIRE(swapped.sources[0].problem);
    const auto plan = oc::to_json(fx.plan(swapped, fx.request()));
    const value* a = action_of(plan, "workspaceFile", "AGENTS.md");
    REQUIRE(a);
    CHECK((*a)["blocked"] == true);
    CHECK_FALSE(a->contains("digest"));
    CHECK(blocker(plan, "workspace_source_unsafe"));
    CHECK(action_of(plan, "workspaceFile", "ref.md")->contains("digest") == false);
    (void)pkg;
  }

  TEST_CASE("blocks aggregate workspace bytes before hashing sources") {
    claw_fixture fx;
    fx.minimal();
    oc::read_options small;
    small.limits.workspace_total = 12;  // sources 11 fit, with the 9-byte body they do not
    const auto pkg = fx.load(small);
    REQUIRE(pkg.ok());
    REQUIRE(pkg.sources_too_large);
    const auto plan = oc::to_json(fx.plan(pkg, fx.request()));
    for (const auto& a : plan["actions"]) {
      if (a["kind"] != "workspaceFile") continue;
      CHECK(a["blocked"] == true);
      CHECK_FALSE(a.contains("digest"));
    }
    std::size_t n = 0;
    for (const auto& b : plan["blockers"]) n += b["code"] == "workspace_sources_too_large";
    CHECK(n == 1);
  }

  TEST_CASE("binds plan integrity to the source and planned mutations") {
    claw_fixture fx;
    fx.example();
    const auto req = fx.request();
    const std::string first = oc::to_json(fx.plan(fx.load(), req))["planIntegrity"];
    CHECK(oc::to_json(fx.plan(fx.load(), req))["planIntegrity"] == first);  // identical inputs
    auto other = req;
    other.agent_id = "triage-two";
    CHECK(oc::to_json(fx.plan(fx.load(), other))["planIntegrity"] != first);
    other = req;
    other.workspace = fx.root_path() + "/somewhere";
    CHECK(oc::to_json(fx.plan(fx.load(), other))["planIntegrity"] != first);
    // A changed capability (the profile) changes it.
    fx.put("profiles/openclaw.yml",
           fx.read("pkg/profiles/openclaw.yml") + "  humanDelay:\n    mode: off\n");
    const std::string changed = oc::to_json(fx.plan(fx.load(), req))["planIntegrity"];
    CHECK(changed != first);
  }

  TEST_CASE("the integrity does not change with the manifest's key order, only with its bytes") {
    claw_fixture fx;
    fx.example();
    const auto req = fx.request();
    const auto a = oc::to_json(fx.plan(fx.load(), req));
    // Reorder the manifest's top-level keys and the agent's keys.
    std::string md = fx.read("pkg/CLAW.md");
    const std::size_t agent = md.find("agent:\n");
    const std::size_t meta = md.find("metadata:\n");
    const std::string agent_block = md.substr(agent, meta - agent);
    md.erase(agent, meta - agent);
    const std::size_t end = md.find("\n---\n");
    md.insert(end + 1, agent_block);
    fx.put("CLAW.md", md);
    const auto b = oc::to_json(fx.plan(fx.load(), req));
    REQUIRE(b["claw"]["integrity"] != a["claw"]["integrity"]);  // the bytes changed
    // With the same snapshot digest, the rest of the bound data is identical.
    value bound_a = a, bound_b = b;
    bound_b["claw"]["integrity"] = a["claw"]["integrity"];
    CHECK(plan_documents::add_integrity(bound_a) == plan_documents::add_integrity(bound_b));
    CHECK(clawport::json::stable_stringify(a["actions"]) ==
          clawport::json::stable_stringify(b["actions"]));
  }
}
