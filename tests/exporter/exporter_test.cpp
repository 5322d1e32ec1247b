// SPDX-License-Identifier: MIT
// The export end to end through basic_exporter: every test of zeroclaw-bundle.md §10.B
// (named after the upstream test), each run on fs::memory and on the real filesystem.
// Races are staged at the seam upstream used: "entry seam" = between classifying an entry
// and opening it (fs::faulty's before_open), "root seam" = the same while opening a source
// root, "publish seam" = after staging, before publishing (export_options::before_publish).
#include "harness.hpp"

#include <string>
#include <vector>

using clawport::testing::children;
using clawport::testing::harness;
using clawport::testing::memory_rig;
using clawport::testing::posix_rig;
using clawport::testing::running_as_root;
namespace cp = clawport;
using strings = std::vector<std::string>;

namespace {
bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}
template <class H>
bool dropped_has(const cp::export_result& r, const std::string& path, const std::string& reason) {
  for (const auto& d : r.plan.dropped) {
    if (d.path == path && cp::zeroclaw::to_string(d.reason) == reason) return true;
  }
  return false;
}
bool has_flag(const cp::export_result& r, const std::string& kind) {
  for (const auto& f : r.plan.risk_flags) {
    if (cp::zeroclaw::to_string(f.kind) == kind) return true;
  }
  return false;
}
}  // namespace

#define RIGS memory_rig, posix_rig

TEST_CASE_TEMPLATE("copy_skips_the_memory_store", R, RIGS) {  // §10.B 2
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write(h.ws + "/notes/plan.md", "plan");
  h.write(h.ws + "/memory/brain.db", "db");
  const auto r = h.run();
  CHECK(r.workspace.files == 2);
  CHECK_FALSE(h.exists("out/bundle/workspace/memory"));
  CHECK(h.read("out/bundle/workspace/notes/plan.md") == "plan");
}

TEST_CASE_TEMPLATE("no_database_reaches_the_published_bundle", R, RIGS) {  // §10.B 3
  harness<R> h;
  const std::string magic("SQLite format 3\0home address", 28);
  h.write(h.ws + "/IDENTITY.md", "# me");
  for (const char* f : {"brain.db", "brain.db-wal", "brain.db-shm"}) {
    h.write(h.ws + "/memory/" + f, magic);
  }
  h.write(h.ws + "/MEMORY_SNAPSHOT.md", "my home address is secret");
  const auto r = h.run();
  CHECK(r.workspace.files == 1);
  CHECK_FALSE(h.exists("out/bundle/workspace/memory"));
  CHECK_FALSE(h.exists("out/bundle/workspace/MEMORY_SNAPSHOT.md"));
  for (const auto& f : h.bundle_files()) {
    CHECK(f.second.rfind(std::string("SQLite format 3\0", 16), 0) != 0);
    CHECK_FALSE(has(f.second, "home address"));
  }
}

TEST_CASE_TEMPLATE("copy_counts_special_files_it_skips", R, RIGS) {  // §10.B 4 (a FIFO)
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.fifo(h.ws + "/pipe");
  const auto r = h.run();
  CHECK(r.workspace.files == 1);
  CHECK(r.workspace.special == 1);
  CHECK(r.workspace.symlinks == 0);
  CHECK_FALSE(h.exists("out/bundle/workspace/pipe"));
}

TEST_CASE_TEMPLATE("copy_skips_symlinks_instead_of_following_them_out_of_the_workspace", R,
                   RIGS) {  // §10.B 5
  harness<R> h;
  h.write("outside.txt", "host secret");
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.symlink(h.ws + "/link.txt", h.path("outside.txt"));
  const auto r = h.run();
  CHECK(r.workspace.files == 1);
  CHECK(r.workspace.symlinks == 1);
  CHECK_FALSE(h.exists("out/bundle/workspace/link.txt"));
  CHECK_FALSE(h.bundle_contains("host secret"));
}

TEST_CASE_TEMPLATE("missing_workspace_is_not_an_error", R, RIGS) {  // §10.B 6
  harness<R> h;
  h.mkdir("install/agents");
  const auto r = h.run();
  CHECK(r.workspace.files == 0);
  CHECK(r.workspace.bytes == 0);
  CHECK(r.workspace.symlinks + r.workspace.special + r.workspace.hard_links +
            r.workspace.replaced ==
        0);
  CHECK_FALSE(h.exists("out/bundle/workspace"));
  CHECK(h.exists("out/bundle/config.toml"));
}

template <class H>
void skill_layout(H& h) {
  h.with_skill_bundle();
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write(h.skills_dir + "/web_search/SKILL.md", "# web search");
  h.write(h.skills_dir + "/web_search/run.sh", "#!/bin/sh\n", 0755);
  h.write(h.skills_dir + "/internal_only/SKILL.md", "internal runbook");
  h.write(h.skills_dir + "/.sync-marker", "x");
}

TEST_CASE_TEMPLATE("skill_bundle_content_travels_next_to_the_workspace", R, RIGS) {  // §10.B 7
  harness<R> h;
  skill_layout(h);
  const auto r = h.run();
  CHECK(r.skill_bundles == 1);
  CHECK(r.skills.files == 2);
  CHECK(children(h, "out/bundle/skills/research_tools") == strings{"web_search"});
  CHECK_FALSE(h.bundle_contains("internal runbook"));
  // §10.B 13 a_carried_skill_bundle_is_advertised_and_present
  CHECK(cp::zeroclaw::manifest_skill_bundles(r.plan) == strings{"research_tools"});
  CHECK(h.exists("out/bundle/skills/research_tools/web_search/SKILL.md"));
  CHECK(has_flag(r, "carried_skills"));
  CHECK(has(h.read("out/bundle/zeroclaw-agent.toml"), "research_tools"));
  // §10.B 15 copy_preserves_the_executable_bit
  CHECK((h.mode("out/bundle/skills/research_tools/web_search/run.sh") & 0111) == 0111);
}

TEST_CASE_TEMPLATE("a_destination_overlapping_a_skill_bundle_is_refused", R, RIGS) {  // §10.B 8
  harness<R> h;
  skill_layout(h);
  const auto before = h.snapshot("install/shared");
  CHECK(has(h.refusal(h.opts(true, h.skills_dir + "/exports/bundle")), "inside skill bundle"));
  CHECK(has(h.refusal(h.opts(true, h.skills_dir)), "contains skill bundle"));
  CHECK(h.snapshot("install/shared") == before);
}

TEST_CASE_TEMPLATE("a_skill_bundle_with_no_content_is_recorded_in_the_manifest_not_advertised", R,
                   RIGS) {  // §10.B 9
  harness<R> h;
  h.with_skill_bundle();
  h.mkdir("install/shared");
  const auto r = h.run();
  CHECK(r.skill_bundles == 0);
  CHECK_FALSE(h.exists("out/bundle/skills"));
  CHECK(cp::zeroclaw::manifest_skill_bundles(r.plan).empty());
  CHECK_FALSE(has_flag(r, "carried_skills"));
  CHECK(dropped_has<R>(r, "skills/research_tools", "source_missing"));
  CHECK(has(h.read("out/bundle/zeroclaw-agent.toml"), "skill_bundles = []"));
}

TEST_CASE_TEMPLATE("a_skill_whose_entries_are_all_skipped_is_not_advertised", R,
                   RIGS) {  // §10.B 10
  harness<R> h;
  h.with_skill_bundle();
  h.write("elsewhere/SKILL.md", "x");
  h.mkdir(h.skills_dir + "/web_search");
  h.symlink(h.skills_dir + "/web_search/SKILL.md", h.path("elsewhere/SKILL.md"));
  const auto r = h.run();
  CHECK(r.skills.files == 0);
  CHECK(r.skill_bundles == 0);
  CHECK_FALSE(h.exists("out/bundle/skills"));
  CHECK(cp::zeroclaw::manifest_skill_bundles(r.plan).empty());
  CHECK_FALSE(has_flag(r, "carried_skills"));
  CHECK(dropped_has<R>(r, "skills/research_tools", "source_missing"));
}

TEST_CASE_TEMPLATE("a_traversing_skill_alias_writes_nothing_outside_the_staging_tree", R,
                   RIGS) {  // §10.B 11
  // The grammar keeps such an alias from being planned at all, and the closure naming it
  // does not validate, so the export fails having written nothing at either level.
  harness<R> h;
  h.config += "skill_bundles = [\"../../outside\"]\n\n[skill_bundles.\"../../outside\"]\n";
  h.write("install/shared/skills/research_tools/web_search/SKILL.md", "x");
  h.refusal();
  CHECK_FALSE(h.exists("outside"));
  CHECK_FALSE(h.exists("out/outside"));
  CHECK(children(h, "out").empty());
}

TEST_CASE_TEMPLATE("an_empty_skill_bundle_is_not_advertised_and_leaves_no_tree", R,
                   RIGS) {  // §10.B 12
  harness<R> h;
  h.with_skill_bundle();
  h.write(h.skills_dir + "/internal_only/SKILL.md", "internal runbook");
  const auto r = h.run();
  CHECK(r.skill_bundles == 0);
  CHECK_FALSE(h.exists("out/bundle/skills"));
  CHECK(cp::zeroclaw::manifest_skill_bundles(r.plan).empty());
  CHECK(dropped_has<R>(r, "skills/research_tools", "source_missing"));
}

TEST_CASE_TEMPLATE("a_symlinked_skill_is_skipped_rather_than_followed", R, RIGS) {  // §10.B 14
  harness<R> h;
  h.with_skill_bundle();
  h.write(h.skills_dir + "/web_search/SKILL.md", "# web search");
  h.write("elsewhere/borrowed/SKILL.md", "borrowed");
  h.symlink(h.skills_dir + "/borrowed", h.path("elsewhere/borrowed"));
  const auto r = h.run();
  CHECK(r.skills.files == 1);
  CHECK(r.skills.symlinks == 1);
  CHECK_FALSE(h.exists("out/bundle/skills/research_tools/borrowed"));
}

TEST_CASE_TEMPLATE("a_file_replaced_by_an_escaping_symlink_mid_copy_is_not_followed", R,
                   RIGS) {  // §10.B 16 (entry seam)
  harness<R> h;
  h.write("outside.txt", "host secret");
  h.write(h.ws + "/notes.md", "notes");
  h.once_before_open("notes.md", h.id_of(h.ws), [&] {
    h.remove(h.ws + "/notes.md");
    h.symlink(h.ws + "/notes.md", h.path("outside.txt"));
  });
  CHECK(has(h.refusal(), "workspace/notes.md"));
  CHECK_FALSE(h.exists("out/bundle"));
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("identity documents: dropped when the copy did not carry them, kept when it did",
                   R, RIGS) {
  harness<R> h;
  h.with_identity("identity/aieos.json");
  h.write(h.ws + "/IDENTITY.md", "# me");
  SUBCASE("an_identity_document_the_copy_did_not_carry_is_dropped") {  // §10.B 17
    const auto r = h.run();
    CHECK_FALSE(has(h.read("out/bundle/config.toml"), "aieos.json"));
    CHECK_FALSE(r.plan.identity_document.has_value());
    CHECK(dropped_has<R>(r, "agents.researcher.identity.aieos_path", "source_missing"));
  }
  SUBCASE("an_identity_document_the_copy_carried_is_kept") {  // §10.B 18
    h.write(h.ws + "/identity/aieos.json", "{}");
    const auto r = h.run();
    CHECK(has(h.read("out/bundle/config.toml"), "identity/aieos.json"));
    CHECK(h.exists("out/bundle/workspace/identity/aieos.json"));
    CHECK(r.plan.identity_document.has_value());
  }
}

TEST_CASE_TEMPLATE("source roots reached through symlinks are refused", R, RIGS) {
  harness<R> h;
  SUBCASE("a_skill_root_reached_through_a_symlinked_ancestor_is_refused") {  // §10.B 19
    h.with_skill_bundle();
    h.write("outside/research_tools/web_search/SKILL.md", "outside content");
    h.mkdir("install/shared");
    h.symlink("install/shared/skills", h.path("outside"));
    CHECK(has(h.refusal(), "symlink"));
    CHECK(h.read("outside/research_tools/web_search/SKILL.md") == "outside content");
  }
  SUBCASE("a_skill_root_redirected_inside_the_install_is_refused") {  // §10.B 20
    h.with_skill_bundle();
    h.write("install/private-skills/research_tools/web_search/SKILL.md", "private");
    h.mkdir("install/shared");
    h.symlink("install/shared/skills", h.path("install/private-skills"));
    CHECK(has(h.refusal(), "symlink"));
  }
  SUBCASE("a_workspace_reached_through_a_symlinked_ancestor_is_refused") {  // §10.B 21
    h.write("host/researcher/workspace/IDENTITY.md", "host content");
    h.mkdir("install");
    h.symlink("install/agents", h.path("host"));
    CHECK(has(h.refusal(), "symlink"));
    CHECK(h.read("host/researcher/workspace/IDENTITY.md") == "host content");
  }
  SUBCASE("a_default_workspace_redirected_inside_the_install_is_refused") {  // §10.B 22
    h.write("install/elsewhere/researcher/workspace/IDENTITY.md", "x");
    h.symlink("install/agents", h.path("install/elsewhere"));
    CHECK(has(h.refusal(), "symlink"));
  }
  SUBCASE("a_symlinked_workspace_root_is_refused") {  // §10.B 34
    h.write("outside/IDENTITY.md", "outside content");
    h.mkdir("home");
    h.symlink("home/workspace", h.path("outside"));
    h.with_configured_workspace(h.path("home/workspace"));
    CHECK(has(h.refusal(), "is a symlink"));
    CHECK(h.read("outside/IDENTITY.md") == "outside content");
  }
  SUBCASE("a_symlinked_skill_bundle_root_is_refused") {  // §10.B 35
    h.with_skill_bundle();
    h.write("install/shared/pool/web_search/SKILL.md", "x");
    h.mkdir("install/shared/skills");
    h.symlink(h.skills_dir, h.path("install/shared/pool"));
    CHECK(has(h.refusal(), "symlink"));
  }
  CHECK_FALSE(h.exists("out/bundle"));
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("source roots replaced mid-walk fail the export", R, RIGS) {  // root seam
  harness<R> h;
  SUBCASE("a_workspace_ancestor_replaced_mid_walk_fails_the_export") {  // §10.B 23
    h.write(h.ws + "/IDENTITY.md", "# me");
    h.write("outside/researcher/workspace/IDENTITY.md", "outside content");
    h.once_before_open("agents", h.id_of("install"), [&] {
      h.rename("install/agents", "install/agents-away");
      h.symlink("install/agents", h.path("outside"));
    });
    CHECK(has(h.refusal(), "failed to open"));
    CHECK(h.read("outside/researcher/workspace/IDENTITY.md") == "outside content");
  }
  SUBCASE("a_skill_ancestor_replaced_mid_walk_fails_the_export") {  // §10.B 24
    skill_layout(h);
    h.write("outside/research_tools/web_search/SKILL.md", "outside content");
    h.once_before_open("skills", h.id_of("install/shared"), [&] {
      h.rename("install/shared/skills", "install/shared/away");
      h.symlink("install/shared/skills", h.path("outside"));
    });
    CHECK(has(h.refusal(), "failed to open"));
  }
  SUBCASE("a_walk_component_replaced_by_another_directory_fails_the_export") {  // §10.B 26
    skill_layout(h);
    h.write("install/shared/other/research_tools/web_search/SKILL.md", "other");
    h.once_before_open("skills", h.id_of("install/shared"), [&] {
      h.rename("install/shared/skills", "install/shared/away");
      h.rename("install/shared/other", "install/shared/skills");
    });
    CHECK(has(h.refusal(), "replaced"));
  }
  SUBCASE("a_configured_workspace_swapped_for_a_link_mid_open_fails_the_export") {  // §10.B 27
    h.write("home/workspace/IDENTITY.md", "# me");
    h.write("outside/IDENTITY.md", "outside content");
    h.with_configured_workspace(h.path("home/workspace"));
    h.once_before_open("workspace", h.id_of("home"), [&] {
      h.rename("home/workspace", "home/away");
      h.symlink("home/workspace", h.path("outside"));
    });
    CHECK(has(h.refusal(), "failed to open"));
    CHECK(h.read("outside/IDENTITY.md") == "outside content");
  }
  CHECK_FALSE(h.exists("out/bundle"));
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("unreadable sources fail the export instead of publishing", R, RIGS) {
  if (running_as_root()) {
    MESSAGE("skipped: running as root, which reads mode-000 directories");
    return;
  }
  harness<R> h;
  SUBCASE("an_unreadable_workspace_ancestor_fails_the_export_instead_of_publishing") {  // 25
    h.write(h.ws + "/IDENTITY.md", "# me");
    h.chmod("install/agents", 0);
    const std::string msg = h.refusal();
    h.chmod("install/agents", 0755);
    CHECK(has(msg, "agents"));
  }
  SUBCASE("an_unreadable_configured_workspace_parent_fails_the_export") {  // §10.B 33
    h.write("holder/workspace/IDENTITY.md", "# me");
    h.with_configured_workspace(h.path("holder/workspace"));
    h.chmod("holder", 0);
    const std::string msg = h.refusal();
    h.chmod("holder", 0755);
    CHECK((has(msg, "holder") || has(msg, "workspace")));
  }
  SUBCASE("a_failed_export_removes_its_staging_and_leaves_the_previous_bundle") {  // §10.B 50
    h.write(h.ws + "/IDENTITY.md", "# me");
    h.write(h.ws + "/locked.md", "locked", 0);
    h.write("out/bundle/config.toml", "old bundle");
    const std::string msg = h.refusal(true);
    CHECK(has(msg, "workspace/locked.md"));
    CHECK(children(h, "out/bundle") == strings{"config.toml"});
    CHECK(h.read("out/bundle/config.toml") == "old bundle");
  }
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("paths through missing parents and bad workspace paths are refused", R, RIGS) {
  harness<R> h;
  SUBCASE("a_destination_through_a_missing_parent_dir_is_refused") {  // §10.B 28
    h.write("home/workspace/IDENTITY.md", "# me");
    h.with_configured_workspace(h.path("home/workspace"));
    auto o = h.opts(true, "home/missing/../workspace");
    CHECK(has(h.refusal(o), ".."));
    CHECK_FALSE(h.exists("home/missing"));
    CHECK(children(h, "home") == strings{"workspace"});
    CHECK(h.read("home/workspace/IDENTITY.md") == "# me");
  }
  SUBCASE("a_configured_workspace_through_a_missing_parent_is_refused") {  // §10.B 31
    h.mkdir("home");
    h.with_configured_workspace(h.path("home/missing/../workspace"));
    CHECK(has(h.refusal(), ".."));
    CHECK_FALSE(h.exists("home/missing"));
  }
  SUBCASE("a_configured_workspace_path_ending_in_parent_dir_is_refused") {  // §10.B 32
    h.mkdir("home/workspace/inner");
    h.with_configured_workspace(h.path("home/workspace/inner/.."));
    CHECK(has(h.refusal(), "plain directory name"));
  }
  SUBCASE("a_file_where_the_workspace_should_be_fails_the_export") {  // §10.B 30
    h.write(h.ws, "a file");
    CHECK(has(h.refusal(), "not a directory"));
  }
  CHECK_FALSE(h.exists("out/bundle"));
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("entries replaced mid-copy are skipped, never followed", R, RIGS) {
  harness<R> h;
  h.write("host.txt", "host bytes");
  SUBCASE("a_skill_replaced_by_an_excluded_sibling_directory_is_not_copied") {  // §10.B 29
    skill_layout(h);
    h.once_before_open("web_search", h.id_of(h.skills_dir), [&] {
      h.rename(h.skills_dir + "/web_search", h.skills_dir + "/away");
      h.rename(h.skills_dir + "/internal_only", h.skills_dir + "/web_search");
    });
    const auto r = h.run();
    CHECK(r.skills.replaced == 1);
    CHECK_FALSE(h.bundle_contains("internal runbook"));
  }
  SUBCASE("a_file_renamed_over_an_admitted_entry_is_not_copied") {  // §10.B 36
    h.write(h.ws + "/notes.md", "notes");
    h.once_before_open("notes.md", h.id_of(h.ws),
                       [&] { h.rename("host.txt", h.ws + "/notes.md"); });
    const auto r = h.run();
    CHECK(r.workspace.replaced == 1);
    CHECK(r.workspace.files == 0);
    CHECK_FALSE(h.bundle_contains("host bytes"));
  }
  SUBCASE("a_skill_file_renamed_over_an_admitted_entry_is_not_copied") {  // §10.B 37
    skill_layout(h);
    h.write(h.skills_dir + "/web_search/notes.md", "skill notes");
    h.once_before_open("notes.md", h.id_of(h.skills_dir + "/web_search"),
                       [&] { h.rename("host.txt", h.skills_dir + "/web_search/notes.md"); });
    const auto r = h.run();
    CHECK(r.skills.replaced == 1);
    CHECK_FALSE(h.bundle_contains("host bytes"));
  }
  SUBCASE("a_file_replaced_by_a_hard_link_to_a_host_file_is_not_copied") {  // §10.B 38
    h.write(h.ws + "/notes.md", "notes");
    h.once_before_open("notes.md", h.id_of(h.ws), [&] {
      h.remove(h.ws + "/notes.md");
      h.hardlink("host.txt", h.ws + "/notes.md");
    });
    const auto r = h.run();
    CHECK(r.workspace.hard_links == 1);
    CHECK(r.workspace.files == 0);
    CHECK_FALSE(h.exists("out/bundle/workspace/notes.md"));
    CHECK_FALSE(h.bundle_contains("host bytes"));
  }
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("entries swapped for symlinks mid-copy fail the export", R, RIGS) {
  harness<R> h;
  h.write("outside/secret.md", "host bytes");
  std::string expected;
  SUBCASE("a_file_replaced_by_an_in_root_symlink_to_memory_is_not_followed") {  // §10.B 39
    h.write(h.ws + "/notes.md", "notes");
    h.write(h.ws + "/memory/brain.db", "private memory");
    h.once_before_open("notes.md", h.id_of(h.ws), [&] {
      h.remove(h.ws + "/notes.md");
      h.symlink(h.ws + "/notes.md", "memory/brain.db");
    });
    expected = "workspace/notes.md";
  }
  SUBCASE("a_skill_replaced_by_a_symlink_to_an_excluded_sibling_is_not_followed") {  // §10.B 40
    skill_layout(h);
    h.once_before_open("web_search", h.id_of(h.skills_dir), [&] {
      h.rename(h.skills_dir + "/web_search", h.skills_dir + "/away");
      h.symlink(h.skills_dir + "/web_search", "internal_only");
    });
    expected = "skills/research_tools/web_search";
  }
  SUBCASE("a_directory_replaced_by_an_escaping_symlink_mid_copy_is_not_followed") {  // §10.B 41
    h.write(h.ws + "/notes/plan.md", "plan");
    h.once_before_open("notes", h.id_of(h.ws), [&] {
      h.rename(h.ws + "/notes", h.ws + "/away");
      h.symlink(h.ws + "/notes", h.path("outside"));
    });
    expected = "workspace/notes";
  }
  CHECK(has(h.refusal(), expected));
  CHECK_FALSE(h.exists("out/bundle"));
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("publishing a fresh, a non-empty and a forced destination", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  SUBCASE("export_writes_the_whole_bundle_to_a_fresh_destination") {  // §10.B 42
    const auto r = h.run();
    CHECK(r.workspace.files == 1);
    CHECK(h.exists("out/bundle/config.toml"));
    CHECK(h.exists("out/bundle/zeroclaw-agent.toml"));
    CHECK(h.exists("out/bundle/workspace/IDENTITY.md"));
    CHECK(r.publish.guarantee == "atomic");
    CHECK_FALSE(h.bundle_contains("sk-ant-realkey"));
  }
  SUBCASE("non_empty_destination_is_refused_without_force_and_left_alone") {  // §10.B 43
    h.write("out/bundle/config.toml", "mine");
    CHECK(has(h.refusal(), "force option"));  // the library names no CLI flag (issue 44 item 11)
    CHECK(children(h, "out/bundle") == strings{"config.toml"});
    CHECK(h.read("out/bundle/config.toml") == "mine");
  }
  SUBCASE("force_publishes_a_replacement_rather_than_merging_into_the_old_bundle") {  // 44
    h.write("out/bundle/config.toml", "stale");
    h.write("out/bundle/leftover.toml", "stale");
    h.write("out/bundle/workspace/notes/gone.md", "gone");
    h.run(true);
    CHECK(children(h, "out/bundle") ==
          strings{"config.toml", "workspace", "zeroclaw-agent.sha256", "zeroclaw-agent.toml"});
    CHECK_FALSE(h.exists("out/bundle/workspace/notes"));
    CHECK(has(h.read("out/bundle/config.toml"), "agent bundle"));
  }
  SUBCASE("the same with the upstream swap") {
    h.write("out/bundle/config.toml", "stale");
    const auto r = h.template run<cp::publish::staged_swap>(true);
    CHECK(r.publish.strategy == "swap");
    CHECK(r.publish.guarantee == "recoverable");
    CHECK(children(h, "out/bundle") ==
          strings{"config.toml", "workspace", "zeroclaw-agent.sha256", "zeroclaw-agent.toml"});
  }
  CHECK(children(h, "out") == strings{"bundle"});
}

TEST_CASE_TEMPLATE("publish-seam races are refused end to end", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  auto o = h.opts();
  SUBCASE("a_destination_that_appears_after_admission_is_not_retired") {  // §10.B 45
    o.before_publish = [&] { h.write("out/bundle", "planted"); };
    CHECK(has(h.refusal(o), "did not exist when the export started"));
    CHECK(h.read("out/bundle") == "planted");
  }
  SUBCASE("an_empty_destination_filled_after_admission_is_not_replaced") {  // §10.B 46
    h.mkdir("out/bundle");
    o.before_publish = [&] { h.write("out/bundle/new.txt", "arrived"); };
    CHECK(has(h.refusal(o), "failed to clear the empty destination"));
    CHECK(h.read("out/bundle/new.txt") == "arrived");
  }
  SUBCASE("a_forced_destination_replaced_after_admission_is_not_retired") {  // §10.B 47
    h.write("out/bundle/config.toml", "old");
    o.force = true;
    o.before_publish = [&] {
      h.rename("out/bundle", "moved");
      h.write("out/bundle/config.toml", "impostor");
    };
    CHECK(has(h.refusal(o), "not the directory this export checked"));
    CHECK(h.read("out/bundle/config.toml") == "impostor");
    CHECK(h.read("moved/config.toml") == "old");
  }
  SUBCASE("a_source_tree_moved_onto_the_destination_is_not_retired") {  // §10.B 48
    h.write("out/bundle/config.toml", "old");
    o.force = true;
    o.before_publish = [&] {
      h.remove("out/bundle");
      h.rename(h.ws, "out/bundle");
    };
    CHECK(has(h.refusal(o), "one of the trees this export read"));
    CHECK(h.read("out/bundle/IDENTITY.md") == "# me");
  }
  CHECK(h.parent_clean());
}

TEST_CASE_TEMPLATE("a_replaced_parent_cannot_redirect_the_publish", R, RIGS) {  // §10.B 49
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  auto o = h.opts();
  o.before_publish = [&] {
    h.rename("out", "moved");
    h.mkdir("out");
  };
  h.run(o);
  CHECK(h.exists("moved/bundle/zeroclaw-agent.toml"));
  CHECK(children(h, "out").empty());
}

TEST_CASE_TEMPLATE("destinations overlapping the workspace are refused before anything is written",
                   R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  SUBCASE("destination_inside_the_workspace_is_refused_before_anything_is_written") {  // 51
    CHECK(has(h.refusal(h.opts(false, h.ws + "/exports/bundle")), "inside the agent workspace"));
    CHECK(children(h, h.ws) == strings{"IDENTITY.md"});
  }
  SUBCASE("destination_containing_the_workspace_is_refused_before_anything_is_written") {  // 52
    CHECK(has(h.refusal(h.opts(true, "install")), "contains the agent workspace"));
    CHECK(children(h, "install") == strings{"agents", "config.toml"});
    CHECK(h.read(h.ws + "/IDENTITY.md") == "# me");
  }
  SUBCASE("destination_equal_to_the_workspace_is_refused") {  // §10.B 53
    CHECK(has(h.refusal(h.opts(true, h.ws)), "contains the agent workspace"));
    CHECK(h.read(h.ws + "/IDENTITY.md") == "# me");
  }
  SUBCASE("a_symlinked_destination_cannot_hide_an_overlap") {  // §10.B 54
    h.symlink("link", h.path(h.ws));
    CHECK(has(h.refusal(h.opts(false, "link/bundle")), "inside the agent workspace"));
    CHECK(children(h, h.ws) == strings{"IDENTITY.md"});
  }
}

TEST_CASE_TEMPLATE("a_file_destination_is_refused", R, RIGS) {  // §10.B 55
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write("out/bundle", "a file");
  CHECK(has(h.refusal(true), "not a directory"));
  CHECK(h.read("out/bundle") == "a file");
}

TEST_CASE_TEMPLATE("a dry run checks and counts everything and writes nothing", R, RIGS) {
  harness<R> h;
  skill_layout(h);
  h.write(h.ws + "/notes/plan.md", "plan");
  h.write(h.ws + "/memory/brain.db", "db");
  h.write("install/config.toml", h.config);
  const auto before = h.snapshot();
  const auto dry = h.template run<cp::publish::none>(false);
  CHECK(h.snapshot() == before);
  CHECK(dry.dry_run);
  CHECK(dry.publish.guarantee == "none");
  const auto real = h.run();
  CHECK(dry.workspace.files == real.workspace.files);
  CHECK(dry.workspace.bytes == real.workspace.bytes);
  CHECK(dry.skills.files == real.skills.files);
  CHECK(dry.skill_bundles == real.skill_bundles);
  CHECK(dry.plan.required_secrets == real.plan.required_secrets);
  CHECK(dry.plan.dropped == real.plan.dropped);
  // and refuses what the export would refuse
  CHECK(has(h.template refusal<cp::publish::none>(false), "force option"));
}

TEST_CASE_TEMPLATE("the staging directory is locked for the whole run and named by the token", R,
                   RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  auto o = h.opts();
  bool checked = false;
  o.before_publish = [&] {
    CHECK(h.exists("out/.zeroclaw-export-AbC123/zeroclaw-agent.toml"));
    // recover, run now, must leave a staging directory a running export holds alone
    auto& f = h.fsys().inner();
    const cp::recover_report rep = cp::recover_path(f, h.path("out/bundle"), "out/bundle");
    CHECK(rep.busy == 1);
    CHECK(h.exists("out/.zeroclaw-export-AbC123"));
    checked = true;
  };
  h.run(o);
  CHECK(checked);
  CHECK(children(h, "out") == strings{"bundle"});
}

TEST_CASE_TEMPLATE("the digest list names every other bundle file, sorted, with its SHA-256", R,
                   RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write(h.ws + "/notes/plan.md", std::string(300000, 'p'));  // several copy buffers
  h.write(h.ws + "/Zeta.md", "upper case sorts first");
  h.run();
  auto files = h.bundle_files();
  REQUIRE(files.count("zeroclaw-agent.sha256") == 1);
  const std::string list = files["zeroclaw-agent.sha256"];
  files.erase("zeroclaw-agent.sha256");
  std::string expected;
  for (const auto& f : files) {  // std::map: bytewise order, as the list must be
    expected += cp::digest::sha256_hex(f.second) + "  " + f.first + "\n";
  }
  CHECK(list == expected);
  CHECK(files.count("config.toml") == 1);
  CHECK(files.count("zeroclaw-agent.toml") == 1);
  CHECK(files.count("workspace/notes/plan.md") == 1);
  const auto parsed = cp::digest::parse_list(list, "zeroclaw-agent.sha256");
  CHECK(parsed.size() == files.size());
}

// Issue 44 item 1: replacing a bundle, the caller is told the new one is published while
// the previous one is still beside it (its removal can take minutes), with the result it
// will get; whole seconds in exported_at (surprise 11).
TEST_CASE_TEMPLATE("on_published runs before the previous bundle is removed", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.run();
  auto o = h.opts(true);
  o.exported_at = cp::timestamp{1786493040, 123456789};
  std::vector<strings> beside;
  std::string told_strategy, told_guarantee;
  std::vector<std::uint64_t> removed;  // the removal's count (the CLI's progress line)
  o.on_removing = [&](std::uint64_t n) {
    CHECK(beside.size() == 1);  // after the report, never before
    removed.push_back(n);
  };
  o.on_published = [&](const cp::export_result& r) {
    beside.push_back(children(h, "out"));
    told_strategy = r.publish.strategy;
    told_guarantee = r.publish.guarantee;
    CHECK(h.exists("out/bundle/zeroclaw-agent.toml"));
  };
  SUBCASE("exchange") {
    const auto r = h.template run<cp::publish::exchange>(o);
    CHECK(told_guarantee == r.publish.guarantee);
  }
  SUBCASE("swap") {
    const auto r = h.template run<cp::publish::staged_swap>(o);
    CHECK(told_strategy == "swap");
    CHECK(told_guarantee == "recoverable");
    CHECK(r.exported_at == "2026-08-12T00:04:00+00:00");
  }
  REQUIRE(beside.size() == 1);
  CHECK(beside[0].size() == 2);  // the new bundle and the previous one, not yet removed
  CHECK(children(h, "out") == strings{"bundle"});
  // bundle, config.toml, manifest, digest list, workspace, IDENTITY.md at least, each once
  REQUIRE(removed.size() >= 6);
  for (std::size_t i = 0; i < removed.size(); ++i) CHECK(removed[i] == i + 1);
  CHECK(
      has(h.read("out/bundle/zeroclaw-agent.toml"), "exported_at = \"2026-08-12T00:04:00+00:00\""));
}
