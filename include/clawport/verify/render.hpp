// SPDX-License-Identifier: MIT
// The verify report as text (the CLI prints it) and as the `--json` document.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>

#include "../core/text.hpp"
#include "../formats/json.hpp"
#include "verify.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

template <class J = nlohmann::json>  // always; instantiated where rendered (issue 48)
J to_json(const finding& f) {
  return {{"code", f.code},
          {"path", f.path},
          {"detail", f.detail},
          {"severity", f.warning ? "warning" : "error"}};
}

/// `clawport verify --json`: every finding, errors and warnings, in discovery order.
template <class J = nlohmann::json>  // always; instantiated where rendered (issue 48)
J to_json(const report& r) {
  J j;
  j["bundle"] = r.bundle;
  j["ok"] = r.ok();
  j["authenticated"] = r.authenticated;
  j["root_agent"] = r.root_agent;
  j["files"] = r.file_count;
  j["bytes"] = r.total_bytes;
  j["manifest_sha256"] = r.manifest_sha256.empty() ? "" : digest::prefixed(r.manifest_sha256);
  // `signed`: a signature file is there; `signed_by`: whom check_signature accepted (null
  // when none was checked or it was refused).
  j["signed"] = r.signature_present();
  j["signed_by"] = json::text_or_null<J>(r.signed_by);
  j["findings"] = J::array();
  for (const finding& f : r.findings) j["findings"].push_back(to_json(f));
  if (r.memory) {  // format 2 only: without memory the document is what it was
    j["format_version"] = r.format_version;
    j["memory"] = {{"entries", r.memory->entries},
                   {"categories", r.memory->categories},
                   {"backend", r.memory->backend},
                   {"embedding_model", r.memory->embedding_model}};
  }
  return j;
}

/// The error of a bundle that does not verify, as `verify --json` names it: its first
/// error finding (its own code for a limit or a signature finding, else bundle_invalid),
/// the finding's path as the subject (`bundle`, as the user named it, when it has none).
/// Importing refuses with `report::first_error`, which names the bundle in the message.
inline error document_error(const report& r, const std::string& bundle) {
  for (const finding& f : r.findings)
    if (!f.warning)
      return error(report::code_of(f.code),
                   "the bundle does not verify: " + f.path + ": " + f.detail,
                   f.path.empty() ? bundle : f.path);
  return error(errc::bundle_invalid, "the bundle does not verify", bundle);
}

/// The `verify --json` document: `to_json(r)`, the bundle as the user named it, and, when
/// it does not verify, `error` of the one shape (`document_error`).
template <class J = nlohmann::json>  // always; instantiated where rendered (issue 48)
J to_json_document(const report& r, const std::string& bundle) {
  J j = to_json(r);
  j["bundle"] = bundle;
  if (!r.ok()) j["error"] = json::error_document(document_error(r, bundle))["error"];
  return j;
}

/// The human report: one summary line, then one line per finding, every line through the
/// one terminal-safe renderer (core/text.hpp), so a file named with CR and ESC cannot
/// repaint the verdict.
inline std::string render_report(const report& r) {
  text::terminal_lines line;
  if (r.ok()) {
    // the sizes count every file of the bundle (config, manifest, lists, workspace, skills)
    const std::string sizes = "agent `" + r.root_agent + "`, " + std::to_string(r.file_count) +
                              " file(s) in all, " + std::to_string((r.total_bytes + 1023) / 1024) +
                              " KiB in all";
    // Without a digest list nothing vouches for the bytes: the first word says so.
    if (r.authenticated)
      line("verified " + r.bundle + ": " + sizes + ", every byte matches its digest list");
    else
      line("checked " + r.bundle + " (no digest list: layout, manifest, closure and secrets " +
           "checked, its bytes unauthenticated): " + sizes);
  } else {
    line(r.bundle + " does not verify: " + std::to_string(r.errors()) + " problem(s)");
  }
  for (const finding& f : r.findings) {
    line(std::string(f.warning ? "  warning " : "  error ") + f.code + " " + f.path + ": " +
         f.detail);
  }
  if (r.memory) {
    std::string cats;
    for (const auto& [name, n] : r.memory->categories)
      cats += (cats.empty() ? " (" : ", ") + name + " " + std::to_string(n);
    line("\u26a0\ufe0f  memory travels (format 2): " +
         text::counted(r.memory->entries, "memory", "memories") + " of `" + r.root_agent + "`" +
         (cats.empty() ? "" : cats + ")") +
         " in memory/entries.jsonl; they may hold personal data of another install's user");
  }
  if (!r.signed_by.empty()) line("signed by `" + r.signed_by + "` (an allowed signer)");
  if (!r.manifest_sha256.empty()) line("manifest sha256:" + r.manifest_sha256);
  return std::move(line.text);
}

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
