// SPDX-License-Identifier: MIT
// Publishing: admission (§8.2), staged_swap and exchange (§8.4), their refusals with the
// upstream wording, rollback of every reported failure, and recover. Each publish-seam test
// of §10.B (45-48) is staged here between admission and publish on fs::memory.
#include "support/test.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace fs = clawport::fs;
namespace pub = clawport::publish;
using mem = fs::memory;
using rig_fs = fs::faulty<fs::memory>;

const std::string kStaging = ".zeroclaw-export-AbC123";
const std::string kParent = "/home/out";

/// The names directly inside `path`, sorted.
std::vector<std::string> children(mem& m, const std::string& path) {
  std::vector<std::string> out;
  auto d = m.open_root(path);
  m.for_each_entry(d, [&](std::string_view n) { out.emplace_back(n); });
  std::sort(out.begin(), out.end());
  return out;
}

/// One parent directory holding a destination and a staged bundle.
struct rig {
  rig_fs fs;
  pub::destination_names names{"out/bundle", kParent + "/bundle"};
  std::vector<fs::file_id> sources;
  rig() { m().mkdirs(kParent); }
  mem& m() { return fs.inner(); }
  void stage(const std::string& content = "new bundle") {
    m().write_file(kParent + "/" + kStaging + "/config.toml", content);
    m().write_file(kParent + "/" + kStaging + "/workspace/notes.md", "notes");
  }
  void old_bundle() {
    m().write_file(kParent + "/bundle/config.toml", "old bundle");
    m().write_file(kParent + "/bundle/leftover.toml", "stale");
    m().write_file(kParent + "/bundle/workspace/notes/gone.md", "gone");
  }
  pub::admitted<rig_fs> admit(bool force) {
    auto parent = fs.open_root(kParent);
    return pub::admit(fs, parent, "bundle", force, names);
  }
  template <class P>
  pub::outcome publish(const pub::admission& adm, bool sync = true) {
    auto parent = fs.open_root(kParent);
    pub::request r;
    r.staging = kStaging;
    r.destination = "bundle";
    r.names = names;
    r.adm = adm;
    r.sources = sources;
    r.sync = sync;
    return P::publish(fs, parent, r);
  }
};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const cp::error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

static_assert(pub::check_policy<pub::staged_swap, fs::memory>());
static_assert(pub::check_policy<pub::exchange, fs::memory>());
static_assert(pub::check_policy<pub::none, fs::faulty<fs::memory>>());

TEST_CASE("the_retired_name_pairs_with_the_staging_directory") {  // §10.B 1
  CHECK(pub::retired_name(".zeroclaw-export-AbC123") == ".zeroclaw-export-old-AbC123");
  CHECK(pub::retired_name("plain") == ".zeroclaw-export-old-plain");
  CHECK(pub::staging_name("AbC123") == ".zeroclaw-export-AbC123");
  CHECK(pub::is_staging_name(".zeroclaw-export-AbC123"));
  CHECK_FALSE(pub::is_staging_name(".zeroclaw-export-old-AbC123"));
  CHECK(pub::is_retired_name(".zeroclaw-export-old-AbC123"));
  CHECK(pub::token_of(".zeroclaw-export-old-AbC123") == "AbC123");
  const std::string t = pub::random_token();
  CHECK(t.size() == 6);
  CHECK(std::all_of(t.begin(), t.end(),
                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }));
}

TEST_CASE("admission classifies the destination and refuses with upstream's wording") {
  rig r;
  SUBCASE("vacant") { CHECK(r.admit(false).adm.kind == pub::admission_kind::vacant); }
  SUBCASE("empty needs no --force") {
    r.m().mkdirs(kParent + "/bundle");
    auto a = r.admit(false);
    CHECK(a.adm.kind == pub::admission_kind::empty);
    CHECK(a.adm.id == r.m().lstat(kParent + "/bundle")->id);
  }
  SUBCASE("non_empty_destination_is_refused_without_force_and_left_alone") {  // §10.B 43
    r.m().write_file(kParent + "/bundle/config.toml", "mine");
    const std::string msg = message_of([&] { r.admit(false); });
    // upstream says "pass --force"; the library names the option for every caller and the
    // CLI adds its flag (issue 44 item 11; tests/cli/export.sh)
    CHECK(msg.find("--force") == std::string::npos);
    CHECK(
        msg ==
        "destination out/bundle is not empty \u2014 replacing its contents needs the force option");
    CHECK(children(r.m(), kParent + "/bundle") == std::vector<std::string>{"config.toml"});
    CHECK(r.m().read_file(kParent + "/bundle/config.toml") == "mine");
    CHECK(r.admit(true).adm.kind == pub::admission_kind::forced);
  }
  SUBCASE("a_file_destination_is_refused") {  // §10.B 55
    r.m().write_file(kParent + "/bundle", "a file");
    const std::string msg = message_of([&] { r.admit(true); });
    CHECK(msg.find("not a directory") != std::string::npos);
    CHECK(r.m().read_file(kParent + "/bundle") == "a file");
  }
  SUBCASE("a symlink destination is refused even with --force") {
    r.m().mkdirs("/elsewhere");
    r.m().symlink(kParent + "/bundle", "/elsewhere");
    const std::string msg = message_of([&] { r.admit(true); });
    CHECK(msg.find("is a symlink") != std::string::npos);
    CHECK(children(r.m(), kParent) == std::vector<std::string>{"bundle"});
  }
  SUBCASE("a directory swapped between stat and open is refused") {
    r.m().write_file(kParent + "/bundle/config.toml", "mine");
    r.fs.before_open([](mem& m, const mem::dir&, std::string_view) {
      m.rename(kParent + "/bundle", kParent + "/moved");
      m.write_file(kParent + "/bundle/config.toml", "impostor");
    });
    const std::string msg = message_of([&] { r.admit(true); });
    CHECK(msg.find("not the directory this export checked") != std::string::npos);
  }
}

TEST_CASE_TEMPLATE("publishing replaces, never merges, and leaves only the bundle", P,
                   pub::staged_swap, pub::exchange) {
  rig r;
  SUBCASE("fresh destination") {
    auto a = r.admit(false);
    r.stage();
    const pub::outcome o = r.template publish<P>(a.adm);
    CHECK(o.guarantee == "atomic");
    CHECK(o.strategy == std::string(P::name));
    CHECK(children(r.m(), kParent) == std::vector<std::string>{"bundle"});
    CHECK(r.m().read_file(kParent + "/bundle/config.toml") == "new bundle");
  }
  SUBCASE("empty destination") {
    r.m().mkdirs(kParent + "/bundle");
    auto a = r.admit(false);
    a.handle.reset();
    r.stage();
    r.template publish<P>(a.adm);
    CHECK(children(r.m(), kParent) == std::vector<std::string>{"bundle"});
    CHECK(r.m().read_file(kParent + "/bundle/config.toml") == "new bundle");
  }
  SUBCASE("force_publishes_a_replacement_rather_than_merging_into_the_old_bundle") {  // §10.B 44
    r.old_bundle();
    auto a = r.admit(true);
    a.handle.reset();
    r.stage();
    const pub::outcome o = r.template publish<P>(a.adm);
    CHECK(o.warnings.empty());
    CHECK(o.guarantee == (std::string(P::name) == "exchange" ? "atomic" : "recoverable"));
    CHECK(children(r.m(), kParent + "/bundle") ==
          std::vector<std::string>{"config.toml", "workspace"});
    CHECK_FALSE(r.m().exists(kParent + "/bundle/workspace/notes"));
    CHECK(children(r.m(), kParent) == std::vector<std::string>{"bundle"});
  }
}

TEST_CASE_TEMPLATE("publish-seam races are refused and the planted object is intact", P,
                   pub::staged_swap, pub::exchange) {
  rig r;
  SUBCASE("a_destination_that_appears_after_admission_is_not_retired") {  // §10.B 45
    auto a = r.admit(false);
    r.stage();
    r.m().write_file(kParent + "/bundle", "planted");
    const std::string msg = message_of([&] { r.template publish<P>(a.adm); });
    CHECK(msg.find("did not exist when the export started") != std::string::npos);
    CHECK(r.m().read_file(kParent + "/bundle") == "planted");
    CHECK(r.m().read_file(kParent + "/" + kStaging + "/config.toml") == "new bundle");
  }
  SUBCASE("an_empty_destination_filled_after_admission_is_not_replaced") {  // §10.B 46
    r.m().mkdirs(kParent + "/bundle");
    auto a = r.admit(false);
    a.handle.reset();
    r.stage();
    r.m().write_file(kParent + "/bundle/new.txt", "arrived");
    const std::string msg = message_of([&] { r.template publish<P>(a.adm); });
    CHECK(msg.find("failed to clear the empty destination") != std::string::npos);
    CHECK(r.m().read_file(kParent + "/bundle/new.txt") == "arrived");
    CHECK(children(r.m(), kParent + "/bundle") == std::vector<std::string>{"new.txt"});
    CHECK(r.m().read_file(kParent + "/" + kStaging + "/config.toml") == "new bundle");
  }
  SUBCASE("a_forced_destination_replaced_after_admission_is_not_retired") {  // §10.B 47
    r.old_bundle();
    auto a = r.admit(true);
    a.handle.reset();
    r.stage();
    r.m().rename(kParent + "/bundle", "/home/moved");
    r.m().write_file(kParent + "/bundle/config.toml", "impostor");
    const std::string msg = message_of([&] { r.template publish<P>(a.adm); });
    CHECK(msg.find("not the directory this export checked") != std::string::npos);
    CHECK(r.m().read_file(kParent + "/bundle/config.toml") == "impostor");
    CHECK(r.m().read_file("/home/moved/config.toml") == "old bundle");
    CHECK_FALSE(r.m().exists(kParent + "/" + pub::retired_name(kStaging)));
  }
  SUBCASE("a_source_tree_moved_onto_the_destination_is_not_retired") {  // §10.B 48
    r.old_bundle();
    r.m().write_file("/home/ws/IDENTITY.md", "me");
    r.sources.push_back(r.m().lstat("/home/ws")->id);
    auto a = r.admit(true);
    a.handle.reset();
    r.stage();
    r.m().remove(kParent + "/bundle");
    r.m().rename("/home/ws", kParent + "/bundle");
    const std::string msg = message_of([&] { r.template publish<P>(a.adm); });
    CHECK(msg.find("one of the trees this export read") != std::string::npos);
    CHECK(r.m().read_file(kParent + "/bundle/IDENTITY.md") == "me");
  }
}

TEST_CASE_TEMPLATE("every failure publishing reports is rolled back", P, pub::staged_swap,
                   pub::exchange) {
  // Each rename_at and the parent fsync fail in turn (ENOSPC and EIO): the previous bundle
  // stays at the destination with its content, the staged tree stays under its own name
  // (the exporter removes it), and nothing else is left beside them.
  for (const bool forced : {true, false}) {
    rig probe;
    if (forced) probe.old_bundle();
    auto pa = probe.admit(forced);
    pa.handle.reset();
    probe.stage();
    probe.fs.reset_counts();
    probe.template publish<P>(pa.adm);
    const std::size_t ops = probe.fs.count();
    REQUIRE(ops > 0);
    for (const int err : {ENOSPC, EIO}) {
      for (std::size_t n = 1; n <= ops; ++n) {
        CAPTURE(forced);
        CAPTURE(err);
        CAPTURE(n);
        rig r;
        if (forced) r.old_bundle();
        auto a = r.admit(forced);
        a.handle.reset();
        r.stage();
        const auto before = r.m().snapshot(kParent);
        r.fs.reset_counts();
        r.fs.fail_at(n, err);
        bool failed = false;
        try {
          const pub::outcome o = r.template publish<P>(a.adm);
          // Only cleanup after the point of no return may fail; it is retried once.
          CHECK(o.warnings.empty());
        } catch (const cp::error& e) {
          failed = true;
          CHECK(e.sys_errno() == err);
          CHECK(std::string(e.what()).find(std::strerror(err)) != std::string::npos);
        }
        if (failed) {
          CHECK(r.m().snapshot(kParent) == before);
        } else {
          CHECK(children(r.m(), kParent) == std::vector<std::string>{"bundle"});
          CHECK(r.m().read_file(kParent + "/bundle/config.toml") == "new bundle");
        }
      }
    }
  }
}

TEST_CASE("exchange falls back to staged_swap where renameat2 is unsupported and says so") {
  rig r;
  r.m().settings().rename2_supported = false;
  r.old_bundle();
  auto a = r.admit(true);
  a.handle.reset();
  r.stage();
  const pub::outcome o = r.publish<pub::exchange>(a.adm);
  CHECK(o.strategy == "swap");
  CHECK(o.requested == "exchange");
  CHECK(o.guarantee == "recoverable");
  CHECK(children(r.m(), kParent) == std::vector<std::string>{"bundle"});
  CHECK(r.m().read_file(kParent + "/bundle/config.toml") == "new bundle");
}

TEST_CASE("the no-sync option skips the parent fsync") {
  rig r;
  auto a = r.admit(false);
  r.stage();
  r.fs.reset_counts();
  r.publish<pub::exchange>(a.adm, /*sync=*/false);
  CHECK(r.fs.count("sync_dir") == 0);
  rig s;
  auto b = s.admit(false);
  s.stage();
  s.fs.reset_counts();
  s.publish<pub::exchange>(b.adm);
  CHECK(s.fs.count("sync_dir") == 1);
}

TEST_CASE("recover restores the documented pair and removes dead staging trees") {
  mem m;
  m.write_file(kParent + "/.zeroclaw-export-old-AbC123/config.toml", "old bundle");
  m.write_file(kParent + "/" + kStaging + "/config.toml", "half");
  auto parent = m.open_root(kParent);
  SUBCASE("the crash pair: destination absent") {
    const cp::recover_report rep = cp::recover(m, parent, "bundle", "out/bundle");
    CHECK(rep.restored);
    CHECK(rep.removed == 1);
    CHECK(children(m, kParent) == std::vector<std::string>{"bundle"});
    CHECK(m.read_file(kParent + "/bundle/config.toml") == "old bundle");
    REQUIRE(rep.actions.size() == 2);
    CHECK(rep.actions[0].find("restored the previous bundle") != std::string::npos);
    CHECK(rep.actions[1].find("removed the incomplete staging tree " + kStaging) !=
          std::string::npos);
  }
  SUBCASE("a staging tree a running export holds is never touched") {
    auto held = m.open_root(kParent + "/" + kStaging);
    REQUIRE(m.try_lock(held));
    const cp::recover_report rep = cp::recover(m, parent, "bundle", "out/bundle");
    CHECK(rep.restored);
    CHECK(rep.busy == 1);
    CHECK(m.read_file(kParent + "/" + kStaging + "/config.toml") == "half");
  }
  SUBCASE("two previous bundles are ambiguous: nothing changes") {
    m.write_file(kParent + "/.zeroclaw-export-old-XyZ789/config.toml", "other");
    const auto before = m.snapshot(kParent);
    const std::string msg = message_of([&] { cp::recover(m, parent, "bundle", "out/bundle"); });
    CHECK(msg.find("cannot tell") != std::string::npos);
    CHECK(m.snapshot(kParent) == before);
  }
  SUBCASE("a present destination keeps its bundle; the retired tree is left alone") {
    m.write_file(kParent + "/bundle/config.toml", "new bundle");
    const cp::recover_report rep = cp::recover(m, parent, "bundle", "out/bundle");
    CHECK_FALSE(rep.restored);
    CHECK(m.read_file(kParent + "/bundle/config.toml") == "new bundle");
    CHECK(m.exists(kParent + "/.zeroclaw-export-old-AbC123"));
    CHECK_FALSE(m.exists(kParent + "/" + kStaging));
  }
}

// ---- issue 22 item 17: one registry of staging names, every family known to recover -------

TEST_CASE("the registry names every staging family the tool creates, and classifies names") {
  const std::vector<std::pair<pub::staging_kind, std::string>> families = {
      {pub::staging_kind::export_bundle, ".zeroclaw-export-AbC123"},
      {pub::staging_kind::claw, ".clawport-claw-AbC123"},
      {pub::staging_kind::skills, ".clawport-stage-AbC123"},
      {pub::staging_kind::convert, ".clawport-convert-AbC123"},
  };
  for (const auto& f : families) {
    CAPTURE(f.second);
    CHECK(pub::staging_name(f.first, "AbC123") == f.second);
    const pub::staging_match m = pub::match_staging(f.second);
    REQUIRE(m.family != nullptr);
    CHECK(m.family->kind == f.first);
    CHECK(m.exact);
    CHECK_FALSE(pub::match_staging(f.second + "4").exact);  // a token of seven
  }
  CHECK(pub::import_staging_name("0123456789ab", "workspace") ==
        ".clawport-import-0123456789ab-workspace");
  CHECK(pub::match_staging(".clawport-import-0123456789ab-workspace").exact);
  CHECK_FALSE(pub::match_staging(".clawport-import-0123456789AB-workspace").exact);
  CHECK_FALSE(pub::match_staging(".clawport-import-0123456789ab-").exact);
  CHECK_FALSE(pub::match_staging(".clawport-import-short-workspace").exact);
  CHECK(pub::match_staging(".zeroclaw-export-old-AbC123").retired);
  CHECK(pub::match_staging("notes.md").family == nullptr);
  CHECK(cp::skills::stage_prefix == pub::family_of(pub::staging_kind::skills).prefix);
  std::vector<std::string> names;
  for (const pub::staging_family& f : pub::staging_families) names.emplace_back(f.name);
  // Issue 23: the temporary files of a replace and of `claw update` are families too.
  CHECK(names == std::vector<std::string>{"export", "import", "claw", "skills", "convert",
                                          "replace", "update"});
}

TEST_CASE("recover removes every family's dead staging tree and names what it left alone") {
  mem m;
  const std::vector<std::string> dead = {".clawport-claw-AbC123", ".clawport-convert-AbC123",
                                         ".clawport-import-0123456789ab-bundle",
                                         ".clawport-stage-AbC123", ".zeroclaw-export-AbC123"};
  const std::vector<std::string> foreign = {".clawport-claw-notes", ".clawport-import-mine",
                                            ".clawport-stage-AbC1234"};
  for (const std::string& n : dead) m.write_file(kParent + "/" + n + "/half", "half");
  for (const std::string& n : foreign) m.write_file(kParent + "/" + n + "/keep", "keep");
  m.write_file(kParent + "/.clawport-stage-XyZ789/running/SKILL.md", "busy");
  m.write_file(kParent + "/bundle/config.toml", "the destination");
  auto held = m.open_root(kParent + "/.clawport-stage-XyZ789");
  REQUIRE(m.try_lock(held));
  auto parent = m.open_root(kParent);
  const cp::recover_report rep = cp::recover(m, parent, "bundle", "out/bundle");
  CHECK(rep.removed == dead.size());
  CHECK(rep.removed_trees == dead);
  CHECK(rep.ignored == foreign);
  CHECK(rep.busy == 1);
  for (const std::string& n : dead) CHECK_FALSE(m.exists(kParent + "/" + n));
  for (const std::string& n : foreign) CHECK(m.read_file(kParent + "/" + n + "/keep") == "keep");
  CHECK(m.read_file(kParent + "/.clawport-stage-XyZ789/running/SKILL.md") == "busy");
  CHECK(m.read_file(kParent + "/bundle/config.toml") == "the destination");
  const auto said = [&](const std::string& text) {
    for (const std::string& a : rep.actions)
      if (a.find(text) != std::string::npos) return true;
    return false;
  };
  CHECK(
      said("removed the incomplete staging tree .clawport-import-0123456789ab-bundle (left "
           "by an import that was killed)"));
  CHECK(said("removed the incomplete staging tree .zeroclaw-export-AbC123"));
  CHECK(said("left .clawport-import-mine alone: not a name an import creates"));
  CHECK(said("left .clawport-stage-XyZ789 alone: a running `clawport skills` holds it"));
  const auto doc = cp::to_json(rep);
  CHECK(doc["removed_trees"].size() == dead.size());
  CHECK(doc["ignored"].size() == foreign.size());
}
