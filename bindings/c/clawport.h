/* SPDX-License-Identifier: MIT */
/*
 * clawport.h: the C ABI of clawport (plain C99), for programs that are not C++ (the Rust
 * crate in bindings/rust/ is built on it). docs/vendoring.md is the guide.
 *
 * The shape of every call:
 *
 *   clawport_status clawport_v1_<operation>(const char *options_json,
 *                                           const volatile int *cancel,
 *                                           char **result_json,
 *                                           clawport_error **error);
 *
 * - options_json: a UTF-8 JSON object whose keys are the CLI's option names without the
 *   dashes ("out", "dry-run", "plan-integrity", ...) and the positional arguments by their
 *   CLI names ("alias", "bundle", ...). A key the operation does not know is refused
 *   (CLAWPORT_INVALID_ARGUMENT), so a new option never needs a new symbol and a typo never
 *   passes silently. Relative paths are taken against the working directory, as the CLI does.
 * - cancel: NULL, or a flag the caller owns; set it to non-zero (from any thread, or from a
 *   signal handler) to ask the operation to stop. Long operations poll it and roll back
 *   (CLAWPORT_CANCELLED); see docs/vendoring.md for where each operation polls.
 * - result_json: on CLAWPORT_OK, receives the UTF-8 JSON document the CLI prints with
 *   `--json`, allocated by the library; release it with clawport_free(). Set to NULL on failure.
 * - error: may be NULL. On failure, receives an error object (code, message, subject);
 *   release it with clawport_error_free(). Set to NULL on success.
 *
 * A verdict is not a failure: a bundle that does not verify, a blocked skill audit or a
 * blocked claw plan return CLAWPORT_OK with the verdict in the document ("ok", "blocked",
 * "findings"), exactly as `--json` prints it. A failure (a refusal, an I/O error, bad options,
 * a cancellation) is a status and an error object; nothing was written (or what was written
 * was rolled back), as the CLI guarantees.
 *
 * No exception or C++ type crosses this boundary. There is no global state: independent
 * calls may run concurrently on different threads; an error object or result string may be
 * moved between threads. Every symbol is named clawport_v1_*: see "ABI stability" in
 * docs/vendoring.md. The unprefixed names below (clawport_export, ...) are macros for the
 * v1 symbols; define CLAWPORT_NO_SHORT_NAMES to do without them.
 */
#ifndef CLAWPORT_H
#define CLAWPORT_H

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this ABI: bumped (with the symbol prefix clawport_vN_) on any incompatible
 * change; additions (a new function, a new option key, a new status appended, a new field in
 * a document) keep it. */
#define CLAWPORT_ABI_VERSION 1

/* The outcome of a call: 0 is success; every other value is one of clawport's error codes
 * (clawport::errc in include/clawport/core/error.hpp, in its order, plus one). Values are
 * never reused; new codes are only ever appended. */
typedef enum clawport_status {
  CLAWPORT_OK = 0,
  CLAWPORT_INVALID_ARGUMENT = 1,
  CLAWPORT_IO = 2,
  CLAWPORT_NOT_FOUND = 3,
  CLAWPORT_UNSAFE_PATH = 4,
  CLAWPORT_IDENTITY_CHANGED = 5,
  CLAWPORT_OVERLAP = 6,
  CLAWPORT_DESTINATION_REFUSED = 7,
  CLAWPORT_CONFIG_PARSE = 8,
  CLAWPORT_CONFIG_INVALID = 9,
  CLAWPORT_UNKNOWN_AGENT = 10,
  CLAWPORT_DANGLING_REFERENCE = 11,
  CLAWPORT_CIPHERTEXT = 12,
  CLAWPORT_UNKNOWN_KEY = 13,
  CLAWPORT_SKILL_INVALID = 14,
  CLAWPORT_AUDIT_BLOCKED = 15,
  CLAWPORT_BUNDLE_INVALID = 16,
  CLAWPORT_PUBLISH_FAILED = 17,
  CLAWPORT_RECOVER_AMBIGUOUS = 18,
  CLAWPORT_LIMIT_EXCEEDED = 19,
  CLAWPORT_UNSUPPORTED = 20,
  CLAWPORT_CANCELLED = 21
} clawport_status;

/* A failure: its code, a message a person can act on, and the path or config field it
 * concerns. Opaque; owned by the caller once returned. */
typedef struct clawport_v1_error clawport_error;

/* CLAWPORT_ABI_VERSION of the library linked in (compare with the header's). */
int clawport_v1_abi_version(void);
/* The library's version, e.g. "0.9.0" (static storage; never free it). */
const char *clawport_v1_version(void);
/* The wire name of a status ("unsafe_path", "ok"; "unknown" for a value not listed). Static
 * storage. */
const char *clawport_v1_status_name(clawport_status status);

/* Releases a result document (NULL is allowed). */
void clawport_v1_free(char *document);

clawport_status clawport_v1_error_code(const clawport_error *error);
/* The message (UTF-8, never NULL), valid until clawport_error_free. */
const char *clawport_v1_error_message(const clawport_error *error);
/* The path or config field the error concerns ("" when none), valid until clawport_error_free. */
const char *clawport_v1_error_subject(const clawport_error *error);
/* The errno of the failing system call, 0 when none. */
int clawport_v1_error_errno(const clawport_error *error);
/* The CLI's `--json` error document {"error": {"code", "message", "subject"}}; free it with
 * clawport_free. NULL only when memory is exhausted. */
char *clawport_v1_error_json(const clawport_error *error);
void clawport_v1_error_free(clawport_error *error);

/* `clawport export`: {"alias", "out", "config", "force", "publish": "exchange"|"swap",
 * "dry-run", "no-sync"}. "config" defaults as in the CLI ($ZEROCLAW_CONFIG_DIR/config.toml,
 * else ~/.zeroclaw/config.toml); SOURCE_DATE_EPOCH and HOME are read as the CLI reads them.
 * The document is the export report. */
clawport_status clawport_v1_export(const char *options_json, const volatile int *cancel,
                                   char **result_json, clawport_error **error);
/* `clawport verify`: {"bundle"}. The document has "ok" and "findings". */
clawport_status clawport_v1_verify(const char *options_json, const volatile int *cancel,
                                   char **result_json, clawport_error **error);
/* `clawport import` without --yes: {"bundle", "config", "as", "map": ["KIND.ALIAS=LOCAL"]}.
 * Writes nothing; the document holds "plan_integrity". */
clawport_status clawport_v1_import_plan(const char *options_json, const volatile int *cancel,
                                        char **result_json, clawport_error **error);
/* `clawport import --yes`: the plan's options and "plan-integrity" (required): applies the
 * plan only if it still hashes to that value (else CLAWPORT_IDENTITY_CHANGED, nothing
 * written). */
clawport_status clawport_v1_import_apply(const char *options_json, const volatile int *cancel,
                                         char **result_json, clawport_error **error);
/* `clawport recover`: {"dir"}. */
clawport_status clawport_v1_recover(const char *options_json, const volatile int *cancel,
                                    char **result_json, clawport_error **error);
/* `clawport skills audit`: {"dirs": [...], "allow-scripts"}. */
clawport_status clawport_v1_skills_audit(const char *options_json, const volatile int *cancel,
                                         char **result_json, clawport_error **error);
/* `clawport skills list`: {"config", "agent", "bundle"}. */
clawport_status clawport_v1_skills_list(const char *options_json, const volatile int *cancel,
                                        char **result_json, clawport_error **error);
/* `clawport claw inspect`: {"package", "codes": "openclaw"|"clawhub"}. */
clawport_status clawport_v1_claw_inspect(const char *options_json, const volatile int *cancel,
                                         char **result_json, clawport_error **error);
/* `clawport claw plan`: {"package", "state-dir", "agent-id", "workspace",
 * "without-packages"}. A package that does not read is CLAWPORT_OK with the failure
 * document the CLI prints. */
clawport_status clawport_v1_claw_plan(const char *options_json, const volatile int *cancel,
                                      char **result_json, clawport_error **error);
/* `clawport convert`: {"source", "to": "claw"|"zeroclaw", "out", "dry-run",
 * "allow-narrowing"}. */
clawport_status clawport_v1_convert(const char *options_json, const volatile int *cancel,
                                    char **result_json, clawport_error **error);

#ifndef CLAWPORT_NO_SHORT_NAMES
#define clawport_abi_version clawport_v1_abi_version
#define clawport_version clawport_v1_version
#define clawport_status_name clawport_v1_status_name
#define clawport_free clawport_v1_free
#define clawport_error_code clawport_v1_error_code
#define clawport_error_message clawport_v1_error_message
#define clawport_error_subject clawport_v1_error_subject
#define clawport_error_errno clawport_v1_error_errno
#define clawport_error_json clawport_v1_error_json
#define clawport_error_free clawport_v1_error_free
#define clawport_export clawport_v1_export
#define clawport_verify clawport_v1_verify
#define clawport_import_plan clawport_v1_import_plan
#define clawport_import_apply clawport_v1_import_apply
#define clawport_recover clawport_v1_recover
#define clawport_skills_audit clawport_v1_skills_audit
#define clawport_skills_list clawport_v1_skills_list
#define clawport_claw_inspect clawport_v1_claw_inspect
#define clawport_claw_plan clawport_v1_claw_plan
#define clawport_convert clawport_v1_convert
#endif

#ifdef __cplusplus
}
#endif

#endif /* CLAWPORT_H */
