// SPDX-License-Identifier: MIT
// Issue 25, `--jobs`: an export, a verify and a staged copy on several threads give the
// bundle, the digest list, the report, the JSON and the first error of one thread. On
// fs::memory (behind fs::faulty, which serializes the calls) and on the real filesystem.
#include "harness.hpp"  // the umbrella headers (the ASan suite builds against single_include/)

#include <cerrno>
#include <string>
#include <vector>

using clawport::testing::harness;
using clawport::testing::memory_rig;
using clawport::testing::posix_rig;
namespace cp = clawport;

namespace {

/// A workspace of many files in nested directories, with entries the copy skips (a link,
/// a second name) and a skill bundle.
template <class Rig>
void install(harness<Rig>& h) {
  h.with_skill_bundle();
  for (int d = 0; d < 6; ++d) {
    for (int i = 0; i < 12; ++i) {
      const std::string rel = "notes/d" + std::to_string(d) + "/n" + std::to_string(i) + ".md";
      h.write(h.ws + "/" + rel, std::string(static_cast<std::size_t>(i * 300 + d), 'a' + d));
    }
  }
  h.write(h.ws + "/big.bin", std::string(200000, 'z'));
  h.write(h.ws + "/notes/linked.md", "two names");
  h.hardlink(h.ws + "/notes/linked.md", h.ws + "/notes/linked-again.md");
  h.symlink(h.ws + "/notes/link.md", "d0/n0.md");
  h.write(h.skills_dir + "/web_search/SKILL.md", "# web search");
  h.write(h.skills_dir + "/web_search/run.sh", "#!/bin/sh\n", 0755);
}

template <class Rig>
cp::export_result run_with(harness<Rig>& h, unsigned jobs) {
  cp::export_options o = h.opts();
  o.jobs = jobs;
  return h.run(o);
}

/// Fails every open of a file named `a.md` or `c.md` (EIO), whichever thread opens it.
template <class Rig>
void fail_opens(harness<Rig>& h) {
  h.fsys().before_open([](auto&, const auto&, std::string_view name) {
    if (name == "a.md" || name == "c.md") throw cp::fs::sys_error("open_file_at", name, EIO);
  });
}

/// `text` with the rig's temporary root named `<root>` (two posix rigs differ there).
template <class Rig>
std::string rooted(harness<Rig>& h, std::string text) {
  const std::string root = h.root_path();
  for (std::size_t at = text.find(root); at != std::string::npos; at = text.find(root, at))
    text.replace(at, root.size(), "<root>");
  return text;
}

template <class Rig>
std::string verify_json(harness<Rig>& h, unsigned jobs, const cp::verify::limits& lim = {}) {
  const cp::verify::report r = cp::verify::verify_bundle(h.fsys(), h.path("out/bundle"), lim, jobs);
  return cp::json::dump(cp::verify::to_json(r)) + cp::verify::render_report(r);
}

}  // namespace

TEST_CASE_TEMPLATE("issue 25: an export with jobs is the export of one thread", Rig, memory_rig,
                   posix_rig) {
  harness<Rig> one;
  install(one);
  const cp::export_result r1 = run_with(one, 1);
  for (const unsigned jobs : {2u, 4u}) {
    CAPTURE(jobs);
    harness<Rig> many;
    install(many);
    const cp::export_result rn = run_with(many, jobs);
    CHECK(rooted(many, cp::render_json(rn)) == rooted(one, cp::render_json(r1)));
    CHECK(rooted(many, cp::render_report(rn)) == rooted(one, cp::render_report(r1)));
    CHECK(many.bundle_files() == one.bundle_files());
    CHECK(many.snapshot("out/bundle") == one.snapshot("out/bundle"));
  }
  CHECK(r1.workspace.hard_links == 2);
  CHECK(r1.workspace.symlinks == 1);
}

TEST_CASE_TEMPLATE("issue 25: with jobs, the first failing file in walk order is reported", Rig,
                   memory_rig, posix_rig) {
  std::vector<std::string> errors;
  for (const unsigned jobs : {1u, 4u}) {
    harness<Rig> h;
    install(h);
    h.write(h.ws + "/notes/d2/a.md", "first");
    h.write(h.ws + "/notes/d4/c.md", "second");
    const auto before = h.snapshot("out");
    fail_opens(h);
    try {
      run_with(h, jobs);
      FAIL("the export survived a file it could not open");
    } catch (const cp::error& e) {
      errors.push_back(rooted(h, e.what()));
      CHECK(e.sys_errno() == EIO);
    }
    CHECK(h.snapshot("out") == before);  // nothing published, nothing left beside
  }
  REQUIRE(errors.size() == 2);
  CHECK(errors[1] == errors[0]);
}

TEST_CASE_TEMPLATE("issue 25: verify with jobs reports what one thread reports", Rig, memory_rig,
                   posix_rig) {
  harness<Rig> h;
  install(h);
  run_with(h, 1);
  const std::string clean = verify_json(h, 1);
  CHECK(verify_json(h, 4) == clean);
  // Findings of every kind, in walk order: unlisted, changed bytes, a link, a second name,
  // unreadable files, and the limits that end the walk.
  h.write("out/bundle/workspace/notes/d1/extra.md", "unlisted");
  h.write("out/bundle/workspace/notes/d3/n5.md", "changed bytes");
  h.symlink("out/bundle/workspace/notes/link.md", "d0/n0.md");
  h.hardlink("out/bundle/workspace/notes/d0/n1.md", "out/bundle/workspace/notes/second.md");
  h.write("out/bundle/workspace/notes/d2/a.md", "first");
  h.write("out/bundle/workspace/notes/d5/c.md", "second");
  fail_opens(h);
  const std::string tampered = verify_json(h, 1);
  CHECK(tampered != clean);
  CHECK(verify_json(h, 2) == tampered);
  CHECK(verify_json(h, 4) == tampered);
  for (const std::uint64_t max_files : {10u, 40u, 79u}) {
    CAPTURE(max_files);
    cp::verify::limits lim;
    lim.max_files = max_files;
    CHECK(verify_json(h, 4, lim) == verify_json(h, 1, lim));
  }
  cp::verify::limits bytes;
  bytes.max_total_bytes = 150000;
  CHECK(verify_json(h, 4, bytes) == verify_json(h, 1, bytes));
}

TEST_CASE_TEMPLATE("issue 25: the staged copy with jobs refuses what one thread refuses", Rig,
                   memory_rig, posix_rig) {
  harness<Rig> h;
  install(h);
  run_with(h, 1);
  const cp::verify::report rep = cp::verify::verify_bundle_files(h.fsys(), h.path("out/bundle"));
  REQUIRE(rep.ok());
  h.write("out/bundle/workspace/notes/d3/n5.md", "changed after it was verified");
  h.write("out/bundle/workspace/notes/d4/n2.md", "changed too");
  std::vector<std::string> errors;
  for (const unsigned jobs : {1u, 4u}) {
    auto root = h.fsys().open_root(h.path("out/bundle"));
    cp::fs::discarding_sink<typename Rig::backend> sink{h.fsys()};
    try {
      cp::importer::copy_verified(h.fsys(), sink, root, "workspace", {}, rep.files, 0, jobs);
      FAIL("the copy took bytes that were not verified");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::identity_changed);
      errors.push_back(e.what());
    }
  }
  REQUIRE(errors.size() == 2);
  CHECK(errors[1] == errors[0]);
  CHECK(errors[0].find("notes/d3/n5.md") != std::string::npos);
}

// Review B2: a disk full while the workspace's digest lines are spilled (more than one buffer
// of them) failed inside the copy of a file with one job, blaming that file, and in the
// merge with more: both now fail the same way, naming the digest list.
TEST_CASE("issue 25: a digest list that cannot be spilled fails alike for every job count") {
  std::vector<std::string> messages;
  for (const unsigned jobs : {1u, 3u}) {
    CAPTURE(jobs);
    harness<memory_rig> h;
    install(h);
    // ~100 bytes a line: more than CLAWPORT_COPY_BUFFER_SIZE (64 KiB) of lines.
    for (int i = 0; i < 1200; ++i)
      h.write(h.ws + "/many/f" + std::to_string(10000 + i) + ".md", "");
    const auto before = h.snapshot("out");
    h.fsys().on_op([](auto&, std::string_view op, std::string_view name) {
      if (op == "create_file_at" && name == ".zeroclaw-agent.sha256.workspace")
        throw cp::fs::sys_error("create_file_at", name, ENOSPC);
    });
    try {
      run_with(h, jobs);
      FAIL("the export survived a full disk");
    } catch (const cp::error& e) {
      messages.push_back(rooted(h, e.what()));
      CHECK(e.subject() == "zeroclaw-agent.sha256");
      CHECK(e.sys_errno() == ENOSPC);
    }
    CHECK(h.snapshot("out") == before);
  }
  REQUIRE(messages.size() == 2);
  CHECK(messages[1] == messages[0]);
}
