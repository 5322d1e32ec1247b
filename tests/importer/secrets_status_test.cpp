// SPDX-License-Identifier: MIT
// After an import: `status` (provenance, blank secrets, leftovers) and `secrets list`/`set`
// (enc2: in place, references kept, refusals that write nothing).
#include "importer/rig.hpp"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

TEST_CASE("issue 27 item 2: status after an import: provenance, blank secrets, nothing written") {
  import_rig r;
  const auto p = r.plan(r.opts());
  r.apply(r.opts());
  const auto before = r.m().snapshot("/dst");
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  CHECK(r.m().snapshot("/dst") == before);
  REQUIRE(st.agents.size() == 1);
  CHECK(st.agents[0].alias == "researcher");
  REQUIRE(st.agents[0].imported.has_value());
  CHECK(st.agents[0].imported->manifest_sha256 == cp::digest::prefixed(p.manifest_sha256));
  CHECK(st.agents[0].imported->source_alias == "researcher");
  CHECK(st.agents[0].imported->bundle == "/b");
  CHECK(st.agents[0].imported->producer == p.producer);
  REQUIRE(st.blank_secrets.size() == 1);
  CHECK(st.blank_secrets[0].path == "providers.models.anthropic.main.api_key");
  CHECK(st.blank_secrets[0].source == "import");
  CHECK_FALSE(st.invalid);
  CHECK(st.leftovers.empty());
  CHECK(st.pending());

  // Supplied: nothing pending.
  std::string config = r.m().read_file("/dst/config.toml");
  const std::size_t blank = config.find("api_key = \"\"");
  REQUIRE(blank != std::string::npos);
  config.replace(blank, 12, "api_key = \"sk-set\"");
  r.m().write_file("/dst/config.toml", config);
  CHECK_FALSE(im::read_status(r.f, "/dst/config.toml").pending());
}

TEST_CASE("issue 27 item 2: status lists leftovers with their recover line, not look-alikes") {
  import_rig r;
  r.m().mkdirs("/dst/agents/a/.clawport-import-0123456789ab-workspace");
  r.m().mkdirs("/dst/agents/.clawport-import-notatoken");  // not a name an import makes
  r.m().write_file("/dst/.config.toml.tmp-AbC123", "x");
  r.m().write_file("/dst/.notes.tmp-AbC123", "x");  // beside some other file: not ours
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  REQUIRE(st.leftovers.size() == 2);
  CHECK(st.leftovers[0].path == "/dst/.config.toml.tmp-AbC123");
  CHECK(st.leftovers[0].command.str() == "clawport recover /dst/config.toml");
  CHECK(st.leftovers[1].path == "/dst/agents/a/.clawport-import-0123456789ab-workspace");
  CHECK(st.leftovers[1].command.str() == "clawport recover /dst/agents/a/workspace");
  CHECK(st.pending());
}

TEST_CASE("issue 27 item 2: status of an invalid config names the problem; no config refused") {
  import_rig r(
      "schema_version = 3\n\n# Imported by clawport by hand: agent `mine`\n"
      "[agents.mine]\nrisk_profile = \"missing\"\n");
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  REQUIRE(st.invalid.has_value());
  CHECK(st.invalid->path.rfind("agents.mine.", 0) == 0);
  REQUIRE(st.agents.size() == 1);
  CHECK_FALSE(st.agents[0].imported.has_value());  // a hand-written look-alike is not read
  CHECK(st.pending());
  CHECK(im::to_json(st)["valid"] == false);
  try {
    (void)im::read_status(r.f, "/dst/none.toml");
    FAIL("a missing config was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
  }
}

/// A stand-in for the cipher policy in unit tests, so they need no libsodium: the real one
/// is checked by tests/cli/secrets.sh against an independent decryptor. "Sealing" reverses
/// the text and appends a zero tag; random bytes count up.
struct fake_cipher {
  static constexpr std::size_t key_bytes = 32;
  static constexpr std::size_t nonce_bytes = 12;
  unsigned char next = 0;
  void random(unsigned char* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = next++;
  }
  std::string seal(std::string_view plain, const unsigned char*, const unsigned char*) {
    return std::string(plain.rbegin(), plain.rend()) + std::string(16, '\0');
  }
};

std::string hex_of(std::string_view bytes) {
  static constexpr char d[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out += d[static_cast<unsigned char>(c) >> 4];
    out += d[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

TEST_CASE("issue 27 item 3: secrets set writes enc2: in place, creates the key, keeps the rest") {
  import_rig r;
  r.apply(r.opts());
  r.m().chmod("/dst/config.toml", 0640);
  const std::string before = r.m().read_file("/dst/config.toml");
  const std::string path = "providers.models.anthropic.main.api_key";
  CHECK(im::list_secrets(cp::zeroclaw::parse_toml(before, "c"))[0].state ==
        im::secret_state::blank);
  fake_cipher cipher;
  const auto res =
      im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk-1", cp::timestamp{1786600000, 0});
  CHECK(res.stored == im::secret_state::encrypted);
  CHECK(res.key_created);
  // The key: 32 random bytes (0..31 here) as hex, mode 0600; the nonce the next 12.
  std::string key_bytes, nonce_bytes;
  for (int i = 0; i < 32; ++i) key_bytes += static_cast<char>(i);
  for (int i = 32; i < 44; ++i) nonce_bytes += static_cast<char>(i);
  CHECK(r.m().read_file("/dst/.secret_key") == hex_of(key_bytes));
  CHECK(r.m().lstat("/dst/.secret_key")->mode == 0600);
  const std::string stored =
      "enc2:" + hex_of(nonce_bytes) + hex_of(std::string("1-ks") + std::string(16, '\0'));
  // Only the value's bytes changed; mode kept; no backup: the field was blank (issue 44
  // item 8: nothing is lost, so none of 12 files after a hand-off).
  std::string expected = before;
  const std::size_t at = expected.find("api_key = \"\"");
  REQUIRE(at != std::string::npos);
  expected.replace(at, 12, "api_key = \"" + stored + "\"");
  CHECK(r.m().read_file("/dst/config.toml") == expected);
  CHECK(r.m().lstat("/dst/config.toml")->mode == 0640);
  CHECK(res.was_blank);
  CHECK(res.backup.empty());
  CHECK_FALSE(r.m().exists(
      "/dst/" + cp::zeroclaw::config_backup_name("config.toml", cp::timestamp{1786600000, 0})));
  const auto listed = im::list_secrets(cp::zeroclaw::parse_toml(expected, "c"));
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].state == im::secret_state::encrypted);

  // A second secret reuses the key (not created again).
  const auto again =
      im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk-2", cp::timestamp{1786600001, 0});
  CHECK_FALSE(again.key_created);
  CHECK(r.m().read_file("/dst/.secret_key") == hex_of(key_bytes));
  // It replaced a value: the previous config is kept, the one the value is in.
  CHECK_FALSE(again.was_blank);
  REQUIRE_FALSE(again.backup.empty());
  CHECK(r.m().read_file(again.backup) == expected);
}

TEST_CASE("issue 27 item 3: a reference is kept, plain text where encrypt = false, no key") {
  import_rig r(
      "schema_version = 3\n\n[secrets]\nencrypt = false\n\n"
      "[providers.models.anthropic.work]\napi_key = ''  # later\nmodel = \"m\"\n");
  fake_cipher cipher;
  const std::string path = "providers.models.anthropic.work.api_key";
  im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk \"q\"", cp::timestamp{1786600000, 0});
  CHECK(r.m().read_file("/dst/config.toml").find("api_key = \"sk \\\"q\\\"\"  # later\n") !=
        std::string::npos);
  const auto ref = im::set_secret(r.f, cipher, "/dst/config.toml", path, "op://v/i/f",
                                  cp::timestamp{1786600001, 0});
  CHECK(ref.stored == im::secret_state::reference);
  CHECK(r.m().read_file("/dst/config.toml").find("api_key = \"op://v/i/f\"  # later\n") !=
        std::string::npos);
  CHECK_FALSE(r.m().lstat("/dst/.secret_key").has_value());
}

// Issue 43 item 6: `secrets list` only reads, so it follows a symlinked config (as export
// and the skills commands do); `secrets set` replaces it, so it refuses one, naming why.
TEST_CASE("secrets list follows a symlinked config; secrets set refuses it, writing nothing") {
  import_rig r;
  r.apply(r.opts());
  const std::string text = r.m().read_file("/dst/config.toml");
  r.m().write_file("/real.toml", text);
  r.m().remove("/dst/config.toml");
  r.m().symlink("/dst/config.toml", "/real.toml");
  const auto listed = im::read_secrets(r.f, "/dst/config.toml");
  REQUIRE_FALSE(listed.empty());
  CHECK(listed[0].path == im::list_secrets(cp::zeroclaw::parse_toml(text, "c"))[0].path);
  const auto snap = r.m().snapshot("/");
  fake_cipher cipher;
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", listed[0].path, "sk-1", cp::timestamp{1, 0});
    FAIL("replaced a symlinked config");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::unsafe_path);
  }
  CHECK(r.m().snapshot("/") == snap);
  // Absent, both name the one missing-config refusal.
  CHECK_THROWS_WITH(im::read_secrets(r.f, "/none/config.toml"),
                    cp::zeroclaw::missing_config_error("/none/config.toml").what());
}

TEST_CASE("issue 27 item 3: secrets set refusals write nothing") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.anthropic.work]\n"
      "api_key = \"\"\"\n\"\"\"\nmodel = \"m\"\n\n"
      "[providers.models.anthropic.main]\napi_key = \"\"\nmodel = \"m\"\n");
  fake_cipher cipher;
  const auto before = r.m().snapshot("/dst");
  const auto refused = [&](const std::string& path, const std::string& value, cp::errc want) {
    try {
      im::set_secret(r.f, cipher, "/dst/config.toml", path, value, cp::timestamp{1786600000, 0});
      FAIL("accepted " << path);
    } catch (const cp::error& e) {
      CHECK(e.code() == want);
    }
    CHECK(r.m().snapshot("/dst") == before);
  };
  refused("providers.models.anthropic.main.api_key", "", cp::errc::invalid_argument);
  refused("providers.models.anthropic.main.api_key", "enc2:00", cp::errc::invalid_argument);
  refused("providers.models.anthropic.main.model", "x", cp::errc::not_found);
  refused("providers.models.anthropic.nope.api_key", "x", cp::errc::not_found);
  // A multi-line string: clawport cannot replace just its value.
  refused("providers.models.anthropic.work.api_key", "x", cp::errc::config_invalid);
  r.m().write_file("/dst/.secret_key", "not hex\n", 0600);
  const auto with_bad_key = r.m().snapshot("/dst");
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", "providers.models.anthropic.main.api_key", "x",
                   cp::timestamp{1786600000, 0});
    FAIL("a bad key file was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::config_invalid);
  }
  CHECK(r.m().snapshot("/dst") == with_bad_key);
}

TEST_CASE("issue 44 item 8: secrets set adds a missing api_key line; no backup when asked") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.openai.main]\nmodel = \"m\"\n\n"
      "[providers.models.anthropic.main]\napi_key = \"\"\nmodel = \"m\"\n");
  const std::string path = "providers.models.openai.main.api_key";
  // Not listed (status does not count an absent optional key as blank), yet a secret field.
  const std::string before = r.m().read_file("/dst/config.toml");
  for (const auto& e : im::list_secrets(cp::zeroclaw::parse_toml(before, "c")))
    CHECK(e.path != path);
  CHECK_NOTHROW(im::require_secret_field(r.f, "/dst/config.toml", path));
  fake_cipher cipher;
  const auto res = im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk-1",
                                  cp::timestamp{1786600000, 0}, false);
  CHECK(res.backup.empty());  // keep_backup false: the caller kept one for its run
  const std::string after = r.m().read_file("/dst/config.toml");
  CHECK(after.find("[providers.models.openai.main]\napi_key = \"enc2:") != std::string::npos);
  CHECK(after.find("model = \"m\"") != std::string::npos);
  bool listed = false;
  for (const auto& e : im::list_secrets(cp::zeroclaw::parse_toml(after, "c")))
    listed = listed || (e.path == path && e.state == im::secret_state::encrypted);
  CHECK(listed);
  CHECK_FALSE(r.m().exists(
      "/dst/" + cp::zeroclaw::config_backup_name("config.toml", cp::timestamp{1786600000, 0})));
  // A field the schema does not mark secret is still refused.
  CHECK_THROWS_AS(
      im::require_secret_field(r.f, "/dst/config.toml", "providers.models.openai.main.nope"),
      cp::error);
}

TEST_CASE("issue 41 items 11, 12, 14: the field first, no second key, channel tokens listed") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.anthropic.main]\n"
      "api_key = \"enc2:00112233\"\nmodel = \"m\"\n\n[providers.models.openai.cheap]\n"
      "api_key = \"\"\nmodel = \"m\"\n\n[channels.telegram.work]\nenabled = true\nbot_token = "
      "\"\"\n");
  fake_cipher cipher;
  const auto before = r.m().snapshot("/dst");
  // 12: a wrong field is named even with an empty value (it is checked first).
  try {
    im::require_secret_field(r.f, "/dst/config.toml", "providers.nope.api_key");
    FAIL("a wrong field was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
    CHECK(e.subject() == "providers.nope.api_key");
  }
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", "providers.nope.api_key", "",
                   cp::timestamp{1786600000, 0});
    FAIL("a wrong field was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
  }
  // 11: enc2: values and no key: refused naming the key file; no key made.
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", "providers.models.openai.cheap.api_key", "x",
                   cp::timestamp{1786600000, 0});
    FAIL("a second key was made");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
    CHECK(e.subject() == "/dst/.secret_key");
    CHECK(std::string(e.what()).find("1 value(s) of the config are encrypted") == 0);
  }
  CHECK(r.m().snapshot("/dst") == before);
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  CHECK(st.encrypted_without_key == 1);
  CHECK(st.pending());
  CHECK(im::render_status(st).find("1 value(s) are encrypted and the key is missing") !=
        std::string::npos);
  // 14: the blank channel token is a secret field for list, set and status alike.
  bool listed = false;
  for (const auto& e :
       im::list_secrets(cp::zeroclaw::parse_toml(r.m().read_file("/dst/config.toml"), "c")))
    listed |= e.path == "channels.telegram.work.bot_token" && e.state == im::secret_state::blank;
  CHECK(listed);
  bool reported = false;
  for (const auto& b : st.blank_secrets) reported |= b.path == "channels.telegram.work.bot_token";
  CHECK(reported);
}
