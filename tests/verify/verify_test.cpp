// SPDX-License-Identifier: MIT
// `verify` against a table of tampered bundles, each with its positive control: the bundle
// as exported verifies, and each tampering is refused naming its cause and path. Semantic
// tamperings are "re-signed" (the digest list rewritten to match), so the check that
// catches them is the semantic one, not the digest list.
#include "fs/fixture.hpp"
#include "fs/racing.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace cp = clawport;
using cp::testing::posix_fixture;

namespace {

const char* const kConfig = R"(schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-verify-test-secret"
model = "claude-opus-5"

[risk_profiles.guarded]

[skill_bundles.research_tools]

[agents.researcher]
model_provider = "anthropic.main"
risk_profile = "guarded"
skill_bundles = ["research_tools"]
)";

struct bundle_rig : posix_fixture {
  bundle_rig() {
    write("install/config.toml", kConfig);
    write("install/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
    write("install/agents/researcher/workspace/notes/plan.md", "the plan\n");
    write("install/shared/skills/research_tools/web_search/SKILL.md", "# web search\n");
  }

  /// Exports `researcher` to `rel` with a fixed provenance time.
  void export_to(const std::string& rel) {
    cp::export_options o;
    o.alias = "researcher";
    o.config_path = root_path() + "/" + std::string("install/config.toml");
    o.out = root_path() + "/" + std::string(rel);
    o.sync = false;
    o.exported_at = cp::timestamp{1786493040, 0};
    cp::exporter ex(fs);
    ex.run(o);
  }

  cp::verify::report verify(const std::string& rel, const cp::verify::limits& lim = {}) {
    return cp::verify::verify_bundle(fs, root_path() + "/" + std::string(rel), lim);
  }

  /// Rewrites the digest list so it matches the bundle's current files.
  void resign(const std::string& rel) {
    remove(rel + "/zeroclaw-agent.sha256");
    std::vector<cp::digest::list_entry> entries;
    for (const auto& f : cp::verify::verify_bundle_files(fs, root_path() + "/" + rel).files)
      entries.push_back({f.path, f.sha256});
    write(rel + "/zeroclaw-agent.sha256", cp::digest::render_list(entries));
  }

  void replace_in(const std::string& rel, const std::string& from, const std::string& to) {
    std::string text = read(rel);
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    remove(rel);
    write(rel, text);
  }
};

bool has_finding(const cp::verify::report& r, const std::string& code, const std::string& path) {
  for (const auto& f : r.findings)
    if (!f.warning && f.code == code && f.path == path) return true;
  return false;
}

std::string listing(const cp::verify::report& r) {
  std::string out;
  for (const auto& f : r.findings) out += f.code + " " + f.path + ": " + f.detail + "\n";
  return out;
}

struct tamper_case {
  const char* name;
  std::function<void(bundle_rig&, const std::string&)> apply;
  const char* code;
  const char* path;
};

}  // namespace

TEST_CASE("verify: a bundle as clawport exports it verifies, authenticated, with no finding") {
  bundle_rig rig;
  rig.export_to("bundle");
  const auto r = rig.verify("bundle");
  INFO(listing(r));
  CHECK(r.ok());
  CHECK(r.authenticated);
  CHECK(r.findings.empty());
  CHECK(r.root_agent == "researcher");
  CHECK(r.skill_bundles == std::vector<std::string>{"research_tools"});
  CHECK(r.required_secrets == std::vector<std::string>{"providers.models.anthropic.main.api_key"});
  CHECK(r.manifest_sha256 == cp::digest::sha256_hex(rig.read("bundle/zeroclaw-agent.toml")));
  // verify keeps its findings and the bundle's root, not every file; asked, it keeps all.
  CHECK(r.file("workspace/notes/plan.md") == nullptr);
  CHECK(r.file("zeroclaw-agent.toml") != nullptr);
  const auto all = cp::verify::verify_bundle_files(rig.fs, rig.root_path() + "/bundle");
  CHECK(all.file("workspace/notes/plan.md") != nullptr);
  CHECK(all.files.size() == r.file_count);
  // Every file but the list itself is listed.
  const std::string list = rig.read("bundle/zeroclaw-agent.sha256");
  CHECK(r.file_count == std::uint64_t(std::count(list.begin(), list.end(), '\n')) + 1);
  CHECK(cp::verify::render_report(all) == cp::verify::render_report(r));
}

TEST_CASE("verify: a digest list not in path order is joined all the same") {
  // sha256sum writes lines in the order it is given files; verify streams a list in path
  // order (clawport's) and joins any other from its text: the same findings either way.
  bundle_rig rig;
  rig.export_to("b");
  const std::string list = rig.read("b/zeroclaw-agent.sha256");
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t end = list.find('\n', at);
    lines.push_back(list.substr(at, end + 1 - at));
    at = end + 1;
  }
  std::string reversed;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) reversed += *it;
  REQUIRE(reversed != list);
  rig.remove("b/zeroclaw-agent.sha256");
  rig.write("b/zeroclaw-agent.sha256", reversed);
  const auto r = rig.verify("b");
  INFO(listing(r));
  CHECK(r.ok());
  CHECK(r.authenticated);
  rig.replace_in("b/workspace/notes/plan.md", "plan", "plot");
  const auto bad = rig.verify("b");
  REQUIRE(bad.findings.size() == 1);
  CHECK(bad.findings[0].code == "digest_mismatch");
  CHECK(bad.findings[0].path == "workspace/notes/plan.md");
}

TEST_CASE("verify: a digest list listing a path twice or malformed is one finding") {
  bundle_rig rig;
  rig.export_to("b");
  const std::string list = rig.read("b/zeroclaw-agent.sha256");
  const std::string first = list.substr(0, list.find('\n') + 1);
  rig.remove("b/zeroclaw-agent.sha256");
  rig.write("b/zeroclaw-agent.sha256", first + list);
  auto r = rig.verify("b");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].code == "digest_list_invalid");
  CHECK(r.findings[0].detail == "zeroclaw-agent.sha256 lists config.toml twice");
  rig.remove("b/zeroclaw-agent.sha256");
  rig.write("b/zeroclaw-agent.sha256", list + "nonsense\n");
  r = rig.verify("b");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].code == "digest_list_invalid");
  const auto lines = std::count(list.begin(), list.end(), '\n');
  CHECK(r.findings[0].detail.find("line " + std::to_string(lines + 1) +
                                  ": the line is too short") != std::string::npos);
  CHECK_FALSE(r.authenticated);
}

TEST_CASE("verify: the table of tampered bundles, each refused naming its cause") {
  const std::vector<tamper_case> cases = {
      {"flipped byte",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/workspace/IDENTITY.md", "researcher", "researchex");
       },
       "digest_mismatch", "workspace/IDENTITY.md"},
      {"extra file",
       [](bundle_rig& r, const std::string& b) { r.write(b + "/workspace/x.md", "x"); },
       "unlisted_file", "workspace/x.md"},
      {"missing file",
       [](bundle_rig& r, const std::string& b) { r.remove(b + "/workspace/notes/plan.md"); },
       "missing_file", "workspace/notes/plan.md"},
      {"symlink",
       [](bundle_rig& r, const std::string& b) {
         r.symlink(b + "/workspace/link.md", "/etc/passwd");
       },
       "symlink", "workspace/link.md"},
      {"hard link",
       [](bundle_rig& r, const std::string& b) {
         r.hardlink(b + "/workspace/IDENTITY.md", b + "/workspace/twin.md");
       },
       "hard_link", "workspace/twin.md"},
      {"FIFO", [](bundle_rig& r, const std::string& b) { r.fifo(b + "/workspace/pipe"); },
       "special_file", "workspace/pipe"},
      {"secret value put back",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/config.toml", "api_key = \"\"", "api_key = \"sk-ant-attacker\"");
         r.resign(b);
       },
       "secret_value", "providers.models.anthropic.main.api_key"},
      {"memory store added",
       [](bundle_rig& r, const std::string& b) {
         r.write(b + "/workspace/memory/brain.db", "SQLite format 3");
         r.resign(b);
       },
       "memory_store", "workspace/memory/"},
      {"memory snapshot added",
       [](bundle_rig& r, const std::string& b) {
         r.write(b + "/workspace/MEMORY_SNAPSHOT.md", "core memories");
         r.resign(b);
       },
       "memory_store", "workspace/MEMORY_SNAPSHOT.md"},
      {"newer format_version",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/zeroclaw-agent.toml", "format_version = 1", "format_version = 3");
         r.resign(b);
       },
       "format_newer", "zeroclaw-agent.toml:format_version"},
      {"unlisted skill directory",
       [](bundle_rig& r, const std::string& b) {
         r.write(b + "/skills/smuggled/evil/SKILL.md", "# evil");
         r.resign(b);
       },
       "skill_unlisted", "skills/smuggled/"},
      {"listed skill bundle missing",
       [](bundle_rig& r, const std::string& b) {
         r.remove(b + "/skills");
         r.resign(b);
       },
       "skill_missing", "skills/research_tools/"},
      {"name outside the grammar",
       [](bundle_rig& r, const std::string& b) {
         r.write(b + "/workspace/bad\x01name.md", "x");
         r.resign(b);
       },
       "name_invalid", "workspace/bad\x01name.md"},
      {"skill alias outside the grammar",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/zeroclaw-agent.toml", "\"research_tools\"", "\"research:tools\"");
         r.resign(b);
       },
       "name_invalid", "skills/research:tools"},
      {"oversized manifest",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/zeroclaw-agent.toml", "format_version",
                      "# " + std::string(1u << 20, 'x') + "\nformat_version");
         r.resign(b);
       },
       "limit_exceeded", "zeroclaw-agent.toml"},
      {"required secret that is not an empty secret field",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(
             b + "/zeroclaw-agent.toml", "\"providers.models.anthropic.main.api_key\",",
             "\"agents.researcher.risk_profile\", \"providers.models.anthropic.main.api_key\",");
         r.resign(b);
       },
       "secrets_mismatch", "agents.researcher.risk_profile"},
      {"closure not closed (an entry the agent does not reach)",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/config.toml", "[risk_profiles.guarded]",
                      "[risk_profiles.spare]\n\n[risk_profiles.guarded]");
         r.resign(b);
       },
       "closure_invalid", "config.toml"},
      {"second agent in the closure",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/config.toml", "[agents.researcher]",
                      "[agents.stowaway]\nmodel_provider = \"anthropic.main\"\nrisk_profile = "
                      "\"guarded\"\n\n"
                      "[agents.researcher]");
         r.resign(b);
       },
       "closure_invalid", "agents"},
      {"unknown manifest key",
       [](bundle_rig& r, const std::string& b) {
         r.replace_in(b + "/zeroclaw-agent.toml", "format_version = 1",
                      "format_version = 1\ntrust_me = true");
         r.resign(b);
       },
       "manifest_invalid", "zeroclaw-agent.toml:trust_me"},
      {"stray top-level file",
       [](bundle_rig& r, const std::string& b) {
         r.write(b + "/install.sh", "rm -rf ~");
         r.resign(b);
       },
       "unexpected_entry", "install.sh"},
  };
  bundle_rig rig;
  int n = 0;
  for (const tamper_case& c : cases) {
    CAPTURE(std::string(c.name));
    const std::string b = "b" + std::to_string(n++);
    rig.export_to(b);
    const auto before = rig.verify(b);  // the positive control: untouched, it verifies
    CHECK(before.ok());
    CHECK(before.authenticated);
    c.apply(rig, b);
    const auto after = rig.verify(b);
    INFO(listing(after));
    CHECK_FALSE(after.ok());
    CHECK(has_finding(after, c.code, c.path));
  }
}

TEST_CASE("verify: an empty secret the manifest does not list is a warning, not a refusal") {
  bundle_rig rig;  // an export of an install whose secret was already empty
  rig.export_to("b");
  rig.replace_in("b/zeroclaw-agent.toml", "\"providers.models.anthropic.main.api_key\",", "");
  rig.resign("b");
  const auto r = rig.verify("b");
  CHECK(r.ok());
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].code == "secret_unlisted");
  CHECK(r.findings[0].warning);
}

TEST_CASE("verify: the digest list's findings come in path order, the missing files last") {
  // Byte order of names puts workspace/a/ before workspace/a.txt, the reverse of path order
  // ('.' < '/'): the walk visits them in path order, so the digest list joins in one pass.
  bundle_rig rig;
  rig.export_to("b");
  rig.write("b/workspace/a/z.md", "z");
  rig.write("b/workspace/a.txt", "a");
  rig.replace_in("b/workspace/IDENTITY.md", "researcher", "researchex");
  rig.remove("b/workspace/notes/plan.md");
  rig.write("b/workspace/notes/b.md", "b");
  const auto r = rig.verify("b");
  std::vector<std::string> got;
  for (const auto& f : r.findings)
    if (f.code == "unlisted_file" || f.code == "missing_file" || f.code == "digest_mismatch")
      got.push_back(f.code + " " + f.path);
  CHECK(got == std::vector<std::string>{
                   "digest_mismatch workspace/IDENTITY.md", "unlisted_file workspace/a.txt",
                   "unlisted_file workspace/a/z.md", "unlisted_file workspace/notes/b.md",
                   "missing_file workspace/notes/plan.md"});
  CHECK_FALSE(r.authenticated);
}

TEST_CASE("verify: a file that grows between its classification and its read is reported") {
  // verify stops reading a small file at the first short read that reaches its size; a file
  // that grew in place (same inode) must still show as a read past the size it had.
  bundle_rig rig;
  rig.export_to("b");
  cp::testing::racing<cp::fs::posix> racer(rig.fs);
  racer.after_classify("IDENTITY.md", [&] {
    rig.write("b/workspace/IDENTITY.md", "# researcher\nand a line more than was classified\n");
  });
  const auto r = cp::verify::verify_bundle(racer, rig.root_path() + "/b");
  CHECK(racer.fired());
  bool grew = false;
  for (const auto& f : r.findings)
    grew = grew || (f.code == "changed" && f.path == "workspace/IDENTITY.md" &&
                    f.detail.find("grew") != std::string::npos);
  CHECK(grew);
  CHECK_FALSE(r.ok());
}

TEST_CASE("verify: every finding is listed, not only the first") {
  bundle_rig rig;
  rig.export_to("b");
  rig.replace_in("b/workspace/IDENTITY.md", "researcher", "researchex");
  rig.write("b/workspace/x.md", "x");
  rig.symlink("b/workspace/link", "/");
  const auto r = rig.verify("b");
  CHECK(r.errors() == 3);
  CHECK(has_finding(r, "digest_mismatch", "workspace/IDENTITY.md"));
  CHECK(has_finding(r, "unlisted_file", "workspace/x.md"));
  CHECK(has_finding(r, "symlink", "workspace/link"));
  const auto j = cp::verify::to_json(r);
  CHECK(j["findings"].size() == 3);
  CHECK(j["findings"][0].contains("code"));
  CHECK(j["ok"] == false);
}

TEST_CASE("verify: a bundle without a digest list (upstream) verifies with a warning") {
  bundle_rig rig;
  rig.export_to("b");
  rig.remove("b/zeroclaw-agent.sha256");
  const auto r = rig.verify("b");
  CHECK(r.ok());
  CHECK_FALSE(r.authenticated);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].warning);
  CHECK(r.findings[0].code == "unauthenticated");
  // Without the list, structure is still checked: a memory store is still refused.
  rig.write("b/workspace/memory/brain.db", "db");
  CHECK(has_finding(rig.verify("b"), "memory_store", "workspace/memory/"));
}

TEST_CASE("verify: the limits are enforced and named (files, bytes, depth, name length)") {
  bundle_rig rig;
  rig.export_to("b");
  cp::verify::limits lim;
  lim.max_files = 3;
  CHECK(has_finding(rig.verify("b", lim), "limit_exceeded", "workspace/notes/plan.md"));
  lim = {};
  lim.max_total_bytes = 100;
  CHECK(has_finding(rig.verify("b", lim), "limit_exceeded", "config.toml"));
  lim = {};
  lim.max_depth = 1;
  CHECK(has_finding(rig.verify("b", lim), "limit_exceeded", "skills/research_tools"));
  lim = {};
  lim.max_name_bytes = 8;
  CHECK(has_finding(rig.verify("b", lim), "limit_exceeded", "config.toml"));
  CHECK(rig.verify("b").ok());  // the control: default limits accept it
}
