// SPDX-License-Identifier: MIT
// `import` against hostile or half-made targets: a reuse that lends a credential, linked
// agents/ or shared/, a killed import's leftovers and its re-run, fault sweeps over every
// operation (with jobs too), and directories put back or never replaced.
#include "importer/rig.hpp"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

TEST_CASE("issue 22 item 9: a reuse that lends the target's credential is a capability grant") {
  import_rig r;
  const auto p = r.plan(r.opts("/src/config.toml"));  // the install it came from: key set
  REQUIRE(change(p, "model_provider", "anthropic.main")->action == "reuse");
  REQUIRE(change(p, "risk_profile", "guarded")->action == "reuse");
  std::vector<const cp::verify::finding*> grants;
  for (const auto& f : p.risk_flags)
    if (f.code == "reuses_credential") grants.push_back(&f);
  REQUIRE(grants.size() == 1);  // the risk profile holds no credential
  CHECK(grants[0]->path == "providers.models.anthropic.main");
  CHECK(grants[0]->detail.find("api_key") != std::string::npos);
  CHECK(grants[0]->detail.find("sk-ant") == std::string::npos);  // never the secret itself
  const std::string text = im::render_plan(p);
  CHECK(text.find("capability grant(s) to accept") != std::string::npos);
  CHECK(text.find("reuses_credential providers.models.anthropic.main") != std::string::npos);
  bool in_json = false;
  const auto doc = im::to_json(p);
  for (const auto& f : doc["risk_flags"])
    in_json |= f["kind"] == "reuses_credential" && f["path"] == "providers.models.anthropic.main";
  CHECK(in_json);
  // The integrity covers every grant: a plan showing fewer grants hashes differently.
  auto fewer = p;
  fewer.risk_flags.clear();
  CHECK(im::detail::canonical(fewer) != im::detail::canonical(p));
  // A target entry without a credential lends none.
  import_rig blank(
      "schema_version = 3\n\n[providers.models.anthropic.main]\nmodel = "
      "\"claude-opus-5\"\n");
  const auto q = blank.plan(blank.opts());
  CHECK(change(q, "model_provider", "anthropic.main")->action == "reuse");
  for (const auto& f : q.risk_flags) CHECK(f.code != "reuses_credential");
}

namespace {

/// A target whose agent `other` has its workspace at `path` (not created).
std::string other_agent(const std::string& path) {
  return "schema_version = 3\n\n[providers.models.openai.other]\nmodel = \"gpt\"\n\n"
         "[risk_profiles.calm]\n\n[agents.other]\nmodel_provider = \"openai.other\"\n"
         "risk_profile = \"calm\"\n\n[agents.other.workspace]\n"
         "path = \"" +
         path + "\"\n";
}

}  // namespace

TEST_CASE(
    "issue 22 item 11: another agent's configured workspace counts as taken, created or not") {
  for (const std::string& path :
       {std::string("agents/researcher/workspace"), std::string("/dst/agents/researcher/workspace"),
        std::string("/dst/agents/researcher"), std::string("agents/researcher/workspace/inner")}) {
    CAPTURE(path);
    import_rig r(other_agent(path));
    const auto p = r.plan(r.opts());
    CHECK(p.alias == "researcher_imported");
    REQUIRE_FALSE(p.placements.empty());
    CHECK(p.placements[0].to == "agents/researcher_imported/workspace");
    auto as = r.opts();
    as.as = "researcher";
    const auto snap = r.m().snapshot("/dst");
    CHECK(r.refusal(as, cp::errc::destination_refused).find("assigns to another agent") !=
          std::string::npos);
    CHECK(r.m().snapshot("/dst") == snap);
  }
  // A skill bundle's configured directory too.
  import_rig r(
      "schema_version = 3\n\n[skill_bundles.mine]\ndirectory = "
      "\"shared/skills/research_tools\"\n");
  const auto p = r.plan(r.opts());
  CHECK(change(p, "skill_bundle", "research_tools")->to == "research_tools_imported");
}

TEST_CASE("issue 22 item 14: a linked or file agents/ or shared/ is refused, the search bounded") {
  struct layout {
    const char* what;
    std::function<void(cp::fs::memory&)> make;
    const char* names;
  };
  const std::vector<layout> layouts = {
      {"agents/ a symlink",
       [](cp::fs::memory& m) {
         m.mkdirs("/elsewhere");
         m.symlink("/dst/agents", "/elsewhere");
       },
       "/dst/agents is a symlink"},
      {"agents/ a file", [](cp::fs::memory& m) { m.write_file("/dst/agents", "x"); },
       "/dst/agents is not a directory"},
      {"shared/ a symlink",
       [](cp::fs::memory& m) {
         m.mkdirs("/elsewhere");
         m.symlink("/dst/shared", "/elsewhere");
       },
       "/dst/shared is a symlink"},
      {"shared/skills a file", [](cp::fs::memory& m) { m.write_file("/dst/shared/skills", "x"); },
       "/dst/shared/skills is not a directory"},
  };
  for (const layout& l : layouts) {
    CAPTURE(l.what);
    import_rig r;
    l.make(r.m());
    const auto snap = r.m().snapshot("/");
    try {
      r.plan(r.opts());  // the dry run plans exactly this
      FAIL("planned through a link or a file");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::unsafe_path);
      CHECK(std::string(e.what()).find(l.names) != std::string::npos);
    }
    CHECK(r.m().snapshot("/") == snap);
  }
  // Every search for a free name ends: a target where every candidate is taken.
  import_rig r(other_agent("agents"));
  try {
    r.plan(r.opts());
    FAIL("the search did not end");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::limit_exceeded);
    CHECK(std::string(e.what()).find("no free name for the agent `researcher`") !=
          std::string::npos);
  }
}

TEST_CASE("issue 22 item 17: a re-run of a killed import recognises its own leftovers") {
  import_rig r;
  const auto o = r.opts();
  const auto p = r.plan(o);
  const std::string token = p.plan_integrity.substr(7, 12);
  // What kill -9 during the copy leaves: half-copied staging trees beside both places.
  const std::string ws = "/dst/agents/researcher/.clawport-import-" + token + "-workspace";
  const std::string sk = "/dst/shared/skills/.clawport-import-" + token + "-research_tools";
  r.m().write_file(ws + "/IDENTITY.md", "# resea");
  r.m().write_file(sk + "/web_search/SKILL.md", "");
  CHECK(r.plan(o).plan_integrity == p.plan_integrity);  // leftovers do not change the plan
  im::apply_options a;
  a.sync = false;
  const auto res = im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
  // In the order the trees are staged: their bundle paths' (skills/ before workspace/).
  CHECK(res.recovered ==
        std::vector<std::string>{"shared/skills/.clawport-import-" + token + "-research_tools",
                                 "agents/researcher/.clawport-import-" + token + "-workspace"});
  CHECK(r.m().read_file("/dst/agents/researcher/workspace/IDENTITY.md") == "# researcher\n");
  for (const auto& e : r.m().snapshot("/dst"))
    CHECK(e.first.find(".clawport-import-") == std::string::npos);
  CHECK(im::render_result(res).find("left by an earlier run of this plan that was killed") !=
        std::string::npos);

  // A staging directory another run of this plan holds locked is never touched.
  import_rig busy;
  busy.m().write_file(ws + "/IDENTITY.md", "# resea");
  auto parent = busy.m().open_root("/dst/agents/researcher");
  auto held = busy.m().open_dir_at(parent, ".clawport-import-" + token + "-workspace");
  REQUIRE(busy.m().try_lock(held));
  const auto snap = busy.m().snapshot("/dst");
  try {
    im::apply_import(busy.f, o, cp::plan::consented_to(p.plan_integrity), a);
    FAIL("worked in a staging directory another run holds");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::destination_refused);
    CHECK(std::string(e.what()).find("another import of this plan is running") !=
          std::string::npos);
  }
  CHECK(busy.m().snapshot("/dst") == snap);
}

TEST_CASE("issue 22 item 17: fault sweep of a re-run that removes a killed run's leftovers") {
  std::size_t total = 0;
  std::string integrity;
  std::string left;
  const auto with_leftover = [&](import_rig& r) {
    r.m().write_file(left + "/IDENTITY.md", "# resea");
    r.m().write_file(left + "/notes/plan.md", "");
  };
  {
    import_rig r;
    integrity = r.plan(r.opts()).plan_integrity;
    left = "/dst/agents/researcher/.clawport-import-" + integrity.substr(7, 12) + "-workspace";
    with_leftover(r);
    r.f.reset_counts();
    im::apply_options a;
    a.sync = false;
    CHECK(im::apply_import(r.f, r.opts(), cp::plan::consented_to(integrity), a).recovered.size() ==
          1);
    total = r.f.count();
  }
  for (std::size_t n = 1; n <= total; ++n) {
    CAPTURE(n);
    import_rig r;
    with_leftover(r);
    auto snap = r.m().snapshot("/dst");
    r.f.reset_counts();
    r.f.fail_at(n, EIO);
    im::apply_options a;
    a.sync = false;
    try {
      im::apply_import(r.f, r.opts(), cp::plan::consented_to(integrity), a);
      continue;
    } catch (const cp::error&) {
    }
    // Failed: the install as it was, but for the leftover, which may be gone.
    auto after = r.m().snapshot("/dst");
    const std::string rel = left.substr(5);  // below /dst
    for (auto* m : {&snap, &after})
      for (auto it = m->begin(); it != m->end();)
        it = it->first.rfind(rel, 0) == 0 ? m->erase(it) : std::next(it);
    CHECK(after == snap);
  }
}

/// The import fault sweep of a bundle with `notes` more files, copied on `jobs` threads (on
/// several, the points `swept` picks).
void import_sweep(unsigned jobs, std::size_t notes) {
  CAPTURE(jobs);
  const auto opts = [jobs](import_rig& r) {
    auto o = r.opts();
    o.jobs = jobs;
    return o;
  };
  std::size_t total = 0;
  std::string integrity;
  {
    import_rig r("schema_version = 3\n", {}, kSource, notes);
    integrity = r.plan(opts(r)).plan_integrity;
    r.f.reset_counts();
    im::apply_options a;
    a.sync = false;
    im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
    total = r.f.count();
  }
  REQUIRE(total > 20);
  for (int err : {ENOSPC, EIO}) {
    for (std::size_t n = 1; n <= total; ++n) {
      if (!cp::testing::swept(n, jobs)) continue;
      CAPTURE(err);
      CAPTURE(n);
      import_rig r("schema_version = 3\n", {}, kSource, notes);
      const auto snap = r.m().snapshot("/dst");
      r.f.reset_counts();
      r.f.fail_at(n, err);
      im::apply_options a;
      a.sync = false;
      bool failed = false;
      try {
        im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
      } catch (const cp::error&) {
        failed = true;
      }
      if (failed) CHECK(r.m().snapshot("/dst") == snap);
    }
  }
  // A crash after each operation: the config is the old bytes or the whole new file, and
  // with the old config, removing the leftovers the docs name restores the install.
  for (std::size_t n = 0; n < total; ++n) {
    if (!cp::testing::swept(n, jobs)) continue;
    CAPTURE(n);
    import_rig r("schema_version = 3\n", {}, kSource, notes);
    const auto snap = r.m().snapshot("/dst");
    r.f.reset_counts();
    r.f.crash_after(n);
    im::apply_options a;
    a.sync = false;
    try {
      im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
    } catch (...) {
    }
    const std::string config = r.m().read_file("/dst/config.toml");
    if (config == "schema_version = 3\n") {
      for (const auto& e : r.m().snapshot("/dst")) {
        const std::string& path = e.first;
        const bool leftover = path.find(".clawport-import-") != std::string::npos ||
                              path.find(".config.toml.tmp-") != std::string::npos ||
                              path.find("config.toml.bak-") != std::string::npos ||
                              path.rfind("agents", 0) == 0 || path.rfind("shared", 0) == 0;
        if (!snap.count(path)) CHECK(leftover);
      }
    } else {
      CHECK(config.find("[agents.researcher]") != std::string::npos);
    }
    // Item 17: the same command, run again, recognises what the killed run left: it
    // applies, or (trees already published) refuses the changed plan; never "File exists".
    r.f.clear_crash();
    try {
      im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
      for (const auto& e : r.m().snapshot("/dst"))
        CHECK(e.first.find(".clawport-import-") == std::string::npos);
    } catch (const cp::error& e) {
      CAPTURE(e.what());
      CHECK(e.code() == cp::errc::plan_integrity_mismatch);  // the plan changed: plan/'s refusal
    }
  }
}

TEST_CASE("import fault sweep: every operation failing (ENOSPC, EIO) or crashing") {
  import_sweep(1, 0);
}

TEST_CASE("issue 25: import fault sweep with jobs: the copies on 3 threads fail cleanly too") {
  import_sweep(3, 12);
}

TEST_CASE("issue 25: an import with jobs is the import of one thread") {
  // Plan (text, JSON, integrity), result (text, JSON) and the installed tree of N threads
  // are those of one.
  struct outcome {
    std::string plan_json, plan_text, integrity, result_json, result_text;
    std::map<std::string, std::string> installed;  ///< memory::snapshot: with the bytes
  };
  const auto run = [](unsigned jobs) {
    import_rig r("schema_version = 3\n", {}, kSource, 40);
    auto o = r.opts();
    o.jobs = jobs;
    const auto p = r.plan(o);
    im::apply_options a;
    a.sync = false;
    const auto res = im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
    return outcome{im::to_json(p).dump(),   im::render_plan(p),     p.plan_integrity,
                   im::to_json(res).dump(), im::render_result(res), r.m().snapshot("/dst")};
  };
  const outcome one = run(1);
  CHECK(one.installed.size() > 40);
  for (const unsigned jobs : {2u, 4u}) {
    CAPTURE(jobs);
    const outcome many = run(jobs);
    CHECK(many.plan_json == one.plan_json);
    CHECK(many.plan_text == one.plan_text);
    CHECK(many.integrity == one.integrity);
    CHECK(many.result_json == one.result_json);
    CHECK(many.result_text == one.result_text);
    CHECK(many.installed == one.installed);
  }
}

TEST_CASE("issue 23: an empty directory an import replaced is put back with its own mode") {
  // The undo journal restores what the import removed as it was: the old rollback of a
  // published tree made the empty directory again with 0755.
  import_rig r;
  r.m().mkdirs("/dst/agents/researcher/workspace", 0700);
  const auto o = r.opts();
  const auto p = r.plan(o);
  const auto snap = r.m().snapshot("/dst");
  im::apply_options a;
  a.sync = false;
  a.before_config = [] { throw cp::error(cp::errc::io, "injected", "config.toml"); };
  CHECK_THROWS_AS(im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a), cp::error);
  CHECK(r.m().snapshot("/dst") == snap);
  REQUIRE(r.m().lstat("/dst/agents/researcher/workspace"));
  CHECK(r.m().lstat("/dst/agents/researcher/workspace")->mode == 0700);
}

TEST_CASE("issue 23: a directory appearing at a place before it is published is never replaced") {
  // Without renameat2 the publish probes before its plain rename (publish::rename_noreplace):
  // the old import renamed over an empty directory that appeared after staging.
  cp::fs::memory::options mo;
  mo.rename2_supported = false;
  import_rig r("schema_version = 3\n", mo);
  const auto o = r.opts();
  const auto p = r.plan(o);
  r.f.on_op([](cp::fs::memory& m, std::string_view op, std::string_view name) {
    const std::string_view tail = "-> workspace";
    if (op == "rename_at" && name.size() > tail.size() &&
        name.substr(name.size() - tail.size()) == tail)
      m.mkdirs("/dst/agents/researcher/workspace");
  });
  im::apply_options a;
  a.sync = false;
  try {
    im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
    FAIL("published over a directory that appeared");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::destination_refused);
    CHECK(std::string(e.what()) ==
          "agents/researcher/workspace appeared since the import was planned; nothing was "
          "written");
  }
  CHECK(r.m().read_file("/dst/config.toml") == "schema_version = 3\n");
  CHECK(r.m().snapshot("/dst/agents/researcher") ==
        std::map<std::string, std::string>{{"workspace", "d"}});
  CHECK_FALSE(r.m().exists("/dst/shared"));
}
