// SPDX-License-Identifier: MIT
// `verify`: a bundle is hostile input. Walks it through the Fs policy (handles,
// nofollow, identity checks), bounds everything, hashes every byte against the
// digest list, parses the manifest as format 1 only, re-checks the closure
// standing alone and its secrets, and lists every finding (`{code, path,
// detail}`), not only the first.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/error.hpp"
#include "../fs/jobs.hpp"
#include "../fs/policy.hpp"
#include "../signing/policy.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "checks.hpp"
#include "digest_list.hpp"
#include "report.hpp"
#include "walker.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

/// A progress count (issue 44 item 1): the files hashed so far and, when the bundle has a
/// digest list, the files it holds with the list (0 = not known). Called on the walk's thread.
using progress_function = std::function<void(std::uint64_t done, std::uint64_t total)>;

namespace detail {

/// The bundle's root directory; a file given instead (the manifest, a tarball) is
/// errc::invalid_argument saying that a bundle is a directory.
template <class Fs>
typename Fs::dir open_bundle_root(Fs& fs, const std::string& bundle_path) {
  try {
    return fs.open_root(bundle_path);
  } catch (const error& e) {
    if (e.sys_errno() != ENOTDIR) throw;
    throw error(errc::invalid_argument,
                bundle_path + " is a file; a bundle is a directory (the one that holds " +
                    std::string(bundle::manifest_file) + "): give that directory",
                bundle_path);
  }
}

/// Files the walk left unread that the digest list did not vouch for (the list vanished or
/// was replaced after it was seen): the bundle is then not verified.
inline void check_deferred(report& rep) {
  for (const bundle_file& f : rep.files) {
    if (!f.sha256.empty()) continue;
    if (rep.ok())
      add_finding(rep, "changed", std::string(bundle::digest_list_file),
                  "the digest list changed while the bundle was verified");
    return;
  }
}

/// What the walk keeps, and the digest list's survey and cursor.
template <class Fs>
struct list_plan {
  std::optional<list_survey> survey;
  std::optional<list_cursor<Fs>> cursor;
};

/// Surveys the digest list and decides how it is joined: during the walk through a cursor
/// when it is in path order (every file then checked as it is met, none kept), else after
/// the walk from its text (every file kept). Bytes are left to the copy only when the list
/// is joined during the walk.
template <class Fs>
void plan_list(Fs& fs, const typename Fs::dir& root, const limits& lim, walker<Fs>& w,
               list_plan<Fs>& lp) {
  if (auto f = open_list(fs, root, lim)) {
    lp.survey = survey_list(fs, std::move(*f));
    if (!lp.survey->problem && lp.survey->sorted) {
      if (auto again = open_list(fs, root, lim)) lp.cursor.emplace(fs, std::move(*again));
    }
  }
  if (lp.cursor) {
    w.join(&*lp.cursor);
  } else if (lp.survey && !lp.survey->problem) {
    w.keep_all();
    w.keep_list_text();
  }
  const auto sig = fs.stat_at(root, bundle::signature_file);
  if (sig) w.keep_list_text();  // what a signature check reads
}

/// The files a bundle holds when its digest list is sound: the listed ones, the list and
/// the signature (0 when not known).
template <class Fs>
std::uint64_t expected_files(Fs& fs, const typename Fs::dir& root, const list_plan<Fs>& lp) {
  if (!lp.survey || lp.survey->problem) return 0;
  return lp.survey->entries + 1 + (fs.stat_at(root, bundle::signature_file) ? 1 : 0);
}

template <class Fs, class Schema>
report verify(Fs& fs, const std::string& bundle_path, const limits& lim,
              const std::vector<std::string>& deferred_trees, bool keep_files, unsigned jobs,
              const progress_function& progress = {}) {
  static_assert(fs::check_policy<Fs>());
  report rep;
  rep.bundle = bundle_path;
  detail::walker<Fs> w(fs, lim, rep, fs::usable_jobs<Fs>(jobs));
  if (keep_files) w.keep_all();
  list_plan<Fs> lp;
  {
    typename Fs::dir root = detail::open_bundle_root(fs, bundle_path);
    plan_list(fs, root, lim, w, lp);
    if (progress)
      w.on_file = [&progress, total = expected_files(fs, root, lp)](std::uint64_t n) {
        progress(n, total);
      };
    if (!deferred_trees.empty() && lp.cursor) {
      w.defer(deferred_trees);
      rep.bytes_deferred = true;
    }
    w.run(root);
    w.finish_join();
  }
  // The walk visits files in path order (fs/walk.hpp): checked, never expected to sort.
  const auto by_path = [](const bundle_file& a, const bundle_file& b) { return a.path < b.path; };
  if (!std::is_sorted(rep.files.begin(), rep.files.end(), by_path))
    std::sort(rep.files.begin(), rep.files.end(), by_path);
  if (!std::is_sorted(rep.directories.begin(), rep.directories.end()))
    std::sort(rep.directories.begin(), rep.directories.end());
  detail::layout_findings(rep);
  // The private data as before the walk was streamed: directories, then files, by path.
  std::stable_sort(w.private_dirs.begin(), w.private_dirs.end(),
                   [](const finding& a, const finding& b) {
                     return std::string_view(a.path).substr(0, a.path.size() - 1) <
                            std::string_view(b.path).substr(0, b.path.size() - 1);
                   });
  for (finding& f : w.private_dirs) rep.findings.push_back(std::move(f));
  for (finding& f : w.private_files) rep.findings.push_back(std::move(f));
  list_outcome o;
  if (lp.cursor) {
    o.joined = &w.joined;
    o.cursor_hex = lp.cursor->hex();
  }
  o.survey = lp.survey ? &*lp.survey : nullptr;
  o.join_error = w.join_error;
  o.walk_hex = w.list_hex_;
  detail::digest_list_findings(rep, w.digest_list_, w.truncated(), o);
  if (lp.cursor && rep.authenticated) rep.list_stream_sha256 = lp.survey->stream_hex;
  rep.digest_list_text = std::move(w.digest_list_);
  detail::signature_presence(rep);
  if (rep.bytes_deferred) detail::check_deferred(rep);
  if (!detail::read_manifest(rep)) return rep;  // never half-read a manifest not format 1
  detail::derive_workspace_skills_flag(rep, w.workspace_skills);
  detail::skills_findings(rep);
  detail::memory_findings(rep);
  detail::closure_findings<Schema>(rep);
  return rep;
}

}  // namespace detail

/// Verifies the bundle at `bundle_path` (absolute, or as the Fs backend opens
/// roots). Never throws for a bad bundle: every problem is a finding. Throws
/// only when the bundle root itself cannot be opened (errc::not_found,
/// errc::io, ...).
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle(Fs& fs, const std::string& bundle_path, const limits& lim = {}) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, {}, false, 1);
}

/// `verify_bundle` with files read and hashed on `jobs` threads (fs/jobs.hpp; used when the
/// Fs policy is thread-safe): the report is the same as with one.
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle(Fs& fs, const std::string& bundle_path, const limits& lim, unsigned jobs,
                     const progress_function& progress = {}) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, {}, false, jobs, progress);
}

/// `verify_bundle`, keeping every file in `report::files` (path, size, digest) and every
/// directory in `report::directories`, for a caller that needs the list (an import's
/// plan, convert): memory then grows with the bundle.
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle_files(Fs& fs, const std::string& bundle_path, const limits& lim = {},
                           unsigned jobs = 1, const progress_function& progress = {}) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, {}, true, jobs, progress);
}

/// Checks the signature of a bundle `rep` that verified, through a SignatureVerifier
/// (signing/policy.hpp) over the digest list's bytes: sets `signed_by`, or adds the finding
/// `unsigned` (no signature), `signature_invalid` (it does not sign this digest list) or
/// `signer_untrusted` (a good signature by a key the verifier does not allow). A report
/// with errors already keeps them and gains none (the verifier is not asked). Throws what the
/// verifier throws otherwise (errc::unsupported without ssh-keygen, errc::limit_exceeded when it
/// hangs).
inline void check_signature(report& rep, const signing::verify_function& verifier) {
  // Asked to check: the signature is no longer "unchecked", whatever the verdict.
  rep.findings.erase(
      std::remove_if(rep.findings.begin(), rep.findings.end(),
                     [](const finding& f) { return f.code == "signature_unchecked"; }),
      rep.findings.end());
  if (!rep.ok()) return;
  const std::string sig(bundle::signature_file);
  if (!rep.signature_present()) {
    detail::add_finding(rep, "unsigned", sig,
                        "the bundle carries no signature (" + sig +
                            "); ask its producer for a signed export (clawport export --sign "
                            "KEY), or do not require one");
    return;
  }
  try {
    rep.signed_by = verifier(rep.digest_list_text, rep.signature_text);
  } catch (const error& e) {
    if (e.code() == errc::signature_invalid) {
      detail::add_finding(rep, "signature_invalid", sig,
                          "it does not sign this bundle's " +
                              std::string(bundle::digest_list_file) +
                              " (the list was changed after signing, or the signature is another "
                              "bundle's): " +
                              e.what());
    } else if (e.code() == errc::signer_untrusted) {
      detail::add_finding(rep, "signer_untrusted", sig, e.what());
    } else {
      throw;
    }
  }
}

/// `verify_bundle`, except that the bytes of the files below `trees` (bundle-relative
/// directories, `workspace`) are not read when the bundle has a digest list: each such
/// file is listed with the list's digest and `bytes_deferred` is set. For a caller that
/// reads those bytes next and checks each against its digest as it goes
/// (importer::copy_verified), so every byte is read once; a caller that does not must not
/// use this. Everything else (structure, limits, links, the manifest, the closure, the list
/// naming exactly the files present) is checked as by `verify_bundle`, and like it the
/// report keeps only the files the checks after the walk read (the caller reads the digest
/// list again for the rest: importer/file_stream.hpp).
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle_deferring(Fs& fs, const std::string& bundle_path, const limits& lim,
                               const std::vector<std::string>& trees, unsigned jobs = 1,
                               const progress_function& progress = {}) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, trees, false, jobs, progress);
}

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
