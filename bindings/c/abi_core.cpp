// SPDX-License-Identifier: MIT
// The entry points that run no command: versions, status names, the error object.
#include "abi.hpp"

#include <cstdlib>

namespace {

using namespace clawport_c;  // NOLINT: the part's own helpers and the shared ones

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
  if (v < 0 || v > static_cast<int>(last_errc)) return "unknown";
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

}  // extern "C"
