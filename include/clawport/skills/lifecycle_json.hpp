// SPDX-License-Identifier: MIT
// The JSON documents of `skills new|install|remove|restore|test|bundle --json`.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "../formats/json.hpp"
#include "bundle_add.hpp"
#include "bundles.hpp"
#include "install.hpp"
#include "remove.hpp"
#include "restore.hpp"
#include "scaffold.hpp"
#include "test_script.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

inline nlohmann::ordered_json to_json(const scaffold_result& r) {
  nlohmann::ordered_json j;
  j["name"] = r.ref.name;
  j["bundle"] = r.ref.bundle;
  j["directory"] = r.directory;
  j["created"] = r.created;
  j["warnings"] = r.warnings;
  return j;
}

inline nlohmann::ordered_json to_json(const install_result& r,
                                      const std::vector<std::string>& notices = {}) {
  nlohmann::ordered_json j;
  j["name"] = r.name;
  j["bundle"] = json::text_or_null(r.bundle);
  j["directory"] = r.directory;
  j["files_scanned"] = r.files_scanned;
  j["upgraded"] = r.upgraded;
  j["archived_to"] = json::text_or_null(r.archived_to);
  j["files_copied"] = r.tally.files;
  j["bytes_copied"] = r.tally.bytes;
  j["skipped"] = {{"special_files", r.tally.others_skipped},
                  {"hard_links", r.tally.hard_links_skipped},
                  {"changed_during_copy", r.tally.replaced_skipped}};
  std::vector<std::string> w = notices;
  w.insert(w.end(), r.warnings.begin(), r.warnings.end());
  j["warnings"] = w;
  return j;
}

inline nlohmann::ordered_json to_json(const bundle_add_result& r) {
  using t = bundle_add_result;
  return json::object_of<nlohmann::ordered_json>(
      r, json::field("alias", &t::alias), json::field("created", &t::created),
      json::field("directory", &t::directory),
      json::field("backup", [](const t& x) { return json::text_or_null(x.backup); }),
      json::field("warnings", &t::warnings));
}

inline nlohmann::ordered_json to_json(const remove_result& r) {
  using t = remove_result;
  return json::object_of<nlohmann::ordered_json>(
      r, json::field("name", &t::name),
      json::field("bundle", [](const t& x) { return json::text_or_null(x.bundle); }),
      json::field("directory", &t::directory),
      json::field("action",
                  [](const t& x) { return x.archived_to.empty() ? "deleted" : "archived"; }),
      json::field("archived_to", [](const t& x) { return json::text_or_null(x.archived_to); }),
      json::field("warnings", &t::warnings));
}

inline nlohmann::ordered_json to_json(const restore_result& r) {
  using t = restore_result;
  return json::object_of<nlohmann::ordered_json>(
      r, json::field("name", &t::name), json::field("bundle", &t::bundle),
      json::field("directory", &t::directory), json::field("restored_from", &t::restored_from),
      json::field("other_archives", &t::other_archives));
}

inline nlohmann::ordered_json to_json(const std::vector<bundle_entry>& bundles) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const bundle_entry& b : bundles) {
    list.push_back({{"alias", b.alias},
                    {"directory", b.directory},
                    {"exists", b.exists},
                    {"skills", b.skills},
                    {"agents", b.agents}});
  }
  return {{"bundles", std::move(list)}};
}

inline nlohmann::ordered_json to_json(const bundle_remove_result& r) {
  nlohmann::ordered_json j;
  j["alias"] = r.alias;
  j["removed"] = true;
  j["directory"] = r.directory;
  j["backup"] = r.backup;
  j["skills_left"] = r.skills_left;
  return j;
}

inline nlohmann::ordered_json to_json(const std::vector<skill_test_result>& results,
                                      const std::vector<std::string>& skipped = {}) {
  nlohmann::ordered_json skills = nlohmann::ordered_json::array();
  for (const skill_test_result& r : results) {
    nlohmann::ordered_json s;
    s["name"] = r.skill_name;
    s["directory"] = r.directory;
    s["tests_run"] = r.tests_run;
    s["tests_passed"] = r.tests_passed;
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    for (const test_failure& f : r.failures) {
      failures.push_back({{"command", f.command},
                          {"line", f.line},
                          {"expected_exit", f.expected_exit},
                          {"actual_exit", f.actual_exit},
                          {"expected_pattern", f.expected_pattern},
                          {"actual_output", truncate_output(f.actual_output)},
                          {"timed_out", f.timed_out}});
    }
    s["failures"] = std::move(failures);
    skills.push_back(std::move(s));
  }
  const test_totals t = aggregate(results);
  nlohmann::ordered_json j;
  j["skills"] = std::move(skills);
  j["skipped"] = skipped;
  j["totals"] = {
      {"skills", t.skills}, {"run", t.run}, {"passed", t.passed}, {"failed", t.failed()}};
  return j;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
