// SPDX-License-Identifier: MIT
// The C ABI of bindings/c/clawport.h on the library's default policies (fs::posix, schema
// v3, the exchange publish): each entry point gathers the host environment as the CLI's main
// does (core/host.hpp; the config path is zeroclaw::config_path_of, as in the CLI), reads its
// options the way the CLI reads its arguments, calls the same library
// function the CLI command calls and returns the same JSON document its `--json` prints.
// Nothing here decides anything the library or the CLI decides. Every entry point catches
// everything; no state outlives a call.
// The C entry points keep default visibility when the TU is built with -fvisibility=hidden
// (bindings/rust/build.rs then localizes every other symbol: two copies never clash).
#pragma GCC visibility push(default)
#include "clawport.h"
#pragma GCC visibility pop

#include <clawport/clawport.hpp>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct clawport_v1_error {
  clawport_status code;
  std::string message;
  std::string subject;
  int sys_errno;
};

namespace {

namespace cp = clawport;
using cp::errc;
using cp::error;

// The C enum mirrors errc value for value: a code renumbered on either side stops the build.
static_assert(CLAWPORT_INVALID_ARGUMENT == static_cast<int>(errc::invalid_argument) + 1);
static_assert(CLAWPORT_IO == static_cast<int>(errc::io) + 1);
static_assert(CLAWPORT_NOT_FOUND == static_cast<int>(errc::not_found) + 1);
static_assert(CLAWPORT_UNSAFE_PATH == static_cast<int>(errc::unsafe_path) + 1);
static_assert(CLAWPORT_IDENTITY_CHANGED == static_cast<int>(errc::identity_changed) + 1);
static_assert(CLAWPORT_OVERLAP == static_cast<int>(errc::overlap) + 1);
static_assert(CLAWPORT_DESTINATION_REFUSED == static_cast<int>(errc::destination_refused) + 1);
static_assert(CLAWPORT_CONFIG_PARSE == static_cast<int>(errc::config_parse) + 1);
static_assert(CLAWPORT_CONFIG_INVALID == static_cast<int>(errc::config_invalid) + 1);
static_assert(CLAWPORT_UNKNOWN_AGENT == static_cast<int>(errc::unknown_agent) + 1);
static_assert(CLAWPORT_DANGLING_REFERENCE == static_cast<int>(errc::dangling_reference) + 1);
static_assert(CLAWPORT_CIPHERTEXT == static_cast<int>(errc::ciphertext) + 1);
static_assert(CLAWPORT_UNKNOWN_KEY == static_cast<int>(errc::unknown_key) + 1);
static_assert(CLAWPORT_SKILL_INVALID == static_cast<int>(errc::skill_invalid) + 1);
static_assert(CLAWPORT_AUDIT_BLOCKED == static_cast<int>(errc::audit_blocked) + 1);
static_assert(CLAWPORT_BUNDLE_INVALID == static_cast<int>(errc::bundle_invalid) + 1);
static_assert(CLAWPORT_PUBLISH_FAILED == static_cast<int>(errc::publish_failed) + 1);
static_assert(CLAWPORT_RECOVER_AMBIGUOUS == static_cast<int>(errc::recover_ambiguous) + 1);
static_assert(CLAWPORT_LIMIT_EXCEEDED == static_cast<int>(errc::limit_exceeded) + 1);
static_assert(CLAWPORT_UNSUPPORTED == static_cast<int>(errc::unsupported) + 1);
static_assert(CLAWPORT_CANCELLED == static_cast<int>(errc::cancelled) + 1);

/// The one mapping from clawport::errc to the C status: the errc's value plus one (0 is OK).
clawport_status status_of(errc code) noexcept {
  return static_cast<clawport_status>(static_cast<int>(code) + 1);
}

/// The caller's cancellation flag, read atomically (another thread may set it).
bool flag_set(const volatile int* flag) noexcept {
  return flag != nullptr && __atomic_load_n(flag, __ATOMIC_ACQUIRE) != 0;
}

/// The poll point the binding adds where the library has none: before a step starts.
void poll(const volatile int* flag, const std::string& step) {
  if (flag_set(flag))
    throw error(errc::cancelled, "cancelled before " + step + "; nothing was written");
}

/// A UTF-8 copy owned by the caller, released with clawport_free (malloc'd: plain C frees).
char* c_string(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

/// The options object: the CLI's option names without dashes; an unknown key is refused.
class options {
 public:
  options(const char* text, std::initializer_list<const char*> known) {
    if (text == nullptr) text = "{}";
    json_ = nlohmann::json::parse(text, nullptr, false);
    if (json_.is_discarded() || !json_.is_object())
      throw error(errc::invalid_argument, "the options are not a JSON object", "options");
    for (const auto& item : json_.items()) {
      bool found = false;
      for (const char* k : known) found = found || item.key() == k;
      if (!found)
        throw error(errc::invalid_argument,
                    "unknown option '" + item.key() + "' for this operation", item.key());
    }
  }

  /// A string option; "" when absent or null. `required`: absent or empty is refused.
  std::string text(const char* key, bool required = false) const {
    const auto it = json_.find(key);
    std::string v;
    if (it != json_.end() && !it->is_null()) {
      if (!it->is_string())
        throw error(errc::invalid_argument, std::string("option '") + key + "' must be a string",
                    key);
      v = it->get<std::string>();
    }
    if (required && v.empty())
      throw error(errc::invalid_argument,
                  std::string("option '") + key + "' is required and must not be empty", key);
    return v;
  }

  bool flag(const char* key) const {
    const auto it = json_.find(key);
    if (it == json_.end() || it->is_null()) return false;
    if (!it->is_boolean())
      throw error(errc::invalid_argument, std::string("option '") + key + "' must be true or false",
                  key);
    return it->get<bool>();
  }

  std::vector<std::string> list(const char* key) const {
    std::vector<std::string> out;
    const auto it = json_.find(key);
    if (it == json_.end() || it->is_null()) return out;
    if (!it->is_array())
      throw error(errc::invalid_argument,
                  std::string("option '") + key + "' must be an array of strings", key);
    for (const auto& v : *it) {
      if (!v.is_string())
        throw error(errc::invalid_argument,
                    std::string("option '") + key + "' must be an array of strings", key);
      out.push_back(v.get<std::string>());
    }
    return out;
  }

  /// A string option limited to `allowed`; `fallback` when absent.
  std::string choice(const char* key, std::initializer_list<const char*> allowed,
                     const char* fallback) const {
    const std::string v = text(key);
    if (v.empty()) return fallback;
    for (const char* a : allowed)
      if (v == a) return v;
    throw error(errc::invalid_argument,
                std::string("option '") + key + "' has no value '" + v + "'", key);
  }

 private:
  nlohmann::json json_;
};

/// The host environment of this call, gathered as the CLI's main gathers it
/// (clawport::gather_process_host); no state outlives the call.
cp::host_environment host() { return cp::gather_process_host(); }

std::string config_of(const cp::host_environment& h, const options& o) {
  return cp::zeroclaw::config_path_of(h, o.text("config"));
}

void set_error(clawport_error** out, const error& e) noexcept {
  if (out == nullptr) return;
  try {
    *out = new clawport_v1_error{status_of(e.code()), e.what(), e.subject(), e.sys_errno()};
  } catch (...) {  // no memory for the error object: the status still says what happened
    *out = nullptr;
  }
}

/// Every entry point: validates the out-parameters, runs `body` and turns whatever it throws
/// into a status and an error object. No exception leaves.
template <class Body>
clawport_status guarded(char** result, clawport_error** err, Body&& body) noexcept {
  if (err != nullptr) *err = nullptr;
  if (result != nullptr) *result = nullptr;
  try {
    if (result == nullptr)
      throw error(errc::invalid_argument, "result_json must not be NULL", "result_json");
    *result = c_string(body());
    return CLAWPORT_OK;
  } catch (const error& e) {
    set_error(err, e);
    return status_of(e.code());
  } catch (const std::bad_alloc&) {
    set_error(err, error(errc::io, "out of memory"));
    return status_of(errc::io);
  } catch (const std::exception& e) {  // as the CLI: any other failure is an I/O error
    set_error(err, error(errc::io, e.what()));
    return status_of(errc::io);
  } catch (...) {
    set_error(err, error(errc::io, "an unknown failure inside clawport"));
    return status_of(errc::io);
  }
}

template <class Publish>
cp::export_result run_exporter(cp::fs::posix& backend, const cp::export_options& o) {
  cp::basic_exporter<cp::fs::posix, cp::zeroclaw::schema_v3, Publish> exporter(backend);
  return exporter.run(o);
}

std::string do_export(const options& a, const volatile int* cancel) {
  cp::export_options o;
  o.alias = a.text("alias", true);
  o.out = a.text("out", true);
  const cp::host_environment h = host();
  o.out_path = h.absolute(o.out);
  o.config_path = config_of(h, a);
  if (const auto home = h.absolute_home()) o.home = *home;
  o.force = a.flag("force");
  o.sync = !a.flag("no-sync");
  o.exported_at = h.now();
  o.cancelled = [cancel] { return flag_set(cancel); };
  const std::string publish = a.choice("publish", {"exchange", "swap"}, "exchange");
  cp::fs::posix backend;
  cp::export_result r;
  if (a.flag("dry-run")) {
    r = run_exporter<cp::publish::none>(backend, o);
  } else if (publish == "swap") {
    r = run_exporter<cp::publish::staged_swap>(backend, o);
  } else {
    r = run_exporter<cp::publish::exchange>(backend, o);
  }
  return cp::render_json(r);
}

std::string do_verify(const options& a, const volatile int* cancel) {
  const std::string bundle = a.text("bundle", true);
  poll(cancel, "verifying");
  cp::fs::posix backend;
  const cp::verify::report r = cp::verify::verify_bundle(backend, host().absolute(bundle));
  nlohmann::json j = cp::verify::to_json(r);
  j["bundle"] = bundle;
  return cp::json::dump(j);
}

cp::importer::import_options import_options_of(const options& a) {
  cp::importer::import_options o;
  const cp::host_environment h = host();
  o.bundle = h.absolute(a.text("bundle", true));
  o.config_path = config_of(h, a);
  const std::string as = a.text("as");
  if (!as.empty()) o.as = as;
  o.maps = a.list("map");
  o.now = h.now();
  return o;
}

std::string do_import_plan(const options& a, const volatile int* cancel) {
  const cp::importer::import_options o = import_options_of(a);
  poll(cancel, "planning the import");
  cp::fs::posix backend;
  return cp::json::dump(cp::importer::to_json(cp::importer::plan_import(backend, o)));
}

std::string do_import_apply(const options& a, const volatile int* cancel) {
  const cp::importer::import_options o = import_options_of(a);
  const std::string integrity = a.text("plan-integrity");
  if (integrity.empty())
    throw error(errc::invalid_argument,
                "applying an import needs plan-integrity <the value the plan showed>: plan the "
                "import first and review the plan",
                "plan-integrity");
  poll(cancel, "applying the import");
  cp::importer::apply_options ao;
  // The library's own step between the placed trees and the config: a cancellation there
  // rolls the placed trees back.
  ao.before_config = [cancel] {
    if (flag_set(cancel))
      throw error(errc::cancelled,
                  "the import was cancelled before its config was written; the placed files "
                  "were removed, nothing was written");
  };
  cp::fs::posix backend;
  return cp::json::dump(
      cp::importer::to_json(cp::importer::apply_import(backend, o, integrity, ao)));
}

std::string do_recover(const options& a, const volatile int* cancel) {
  const std::string dir = a.text("dir", true);
  std::string abs = host().absolute(dir);
  while (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  poll(cancel, "recovering");
  cp::fs::posix backend;
  const cp::recover_report report = cp::recover_path(backend, abs, dir);
  if (!report.failed.empty() && !report.restored) throw cp::recover_failure(report, dir);
  return cp::json::dump(cp::to_json(report));
}

std::string do_skills_audit(const options& a, const volatile int* cancel) {
  const std::vector<std::string> dirs = a.list("dirs");
  if (dirs.empty())
    throw error(errc::invalid_argument, "option 'dirs' needs at least one skill directory", "dirs");
  const bool allow_scripts = a.flag("allow-scripts");
  const cp::host_environment h = host();
  cp::fs::posix backend;
  std::vector<cp::skills::audit_outcome> outcomes;
  for (const std::string& dir : dirs) {
    poll(cancel, "auditing " + dir);
    cp::skills::audit_outcome one{dir, std::nullopt, std::nullopt};
    try {
      one.report = cp::skills::audit_skill_directory(backend, h.absolute(dir),
                                                     cp::skills::audit_options{allow_scripts});
    } catch (const error& e) {
      one.failure = e;
    }
    outcomes.push_back(std::move(one));
  }
  return cp::json::dump(cp::skills::to_json(outcomes));
}

std::string do_skills_list(const options& a, const volatile int* cancel) {
  const cp::host_environment h = host();
  const std::string config = config_of(h, a);
  const std::string install = cp::zeroclaw::install_root_of(config);
  const cp::skills::list_request request{a.text("agent"), a.text("bundle")};
  poll(cancel, "listing skills");
  cp::fs::posix backend;
  const cp::skills::skills_config cfg =
      cp::skills::parse_skills_config(cp::zeroclaw::read_install_config(backend, config), config);
  const cp::skills::install_paths where = cp::skills::install_paths_of(h, config);
  return cp::json::dump(
      cp::skills::to_json(cp::skills::list_skills(backend, cfg, where, request), install));
}

std::string do_claw_inspect(const options& a, const volatile int* cancel) {
  const std::string package = a.text("package", true);
  const std::string codes = a.choice("codes", {"openclaw", "clawhub"}, "openclaw");
  poll(cancel, "reading the package");
  cp::fs::posix backend;
  cp::openclaw::claw_package pkg = cp::openclaw::read_package(backend, host().absolute(package));
  if (codes == "clawhub") pkg.diagnostics = cp::openclaw::to_clawhub(pkg.diagnostics);
  return cp::openclaw::json_text(cp::openclaw::inspect_document(pkg));
}

std::string do_claw_plan(const options& a, const volatile int* cancel) {
  const std::string package = a.text("package", true);
  const cp::host_environment h = host();
  cp::openclaw::destination_request req;
  static_cast<cp::openclaw::environment&>(req) =
      cp::openclaw::environment_of(h, a.text("state-dir"));
  if (const std::string v = a.text("agent-id"); !v.empty()) req.agent_id = v;
  if (const std::string v = a.text("workspace"); !v.empty()) req.workspace = v;
  cp::openclaw::add_options opt;
  opt.without_packages = a.flag("without-packages");
  poll(cancel, "reading the package");
  cp::fs::posix backend;
  const cp::openclaw::claw_package pkg = cp::openclaw::read_package(backend, h.absolute(package));
  if (!pkg.ok())
    return cp::openclaw::json_text(
        cp::openclaw::to_json(cp::openclaw::invalid_package{pkg.diagnostics}));
  poll(cancel, "planning the add");
  return cp::openclaw::json_text(
      cp::openclaw::to_json(cp::openclaw::plan_add(backend, pkg, req, opt)));
}

std::string do_convert(const options& a, const volatile int* cancel) {
  cp::convert::options o;
  o.source_display = a.text("source", true);
  o.out_display = a.text("out", true);
  const cp::host_environment h = host();
  o.source = h.absolute(o.source_display);
  o.out = h.absolute(o.out_display);
  const std::string to = a.text("to", true);
  if (to != "claw" && to != "zeroclaw")
    throw error(errc::invalid_argument, "option 'to' must be claw or zeroclaw", "to");
  o.to = to == "claw" ? cp::convert::direction::to_claw : cp::convert::direction::to_zeroclaw;
  o.dry_run = a.flag("dry-run");
  o.allow_narrowing = a.flag("allow-narrowing");
  o.at = h.now();
  // The library's step between the checked staging tree and the publish: a cancellation
  // there removes the staging tree.
  o.before_publish = [cancel] {
    if (flag_set(cancel))
      throw error(errc::cancelled,
                  "the conversion was cancelled before publishing; nothing was "
                  "written");
  };
  poll(cancel, "converting");
  cp::fs::posix backend;
  return cp::json::dump(cp::convert::to_json(cp::convert::run(backend, o)));
}

/// One entry point: the options (with the keys this operation knows) and the operation.
template <class Op>
clawport_status entry(const char* json, std::initializer_list<const char*> keys,
                      const volatile int* cancel, char** result, clawport_error** err,
                      Op op) noexcept {
  return guarded(result, err, [&] { return op(options(json, keys), cancel); });
}

}  // namespace

extern "C" {

int clawport_v1_abi_version(void) { return CLAWPORT_ABI_VERSION; }

const char* clawport_v1_version(void) {
  // core/version.hpp's string_view views a string literal: NUL-terminated, static storage.
  return cp::version_string.data();
}

const char* clawport_v1_status_name(clawport_status status) {
  if (status == CLAWPORT_OK) return "ok";
  const int v = static_cast<int>(status) - 1;
  if (v < 0 || v > static_cast<int>(errc::cancelled)) return "unknown";
  // Wire names are string literals in core/error.hpp: their storage is static.
  return cp::to_string(static_cast<errc>(v)).data();
}

void clawport_v1_free(char* document) { std::free(document); }

clawport_status clawport_v1_error_code(const clawport_error* e) {
  return e != nullptr ? e->code : CLAWPORT_INVALID_ARGUMENT;
}
const char* clawport_v1_error_message(const clawport_error* e) {
  return e != nullptr ? e->message.c_str() : "";
}
const char* clawport_v1_error_subject(const clawport_error* e) {
  return e != nullptr ? e->subject.c_str() : "";
}
int clawport_v1_error_errno(const clawport_error* e) { return e != nullptr ? e->sys_errno : 0; }

char* clawport_v1_error_json(const clawport_error* e) {
  if (e == nullptr) return nullptr;
  try {
    const errc code = static_cast<errc>(static_cast<int>(e->code) - 1);
    return c_string(cp::json::dump(cp::json::error_document(error(code, e->message, e->subject))));
  } catch (...) {
    return nullptr;
  }
}

void clawport_v1_error_free(clawport_error* e) { delete e; }

clawport_status clawport_v1_export(const char* o, const volatile int* cancel, char** result,
                                   clawport_error** err) {
  return entry(o, {"alias", "out", "config", "force", "publish", "dry-run", "no-sync"}, cancel,
               result, err, do_export);
}
clawport_status clawport_v1_verify(const char* o, const volatile int* cancel, char** result,
                                   clawport_error** err) {
  return entry(o, {"bundle"}, cancel, result, err, do_verify);
}
clawport_status clawport_v1_import_plan(const char* o, const volatile int* cancel, char** result,
                                        clawport_error** err) {
  return entry(o, {"bundle", "config", "as", "map"}, cancel, result, err, do_import_plan);
}
clawport_status clawport_v1_import_apply(const char* o, const volatile int* cancel, char** result,
                                         clawport_error** err) {
  return entry(o, {"bundle", "config", "as", "map", "plan-integrity"}, cancel, result, err,
               do_import_apply);
}
clawport_status clawport_v1_recover(const char* o, const volatile int* cancel, char** result,
                                    clawport_error** err) {
  return entry(o, {"dir"}, cancel, result, err, do_recover);
}
clawport_status clawport_v1_skills_audit(const char* o, const volatile int* cancel, char** result,
                                         clawport_error** err) {
  return entry(o, {"dirs", "allow-scripts"}, cancel, result, err, do_skills_audit);
}
clawport_status clawport_v1_skills_list(const char* o, const volatile int* cancel, char** result,
                                        clawport_error** err) {
  return entry(o, {"config", "agent", "bundle"}, cancel, result, err, do_skills_list);
}
clawport_status clawport_v1_claw_inspect(const char* o, const volatile int* cancel, char** result,
                                         clawport_error** err) {
  return entry(o, {"package", "codes"}, cancel, result, err, do_claw_inspect);
}
clawport_status clawport_v1_claw_plan(const char* o, const volatile int* cancel, char** result,
                                      clawport_error** err) {
  return entry(o, {"package", "state-dir", "agent-id", "workspace", "without-packages"}, cancel,
               result, err, do_claw_plan);
}
clawport_status clawport_v1_convert(const char* o, const volatile int* cancel, char** result,
                                    clawport_error** err) {
  return entry(o, {"source", "to", "out", "dry-run", "allow-narrowing"}, cancel, result, err,
               do_convert);
}

}  // extern "C"
