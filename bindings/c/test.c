/* SPDX-License-Identifier: MIT */
/*
 * The C ABI end to end, in plain C99 (bindings/check.sh runs it under ASan+UBSan and under
 * valgrind): export the example install's `researcher` (dry run, then for real), verify it,
 * plan and apply its import into an empty install (a stale integrity refused), a tampered
 * bundle refused, a cancelled export leaving nothing, bad options refused with their subject,
 * the skills, claw, convert and recover entry points, and two threads verifying at once.
 *   test <repository root>
 */
#define _POSIX_C_SOURCE 200809L
#include "clawport.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures = 0;
static char tmp[256];
static char repo[1024];

#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                     \
    }                                                                 \
  } while (0)

typedef clawport_status (*operation)(const char*, const volatile int*, char**, clawport_error**);

/* Runs `op`, checks its status, returns the document (or NULL), prints the error. */
static char* run(operation op, const char* options, const volatile int* cancel,
                 clawport_status want, const char* line) {
  char* doc = NULL;
  clawport_error* err = NULL;
  const clawport_status got = op(options, cancel, &doc, &err);
  if (got != want) {
    fprintf(stderr, "FAIL %s: status %s, expected %s: %s\n", line, clawport_status_name(got),
            clawport_status_name(want), err ? clawport_error_message(err) : "(no error)");
    ++failures;
  }
  if (got == CLAWPORT_OK) {
    CHECK(doc != NULL && err == NULL);
  } else {
    CHECK(doc == NULL && err != NULL);
    if (err != NULL) CHECK(clawport_error_code(err) == got);
  }
  clawport_error_free(err);
  return doc;
}

static int contains(const char* doc, const char* needle) {
  return doc != NULL && strstr(doc, needle) != NULL;
}

static int exists(const char* path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

/* The entries of `dir` other than . and .., or -1. */
static int entries(const char* dir) {
  DIR* d = opendir(dir);
  struct dirent* e;
  int n = 0;
  if (d == NULL) return -1;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) ++n;
  closedir(d);
  return n;
}

static void write_file(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  if (f == NULL) return;
  fputs(text, f);
  fclose(f);
}

/* The bytes of `path` (at most `size` - 1, NUL-terminated) into `out`; 0 when unreadable. */
static int read_text(const char* path, char* out, size_t size) {
  FILE* f = fopen(path, "r");
  size_t n;
  if (f == NULL) return 0;
  n = fread(out, 1, size - 1, f);
  out[n] = '\0';
  fclose(f);
  return 1;
}

/* clawport_secrets_set with `value` (its bytes, no NUL counted); the status is checked, the
 * document returned; on failure, neither the message nor the error document holds the value. */
static char* set_secret(const char* options, const char* value, clawport_status want) {
  char* doc = NULL;
  char* ejson;
  clawport_error* err = NULL;
  const clawport_status got =
      clawport_secrets_set(options, (const unsigned char*)value, strlen(value), NULL, &doc, &err);
  if (got != want) {
    fprintf(stderr, "FAIL secrets set: status %s, expected %s: %s\n", clawport_status_name(got),
            clawport_status_name(want), err ? clawport_error_message(err) : "(no error)");
    ++failures;
  }
  if (err != NULL && value[0] != '\0') {
    CHECK(strstr(clawport_error_message(err), value) == NULL);
    CHECK(strstr(clawport_error_subject(err), value) == NULL);
    ejson = clawport_error_json(err);
    CHECK(ejson != NULL && strstr(ejson, value) == NULL);
    clawport_free(ejson);
  }
  CHECK(doc == NULL || value[0] == '\0' || strstr(doc, value) == NULL);
  clawport_error_free(err);
  return doc;
}

static void test_abi(void) {
  CHECK(clawport_abi_version() == CLAWPORT_ABI_VERSION);
  CHECK(strcmp(clawport_status_name(CLAWPORT_OK), "ok") == 0);
  CHECK(strcmp(clawport_status_name(CLAWPORT_UNSAFE_PATH), "unsafe_path") == 0);
  CHECK(strcmp(clawport_status_name(CLAWPORT_CANCELLED), "cancelled") == 0);
  /* every library code has its constant and its wire name (tools/gen_error_codes.py) */
  CHECK(strcmp(clawport_status_name(CLAWPORT_NOT_SIGNED), "unsigned") == 0);
  CHECK(strcmp(clawport_status_name(CLAWPORT_SIGNING_FAILED), "signing_failed") == 0);
  CHECK(strcmp(clawport_status_name(CLAWPORT_PLAN_INTEGRITY_MISMATCH), "plan_integrity_mismatch") ==
        0);
  CHECK(strcmp(clawport_status_name((clawport_status)(CLAWPORT_SIGNING_FAILED + 1)), "unknown") ==
        0);
  CHECK(strcmp(clawport_status_name((clawport_status)999), "unknown") == 0);
  CHECK(strlen(clawport_version()) > 0);
  clawport_free(NULL);
  clawport_error_free(NULL);
}

static void test_bad_options(void) {
  char* doc = NULL;
  clawport_error* err = NULL;
  CHECK(clawport_verify("[1]", NULL, &doc, &err) == CLAWPORT_INVALID_ARGUMENT && doc == NULL);
  clawport_error_free(err);
  err = NULL;
  CHECK(clawport_verify("{\"bundle\": \"x\", \"bogus\": 1}", NULL, &doc, &err) ==
        CLAWPORT_INVALID_ARGUMENT);
  CHECK(err != NULL && strcmp(clawport_error_subject(err), "bogus") == 0);
  if (err != NULL) {
    char* json = clawport_error_json(err);
    CHECK(contains(json, "\"code\": \"invalid_argument\"") && contains(json, "bogus"));
    clawport_free(json);
  }
  clawport_error_free(err);
  /* no result pointer: refused, the error object still given; a NULL error pointer is fine */
  err = NULL;
  CHECK(clawport_verify("{\"bundle\": \"x\"}", NULL, NULL, &err) == CLAWPORT_INVALID_ARGUMENT);
  clawport_error_free(err);
  CHECK(clawport_export("{\"alias\": 3}", NULL, &doc, NULL) == CLAWPORT_INVALID_ARGUMENT);
}

/* Issue 41 item 18: a string option holding U+0000 is refused, not cut at the NUL (it
 * verified "/tmp" for "/tmp\u0000/x"), in a string and in a list. */
static void test_nul_refused(void) {
  char* doc = NULL;
  clawport_error* err = NULL;
  CHECK(clawport_verify("{\"bundle\": \"/tmp\\u0000/x\"}", NULL, &doc, &err) ==
        CLAWPORT_INVALID_ARGUMENT);
  CHECK(doc == NULL && err != NULL && strcmp(clawport_error_subject(err), "bundle") == 0);
  CHECK(err != NULL && strstr(clawport_error_message(err), "NUL") != NULL);
  clawport_error_free(err);
  err = NULL;
  CHECK(clawport_skills_audit("{\"dirs\": [\"/tmp\\u0000/x\"]}", NULL, &doc, &err) ==
        CLAWPORT_INVALID_ARGUMENT);
  CHECK(err != NULL && strcmp(clawport_error_subject(err), "dirs") == 0);
  clawport_error_free(err);
}

/* `secrets set` through the ABI (issue 45 item 2): the value as bytes the caller owns, stored
 * as `enc2:` under a new .secret_key; refusals (a field that is not secret, an empty value,
 * ciphertext) write nothing and never echo the value. Runs on tmp/dst after the import. */
static void test_secrets_set(void) {
  static const char* secret = "sk-c-abi-value-7f3a";
  char opts[2048], path[1024], before[16384], after[16384];
  char* doc;
  int n;
  snprintf(path, sizeof path, "%s/dst/config.toml", tmp);
  CHECK(read_text(path, before, sizeof before));
  snprintf(path, sizeof path, "%s/dst", tmp);
  n = entries(path);
  /* refusals first: nothing written, the value never echoed */
  snprintf(opts, sizeof opts,
           "{\"config\": \"%s/dst/config.toml\", \"path\": \"agents.researcher.model\"}", tmp);
  doc = set_secret(opts, "sk-not-a-secret-field-91c2", CLAWPORT_NOT_FOUND);
  snprintf(opts, sizeof opts,
           "{\"config\": \"%s/dst/config.toml\","
           " \"path\": \"providers.models.anthropic.main.api_key\"}",
           tmp);
  doc = set_secret(opts, "enc2:00112233445566778899aabbccddeeff", CLAWPORT_INVALID_ARGUMENT);
  doc = set_secret(opts, "", CLAWPORT_INVALID_ARGUMENT);
  {
    char* d = NULL;
    clawport_error* e = NULL;
    CHECK(clawport_secrets_set(opts, NULL, 3, NULL, &d, &e) == CLAWPORT_INVALID_ARGUMENT);
    CHECK(d == NULL && e != NULL && strcmp(clawport_error_subject(e), "value") == 0);
    clawport_error_free(e);
  }
  CHECK(entries(path) == n);
  snprintf(path, sizeof path, "%s/dst/config.toml", tmp);
  CHECK(read_text(path, after, sizeof after) && strcmp(before, after) == 0);
  /* the value as bytes: stored as enc2: under a new key, the previous config kept */
  doc = set_secret(opts, secret, CLAWPORT_OK);
  CHECK(contains(doc, "\"stored\": \"encrypted\"") && contains(doc, "\"key_created\": true"));
  CHECK(contains(doc, "\"path\": \"providers.models.anthropic.main.api_key\""));
  CHECK(contains(doc, "\"backup\": \"") && contains(doc, "/.secret_key\""));
  clawport_free(doc);
  CHECK(read_text(path, after, sizeof after) && strstr(after, secret) == NULL);
  CHECK(strstr(after, "api_key = \"enc2:") != NULL);
  snprintf(path, sizeof path, "%s/dst/.secret_key", tmp);
  CHECK(exists(path));
  snprintf(opts, sizeof opts, "{\"config\": \"%s/dst/config.toml\"}", tmp);
  doc = run(clawport_secrets_list, opts, NULL, CLAWPORT_OK, "secrets list after set");
  CHECK(contains(doc, "\"state\": \"encrypted\""));
  clawport_free(doc);
  snprintf(opts, sizeof opts,
           "{\"config\": \"%s/dst/config.toml\", \"path\": \"x\", \"value\": \"s\"}", tmp);
  doc = set_secret(opts, secret, CLAWPORT_INVALID_ARGUMENT); /* never in the options */
}

static void test_export_verify_import(void) {
  char opts[8192], path[1024], integrity[128];
  char* doc;
  const char* at;
  snprintf(opts, sizeof opts,
           "{\"alias\": \"researcher\", \"config\": \"%s/examples/zeroclaw-install/config.toml\","
           " \"out\": \"%s/bundle\", \"dry-run\": true}",
           repo, tmp);
  doc = run(clawport_export, opts, NULL, CLAWPORT_OK, "dry run");
  CHECK(contains(doc, "\"dry_run\": true"));
  clawport_free(doc);
  snprintf(path, sizeof path, "%s/bundle", tmp);
  CHECK(!exists(path));

  snprintf(opts, sizeof opts,
           "{\"alias\": \"researcher\", \"config\": \"%s/examples/zeroclaw-install/config.toml\","
           " \"out\": \"%s/bundle\", \"no-sync\": true}",
           repo, tmp);
  doc = run(clawport_export, opts, NULL, CLAWPORT_OK, "export");
  CHECK(contains(doc, "\"alias\": \"researcher\"") && contains(doc, "\"dry_run\": false"));
  clawport_free(doc);
  /* a second export to the same place without force: refused */
  doc = run(clawport_export, opts, NULL, CLAWPORT_DESTINATION_REFUSED, "export again");

  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\"}", tmp);
  doc = run(clawport_verify, opts, NULL, CLAWPORT_OK, "verify");
  CHECK(contains(doc, "\"ok\": true"));
  clawport_free(doc);
  /* --jobs: the same verdict on four threads; out of range or not an integer: refused */
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\", \"jobs\": 4}", tmp);
  doc = run(clawport_verify, opts, NULL, CLAWPORT_OK, "verify, 4 jobs");
  CHECK(contains(doc, "\"ok\": true"));
  clawport_free(doc);
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\", \"jobs\": 0}", tmp);
  run(clawport_verify, opts, NULL, CLAWPORT_INVALID_ARGUMENT, "verify, 0 jobs");
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\", \"jobs\": \"2\"}", tmp);
  run(clawport_verify, opts, NULL, CLAWPORT_INVALID_ARGUMENT, "verify, jobs as text");

  snprintf(path, sizeof path, "%s/dst", tmp);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/dst/config.toml", tmp);
  write_file(path, "schema_version = 3\n");
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\", \"config\": \"%s/dst/config.toml\"}",
           tmp, tmp);
  doc = run(clawport_import_plan, opts, NULL, CLAWPORT_OK, "import plan");
  at = doc != NULL ? strstr(doc, "\"plan_integrity\": \"") : NULL;
  CHECK(at != NULL);
  integrity[0] = '\0';
  if (at != NULL) sscanf(at + strlen("\"plan_integrity\": \""), "%127[^\"]", integrity);
  clawport_free(doc);
  snprintf(path, sizeof path, "%s/dst", tmp);
  CHECK(entries(path) == 1);

  snprintf(opts, sizeof opts,
           "{\"bundle\": \"%s/bundle\", \"config\": \"%s/dst/config.toml\","
           " \"plan-integrity\": \"sha256:00\"}",
           tmp, tmp);
  doc = run(clawport_import_apply, opts, NULL, CLAWPORT_PLAN_INTEGRITY_MISMATCH, "stale integrity");
  CHECK(entries(path) == 1);
  snprintf(opts, sizeof opts,
           "{\"bundle\": \"%s/bundle\", \"config\": \"%s/dst/config.toml\","
           " \"plan-integrity\": \"%s\", \"jobs\": 3}",
           tmp, tmp, integrity);
  doc = run(clawport_import_apply, opts, NULL, CLAWPORT_OK, "import apply");
  CHECK(contains(doc, "\"applied\": true"));
  clawport_free(doc);
  CHECK(entries(path) > 1);

  /* issue 45 item 2: the hand-off, read through the ABI as `secrets list` and `status` */
  snprintf(opts, sizeof opts, "{\"config\": \"%s/dst/config.toml\"}", tmp);
  doc = run(clawport_secrets_list, opts, NULL, CLAWPORT_OK, "secrets list");
  CHECK(contains(doc, "\"path\": \"providers.models.anthropic.main.api_key\""));
  CHECK(contains(doc, "\"state\": \"blank\""));
  clawport_free(doc);
  doc = run(clawport_install_status, opts, NULL, CLAWPORT_OK, "status");
  CHECK(contains(doc, "\"alias\": \"researcher\"") && contains(doc, "\"source_alias\""));
  CHECK(contains(doc, "\"blank_secrets\"") && contains(doc, "\"pending\": true"));
  clawport_free(doc);
  test_secrets_set();
  snprintf(opts, sizeof opts, "{\"config\": \"%s/dst/config.toml\", \"agent\": \"x\"}", tmp);
  run(clawport_install_status, opts, NULL, CLAWPORT_INVALID_ARGUMENT, "status, unknown option");
}

/* The plan_integrity of a plan document into `out` (empty when there is none). */
static void integrity_of(const char* doc, char out[128]) {
  const char* at = doc != NULL ? strstr(doc, "\"plan_integrity\": \"") : NULL;
  out[0] = '\0';
  if (at != NULL) sscanf(at + strlen("\"plan_integrity\": \""), "%127[^\"]", out);
}

/* A new install `name` under tmp holding only config.toml; its config path into `config`. */
static void fresh_install(const char* name, char config[1024]) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s/%s", tmp, name);
  mkdir(dir, 0755);
  snprintf(config, 1024, "%s/config.toml", dir);
  write_file(config, "schema_version = 3\n");
}

/* Issue 45 item 1: export signs ("sign"), verify checks the signature ("allowed-signers",
 * "signer") and import requires it ("require-signature"), with a key ssh-keygen makes here;
 * the documents say "signed", "signed_by", "authenticated" as the CLI's --json does. */
static void test_signed(void) {
  char cmd[2048], opts[8192], pub[1024], line[1200], config[1024], path[1024], integrity[128];
  char* doc;
  FILE* f;
  if (access("/usr/bin/ssh-keygen", X_OK) != 0) {
    fprintf(stderr, "SKIPPED the signing checks: /usr/bin/ssh-keygen is not installed\n");
    return;
  }
  snprintf(cmd, sizeof cmd,
           "ssh-keygen -q -t ed25519 -N '' -C alice -f '%s/alice' </dev/null >/dev/null 2>&1", tmp);
  CHECK(system(cmd) == 0);
  snprintf(path, sizeof path, "%s/alice.pub", tmp);
  f = fopen(path, "r");
  CHECK(f != NULL);
  pub[0] = '\0';
  if (f != NULL) {
    CHECK(fgets(pub, sizeof pub, f) != NULL);
    fclose(f);
  }
  snprintf(line, sizeof line, "alice@example.org %s", pub);
  snprintf(path, sizeof path, "%s/allowed", tmp);
  write_file(path, line);

  snprintf(opts, sizeof opts,
           "{\"alias\": \"researcher\", \"config\": \"%s/examples/zeroclaw-install/config.toml\","
           " \"out\": \"%s/signed\", \"no-sync\": true, \"sign\": \"%s/alice\"}",
           repo, tmp, tmp);
  doc = run(clawport_export, opts, NULL, CLAWPORT_OK, "signed export");
  CHECK(contains(doc, "\"signed\": true"));
  clawport_free(doc);

  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/signed\", \"allowed-signers\": \"%s\"}", tmp,
           path);
  doc = run(clawport_verify, opts, NULL, CLAWPORT_OK, "verify signed");
  CHECK(contains(doc, "\"ok\": true") && contains(doc, "\"authenticated\": true"));
  CHECK(contains(doc, "\"signed\": true"));
  CHECK(contains(doc, "\"signed_by\": \"alice@example.org\""));
  clawport_free(doc);
  snprintf(
      opts, sizeof opts,
      "{\"bundle\": \"%s/signed\", \"allowed-signers\": \"%s\", \"signer\": \"bob@example.org\"}",
      tmp, path);
  doc = run(clawport_verify, opts, NULL, CLAWPORT_OK, "verify for another signer");
  CHECK(contains(doc, "\"ok\": false") && contains(doc, "signer_untrusted"));
  CHECK(contains(doc, "\"signed_by\": null"));
  clawport_free(doc);
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\", \"allowed-signers\": \"%s\"}", tmp,
           path);
  doc = run(clawport_verify, opts, NULL, CLAWPORT_OK, "verify unsigned");
  CHECK(contains(doc, "\"ok\": false") && contains(doc, "\"signed\": false"));
  CHECK(contains(doc, "\"code\": \"unsigned\""));
  clawport_free(doc);
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/signed\", \"signer\": \"alice@example.org\"}",
           tmp);
  run(clawport_verify, opts, NULL, CLAWPORT_INVALID_ARGUMENT, "signer alone");

  fresh_install("trusting", config);
  snprintf(opts, sizeof opts,
           "{\"bundle\": \"%s/signed\", \"config\": \"%s\", \"require-signature\": true,"
           " \"allowed-signers\": \"%s\", \"signer\": \"alice@example.org\"}",
           tmp, config, path);
  doc = run(clawport_import_plan, opts, NULL, CLAWPORT_OK, "signed import plan");
  CHECK(contains(doc, "\"signed_by\": \"alice@example.org\""));
  integrity_of(doc, integrity);
  clawport_free(doc);
  snprintf(opts, sizeof opts,
           "{\"bundle\": \"%s/signed\", \"config\": \"%s\", \"require-signature\": true,"
           " \"allowed-signers\": \"%s\", \"plan-integrity\": \"%s\"}",
           tmp, config, path, integrity);
  doc = run(clawport_import_apply, opts, NULL, CLAWPORT_OK, "signed import apply");
  CHECK(contains(doc, "\"applied\": true") && contains(doc, "alice@example.org"));
  clawport_free(doc);

  /* an unsigned bundle where a signature is required: refused, nothing written */
  fresh_install("refusing", config);
  snprintf(opts, sizeof opts,
           "{\"bundle\": \"%s/bundle\", \"config\": \"%s\", \"require-signature\": true,"
           " \"allowed-signers\": \"%s\"}",
           tmp, config, path);
  run(clawport_import_plan, opts, NULL, CLAWPORT_NOT_SIGNED, "unsigned import");
  snprintf(opts, sizeof opts,
           "{\"bundle\": \"%s/signed\", \"config\": \"%s\", \"allowed-signers\": \"%s\"}", tmp,
           config, path);
  run(clawport_import_plan, opts, NULL, CLAWPORT_INVALID_ARGUMENT, "allowed-signers alone");
  snprintf(path, sizeof path, "%s/refusing", tmp);
  CHECK(entries(path) == 1);
}

static void test_tampered(void) {
  char opts[8192], path[1024];
  char* doc;
  snprintf(path, sizeof path, "%s/bundle/workspace/IDENTITY.md", tmp);
  write_file(path, "# someone else\n");
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\"}", tmp);
  doc = run(clawport_verify, opts, NULL, CLAWPORT_OK, "verify tampered");
  CHECK(contains(doc, "\"ok\": false"));
  clawport_free(doc);
  snprintf(path, sizeof path, "%s/dst2", tmp);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/dst2/config.toml", tmp);
  write_file(path, "schema_version = 3\n");
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\", \"config\": \"%s\"}", tmp, path);
  doc = run(clawport_import_plan, opts, NULL, CLAWPORT_BUNDLE_INVALID, "import tampered");
  snprintf(path, sizeof path, "%s/dst2", tmp);
  CHECK(entries(path) == 1);
}

static void test_cancel(void) {
  char opts[8192], path[1024];
  volatile int cancel = 1;
  snprintf(opts, sizeof opts,
           "{\"alias\": \"researcher\", \"config\": \"%s/examples/zeroclaw-install/config.toml\","
           " \"out\": \"%s/cancelled/bundle\"}",
           repo, tmp);
  snprintf(path, sizeof path, "%s/cancelled", tmp);
  mkdir(path, 0755);
  run(clawport_export, opts, &cancel, CLAWPORT_CANCELLED, "cancelled export");
  CHECK(entries(path) == 0);
  snprintf(opts, sizeof opts,
           "{\"source\": \"%s/examples/openclaw-claw\", \"to\": \"zeroclaw\","
           " \"out\": \"%s/cancelled/conv\"}",
           repo, tmp);
  run(clawport_convert, opts, &cancel, CLAWPORT_CANCELLED, "cancelled convert");
  CHECK(entries(path) == 0);
}

static void test_other_operations(void) {
  char opts[8192];
  char* doc;
  snprintf(
      opts, sizeof opts,
      "{\"dirs\": [\"%s/examples/zeroclaw-install/shared/skills/research_tools/arxiv_search\"]}",
      repo);
  doc = run(clawport_skills_audit, opts, NULL, CLAWPORT_OK, "skills audit");
  CHECK(contains(doc, "\"findings\""));
  clawport_free(doc);
  snprintf(opts, sizeof opts,
           "{\"config\": \"%s/examples/zeroclaw-install/config.toml\", \"agent\": \"researcher\"}",
           repo);
  doc = run(clawport_skills_list, opts, NULL, CLAWPORT_OK, "skills list");
  CHECK(contains(doc, "researcher"));
  clawport_free(doc);
  snprintf(opts, sizeof opts, "{\"package\": \"%s/examples/openclaw-claw\"}", repo);
  doc = run(clawport_claw_inspect, opts, NULL, CLAWPORT_OK, "claw inspect");
  CHECK(contains(doc, "openclaw.clawInspect.v1"));
  clawport_free(doc);
  snprintf(opts, sizeof opts,
           "{\"package\": \"%s/examples/openclaw-claw\", \"state-dir\": \"%s/openclaw\","
           " \"without-packages\": true}",
           repo, tmp);
  doc = run(clawport_claw_plan, opts, NULL, CLAWPORT_OK, "claw plan");
  CHECK(contains(doc, "openclaw.clawAddPlan.v1"));
  clawport_free(doc);
  snprintf(opts, sizeof opts,
           "{\"source\": \"%s/examples/openclaw-claw\", \"to\": \"zeroclaw\", \"out\": \"%s/conv\","
           " \"dry-run\": true}",
           repo, tmp);
  doc = run(clawport_convert, opts, NULL, CLAWPORT_OK, "convert dry run");
  CHECK(contains(doc, "\"dry_run\": true"));
  clawport_free(doc);
  snprintf(opts, sizeof opts, "{\"dir\": \"%s/bundle\"}", tmp);
  doc = run(clawport_recover, opts, NULL, CLAWPORT_OK, "recover");
  CHECK(contains(doc, "\"restored\""));
  clawport_free(doc);
}

static void* verify_thread(void* arg) {
  char opts[8192];
  int i;
  (void)arg;
  snprintf(opts, sizeof opts, "{\"bundle\": \"%s/bundle\"}", tmp);
  for (i = 0; i < 3; ++i) clawport_free(run(clawport_verify, opts, NULL, CLAWPORT_OK, "thread"));
  return NULL;
}

static void test_threads(void) {
  pthread_t a, b;
  CHECK(pthread_create(&a, NULL, verify_thread, NULL) == 0);
  CHECK(pthread_create(&b, NULL, verify_thread, NULL) == 0);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
}

int main(int argc, char** argv) {
  char cmd[512];
  if (argc != 2 || strlen(argv[1]) >= sizeof repo) {
    fprintf(stderr, "usage: %s <repository root>\n", argv[0]);
    return 2;
  }
  strcpy(repo, argv[1]);
  strcpy(tmp, "/tmp/clawport-c-test-XXXXXX");
  if (mkdtemp(tmp) == NULL) return 2;
  test_abi();
  test_bad_options();
  test_nul_refused();
  test_export_verify_import();
  test_signed();
  test_threads();
  test_other_operations();
  test_tampered();
  test_cancel();
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (system(cmd) != 0) ++failures;
  if (failures != 0) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf("clawport C ABI test: all checks passed\n");
  return 0;
}
