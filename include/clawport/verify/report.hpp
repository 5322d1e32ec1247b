// SPDX-License-Identifier: MIT
// What a verify returns: its limits, findings and report, apart from the walk so that the
// compiled mode's declarations (compiled/api.hpp) can name them without the whole library.
#pragma once

#include "../bundle/layout.hpp"
#include "../bundle/limits.hpp"
#include "../core/error.hpp"
#include "../memory/entry.hpp"
#include "../zeroclaw/document.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

/// Bounds on what a verify reads (docs/cli.md, "verify limits"): the bundle's one
/// definition, which the exporter writes within. Exceeding one is a `limit_exceeded`
/// finding; the walk stops there, so nothing unbounded is read.
using limits = bundle::limits;

/// One problem (or, with `warning`, one caveat) found in a bundle. `code` is one of the
/// stable finding codes of docs/cli.md; `path` is bundle-relative or a config field.
struct finding {
  std::string code;
  std::string path;
  std::string detail;
  bool warning = false;
};

/// A regular file of the bundle, as read and hashed.
struct bundle_file {
  std::string path;  ///< bundle-relative, '/'-separated
  std::uint64_t size = 0;
  std::string sha256;  ///< 64 hex digits
};

/// Everything `verify_bundle` learnt. `ok()` is true when no finding is an error.
struct report {
  std::string bundle;             ///< the path as given
  std::vector<finding> findings;  ///< in discovery order
  bool authenticated = false;     ///< a digest list was present and matched exactly
  /// Sorted by path. Every file when the caller asked for them (verify_bundle_files:
  /// convert, an import of a bundle without a digest list); otherwise only the files at the
  /// bundle's root and directly below skills/, so a verify holds its findings, not the
  /// bundle (the rest is checked as the walk meets it).
  std::vector<bundle_file> files;
  /// Sorted, bundle-relative; like `files`, all of them or only the root's and skills/'s.
  std::vector<std::string> directories;
  std::uint64_t file_count = 0;  ///< the regular files verified (all, kept or not)
  std::uint64_t total_bytes = 0;
  /// The bytes of some files were left unread (verify_bundle_deferring): their digests are
  /// the digest list's, to be checked by whoever reads them next.
  bool bytes_deferred = false;
  // The parsed content (meaningful when the corresponding file parsed).
  std::string manifest_text;
  std::string config_text;
  std::string manifest_sha256;  ///< digest of zeroclaw-agent.toml's bytes
  /// zeroclaw-agent.sha256's bytes (what a signature signs), kept when the bundle carries
  /// a signature file (or the list, not in path order, was joined from its text).
  std::string digest_list_text;
  /// The digest of the digest list's lines (`<sha256>␠␠<path>\n`, digest::append_line) in
  /// path order, when the list was in path order and matched the bundle exactly (else
  /// empty): what an import's plan carries instead of the files (importer/file_stream.hpp).
  std::string list_stream_sha256;
  std::string signature_text;  ///< zeroclaw-agent.sha256.sig's bytes, when present
  /// memory/entries.jsonl (format 2) as checked while the walk read it, line by line: never
  /// its bytes (an import reads them again from the bundle, against their digest).
  std::optional<memory::jsonl_check> memory_check;
  int format_version = 0;  ///< the manifest's, once read (1, or 2 with memory)
  /// What memory travels (format 2, `[memory]` and memory/entries.jsonl checked): counts,
  /// categories, the source's backend and embedding model; never the text.
  std::optional<memory::summary> memory;
  /// The principal whose signature check_signature accepted; empty when none was checked.
  std::string signed_by;
  zeroclaw::value manifest = zeroclaw::value::make_table();
  zeroclaw::value closure = zeroclaw::value::make_table();
  std::string root_agent;
  std::vector<std::string> required_secrets;
  std::vector<std::string> skill_bundles;
  std::vector<finding> risk_flags;  ///< the manifest's risk_flags: {kind, path, detail}
  std::vector<finding> dropped;     ///< the manifest's dropped: {reason, path, detail}
  /// Host-local settings the closure carries (exporter's notes, planned again from the
  /// closure: {kind, path, detail}); format 1 has no manifest key for them.
  std::vector<finding> host_local;

  bool ok() const {
    return std::none_of(findings.begin(), findings.end(),
                        [](const finding& f) { return !f.warning; });
  }
  std::size_t errors() const {
    return static_cast<std::size_t>(std::count_if(findings.begin(), findings.end(),
                                                  [](const finding& f) { return !f.warning; }));
  }
  const bundle_file* file(std::string_view path) const {
    for (const bundle_file& f : files)
      if (f.path == path) return &f;
    return nullptr;
  }
  /// The bundle carries a signature file (checked or not: see `signed_by`).
  bool signature_present() const { return file(bundle::signature_file) != nullptr; }
  bool has_directory(std::string_view path) const {
    return std::find(directories.begin(), directories.end(), path) != directories.end();
  }
  /// Strict mode (`verify --strict`, `import --strict`): a bundle whose bytes no digest list
  /// authenticates is refused, its `unauthenticated` warning made an error.
  void require_authenticated() {
    for (finding& f : findings)
      if (f.code == "unauthenticated") f.warning = false;
  }
  /// The errc of a finding: its own for a limit or a signature finding, else bundle_invalid.
  static errc code_of(std::string_view finding_code) {
    for (const errc c :
         {errc::limit_exceeded, errc::not_signed, errc::signature_invalid, errc::signer_untrusted})
      if (to_string(c) == finding_code) return c;
    return errc::bundle_invalid;
  }
  /// The first error as a clawport::error (errc::bundle_invalid; limit_exceeded, unsigned,
  /// signature_invalid or signer_untrusted for those findings).
  error first_error() const {
    for (const finding& f : findings) {
      if (f.warning) continue;
      return error(code_of(f.code),
                   "the bundle " + bundle + " does not verify: " + f.path + ": " + f.detail +
                       (errors() > 1 ? " (and " + std::to_string(errors() - 1) +
                                           " more finding(s); run `clawport verify`)"
                                     : ""),
                   f.path);
    }
    return error(errc::bundle_invalid, bundle + " verifies", bundle);
  }
};

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
