// SPDX-License-Identifier: MIT
// `verify`, `import` (plan, apply), `secrets list`, `secrets set` and `status`.
#include "abi.hpp"

#include <clawport/compiled/extern_templates.hpp>
#include <clawport/crypto.hpp>
#include <clawport/importer.hpp>
#include <clawport/signing.hpp>
#include <clawport/verify.hpp>

namespace {

using namespace clawport_c;  // NOLINT: the part's own helpers and the shared ones

/// The SignatureVerifier of `allowed-signers`/`signer` (verify), or of `require-signature`
/// with them (import): as the CLI's options, each needing the others as there.
cp::signing::verify_function verifier_of(const cp::host_environment& h, const options& a,
                                         const char* require) {
  const std::string allowed = a.text("allowed-signers");
  const std::string signer = a.text("signer");
  const bool required = require == nullptr ? !allowed.empty() : a.flag(require);
  if (required && allowed.empty())
    throw error(errc::invalid_argument,
                std::string("option '") + require +
                    "' needs 'allowed-signers' (the allowed_signers file to check against)",
                require);
  if (!required && !allowed.empty())
    throw error(errc::invalid_argument,
                "option 'allowed-signers' is only read with 'require-signature': true",
                "allowed-signers");
  if (!required && !signer.empty())
    throw error(errc::invalid_argument,
                std::string("option 'signer' needs '") +
                    (require == nullptr ? "allowed-signers" : require) + "'",
                "signer");
  if (!required) return {};
  return cp::verify::ssh_bundle_verifier(h, allowed, signer);
}

std::string do_verify(const options& a, const volatile int* cancel) {
  const std::string bundle = a.text("bundle", true);
  const cp::host_environment h = host();
  const cp::signing::verify_function verifier = verifier_of(h, a, nullptr);
  const unsigned jobs = a.jobs();
  poll(cancel, "verifying");
  cp::fs::posix backend;
  cp::verify::report r = cp::verify::verify_bundle(backend, h.absolute(bundle), {}, jobs);
  if (verifier) cp::verify::check_signature(r, verifier);
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
  o.require_signature = verifier_of(h, a, "require-signature");
  o.jobs = a.jobs();
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
  return cp::json::dump(cp::importer::to_json(
      cp::importer::apply_import(backend, o, cp::plan::consented_to(integrity), ao)));
}

std::string do_secrets_list(const options& a, const volatile int* cancel) {
  const std::string config = config_of(host(), a);
  poll(cancel, "listing secrets");
  cp::fs::posix backend;
  return cp::json::dump(
      cp::importer::secrets_to_json(config, cp::importer::read_secrets(backend, config)));
}

std::string do_status(const options& a, const volatile int* cancel) {
  const std::string config = config_of(host(), a);
  poll(cancel, "reading the status");
  cp::fs::posix backend;
  return cp::json::dump(cp::importer::to_json(cp::importer::read_status(backend, config)));
}

/// `secrets set`: the value is a view of the caller's bytes, passed to the library as is
/// (never copied here, never in an error: the library's messages name the field only).
std::string do_secrets_set(const options& a, std::string_view value, const volatile int* cancel) {
  const cp::host_environment h = host();
  const std::string config = config_of(h, a);
  const std::string path = a.text("path", true);
  poll(cancel, "setting " + path);
  cp::fs::posix backend;
  cp::crypto::sodium cipher;
  return cp::json::dump(cp::importer::to_json(
      cp::importer::set_secret(backend, cipher, config, path, value, h.now())));
}

}  // namespace

extern "C" {

clawport_status clawport_v1_verify(const char* o, const volatile int* cancel, char** result,
                                   clawport_error** err) {
  return entry(o, {"bundle", "allowed-signers", "signer", "jobs"}, cancel, result, err, do_verify);
}
clawport_status clawport_v1_import_plan(const char* o, const volatile int* cancel, char** result,
                                        clawport_error** err) {
  return entry(
      o,
      {"bundle", "config", "as", "map", "require-signature", "allowed-signers", "signer", "jobs"},
      cancel, result, err, do_import_plan);
}
clawport_status clawport_v1_import_apply(const char* o, const volatile int* cancel, char** result,
                                         clawport_error** err) {
  return entry(o,
               {"bundle", "config", "as", "map", "require-signature", "allowed-signers", "signer",
                "jobs", "plan-integrity"},
               cancel, result, err, do_import_apply);
}
clawport_status clawport_v1_secrets_list(const char* o, const volatile int* cancel, char** result,
                                         clawport_error** err) {
  return entry(o, {"config"}, cancel, result, err, do_secrets_list);
}
clawport_status clawport_v1_install_status(const char* o, const volatile int* cancel, char** result,
                                           clawport_error** err) {
  return entry(o, {"config"}, cancel, result, err, do_status);
}
clawport_status clawport_v1_secrets_set(const char* o, const unsigned char* value,
                                        size_t value_length, const volatile int* cancel,
                                        char** result, clawport_error** err) {
  return entry(
      o, {"config", "path"}, cancel, result, err,
      [value, value_length](const options& a, const volatile int* c) {
        if (value == nullptr && value_length != 0)
          throw error(errc::invalid_argument, "value is NULL but value_length is not 0", "value");
        const std::string_view v =
            value == nullptr ? std::string_view()
                             : std::string_view(reinterpret_cast<const char*>(value), value_length);
        return do_secrets_set(a, v, c);
      });
}

}  // extern "C"
