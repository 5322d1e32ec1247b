// SPDX-License-Identifier: MIT
// `clawport secrets list` / `secrets set` (docs/cli.md): the secret fields of an install's
// config and their state (never their values), and supplying one as ZeroClaw stores it
// (ZeroClaw's secrets.rs): `enc2:<hex of nonce(12) | ciphertext | tag(16)>`, ChaCha20-
// Poly1305 under the 32-byte key that `<config dir>/.secret_key` holds as hex (created,
// mode 0600, when absent, as ZeroClaw does on its first save); plain text where
// `[secrets] encrypt = false`; an `op://` reference kept as given. The cryptography is the
// `Cipher` policy's (crypto/sodium.hpp: libsodium), never this file's. Only the value's
// bytes change: the config is rewritten by zeroclaw::rewrite_config (backup, mode kept),
// and the result must parse to the config with that one field changed.
#pragma once

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/time.hpp"
#include "../formats/toml_writer.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "../publish/names.hpp"
#include "../publish/rename.hpp"
#include "../publish/replace_file.hpp"
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/config_file.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/parse.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "plan.hpp"

#include <toml++/toml.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

/// The key file beside the config, as ZeroClaw names it.
inline constexpr std::string_view secret_key_file = ".secret_key";

/// What a secret field holds, as `secrets list` shows it.
enum class secret_state { blank, set, encrypted, reference };

inline constexpr std::string_view secret_state_names[] = {"blank", "set", "encrypted", "reference"};
constexpr std::string_view to_string(secret_state s) noexcept {
  return wire_name<secret_state::reference>(s, secret_state_names, "unknown");
}

inline secret_state state_of(std::string_view v) noexcept {
  if (v.empty()) return secret_state::blank;
  if (v.rfind("enc2:", 0) == 0 || v.rfind("enc:", 0) == 0) return secret_state::encrypted;
  if (v.rfind("op://", 0) == 0) return secret_state::reference;
  return secret_state::set;
}

/// One secret field of the config (a string, or one value of a secret map).
struct secret_entry {
  std::string path;
  secret_state state = secret_state::blank;
};

namespace secrets_detail {

namespace zc = clawport::zeroclaw;

/// Every secret field of `table` with its state; a map's values one by one.
inline void secrets_of(const zc::value& table, zc::list_view<zc::field> fields,
                       const std::string& prefix, std::vector<secret_entry>& out) {
  zc::for_each_secret_field(table, fields, prefix,
                            [&](const std::string& path, const zc::value& v) {
                              if (v.is_string()) out.push_back({path, state_of(v.text)});
                              for (const zc::member& m : v.members)
                                if (m.val.is_string())
                                  out.push_back({path + "." + m.key, state_of(m.val.text)});
                            });
}

/// The node at `path` in toml++'s document (arrays of tables addressed by `name`, as
/// zeroclaw::element_segment names them); nullptr when there is none.
inline const toml::node* node_at(const toml::table& doc, std::string_view path) {
  const toml::node* cur = &doc;
  std::size_t start = 0;
  while (cur != nullptr) {
    const std::size_t dot = path.find('.', start);
    const std::string key(path.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (const toml::table* t = cur->as_table()) {
      cur = t->get(key);
    } else if (const toml::array* a = cur->as_array()) {
      const toml::node* found = nullptr;
      for (const toml::node& e : *a)
        if (const toml::table* et = e.as_table())
          if (const auto* n = et->get_as<std::string>("name"); n && n->get() == key) found = &e;
      cur = found;
    } else {
      return nullptr;
    }
    if (dot == std::string_view::npos) return cur;
    start = dot + 1;
  }
  return nullptr;
}

/// The byte offset of a toml++ position (1-based line, column in code points).
inline std::optional<std::size_t> offset_of(std::string_view text, const toml::source_position& p) {
  std::size_t at = 0;
  for (toml::source_index line = 1; line < p.line; ++line) {
    at = text.find('\n', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  for (toml::source_index col = 1; col < p.column; ++col) {
    if (at >= text.size()) return std::nullopt;
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  }
  return at;
}

/// The length of the single-line TOML string literal at the start of `text` (basic
/// `"…"` with escapes, or literal `'…'`); nullopt for anything else (a multi-line string).
inline std::optional<std::size_t> string_token(std::string_view text) {
  if (text.empty() || (text[0] != '"' && text[0] != '\'')) return std::nullopt;
  const char q = text[0];
  if (text.substr(0, 3) == std::string(3, q)) return std::nullopt;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] == '\n') return std::nullopt;
    if (q == '"' && text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == q) return i + 1;
  }
  return std::nullopt;
}

/// The value at the config path `path`: tables by key, arrays of tables by
/// zeroclaw::element_segment (a server's `name`), as required_secrets names them; nullptr
/// when there is none.
template <class Value>
Value* value_at(Value& config, std::string_view path) {
  Value* cur = &config;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    const std::string key(path.substr(start, dot == std::string_view::npos ? dot : dot - start));
    Value* next = nullptr;
    if (cur->is_table()) {
      next = cur->find(key);
    } else if (cur->is_array()) {
      for (std::size_t i = 0; i < cur->items.size() && next == nullptr; ++i)
        if (zc::element_segment(cur->items[i], i) == key) next = &cur->items[i];
    }
    if (next == nullptr || dot == std::string_view::npos) return next;
    cur = next;
    start = dot + 1;
  }
}

/// `config` with the string at `path` replaced by `stored` (the value-tree twin of the
/// text edit, for the check that nothing else changed); false when there is none.
inline bool set_in(zc::value& config, std::string_view path, const std::string& stored) {
  zc::value* v = value_at(config, path);
  if (v == nullptr) {  // a missing line: the field added to its table
    const std::size_t dot = path.rfind('.');
    zc::value* table =
        dot == std::string_view::npos ? nullptr : value_at(config, path.substr(0, dot));
    if (table == nullptr || !table->is_table()) return false;
    table->set(std::string(path.substr(dot + 1)), zc::value::make_string(stored));
    return true;
  }
  if (!v->is_string()) return false;
  v->text = stored;
  return true;
}

/// The secret string fields of the entry `table` that have no line at all (a provider
/// without `api_key = ...`): `prefix` + key each. `secrets set` adds such a line.
inline void missing_of(const zc::value& table, zc::list_view<zc::field> fields,
                       const std::string& prefix, std::vector<std::string>& out) {
  if (!table.is_table()) return;
  for (const zc::field& fd : fields)
    if (fd.secret && fd.type == zc::field_type::string && table.find(fd.key) == nullptr)
      out.push_back(prefix + std::string(fd.key));
}

/// Where a line for the missing field `path` goes: just after the `[...]` header line of its
/// table (nullopt for a table without one: an inline or dotted table).
inline std::optional<std::size_t> after_header(std::string_view text, const toml::table& doc,
                                               std::string_view path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const toml::node* table = node_at(doc, path.substr(0, dot));
  if (table == nullptr || !table->is_table()) return std::nullopt;
  const std::optional<std::size_t> line = offset_of(text, {table->source().begin.line, 1});
  if (!line) return std::nullopt;
  const std::size_t first = text.find_first_not_of(" \t", *line);
  if (first == std::string_view::npos || text[first] != '[') return std::nullopt;
  const std::size_t end = text.find('\n', first);
  return end == std::string_view::npos ? text.size() : end + 1;
}

/// Lowercase hex, as secrets.rs writes it.
inline std::string hex(const unsigned char* bytes, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 0xF];
  }
  return out;
}

/// The key `.secret_key` holds: hex (either case) of exactly `n` bytes, whitespace around
/// it ignored, as secrets.rs reads it; anything else is refused naming the file.
inline std::vector<unsigned char> parse_key(std::string_view text, std::size_t n,
                                            const std::string& shown) {
  const std::size_t b = text.find_first_not_of(" \t\r\n");
  const std::size_t e = text.find_last_not_of(" \t\r\n");
  const std::string_view h = b == std::string_view::npos ? "" : text.substr(b, e - b + 1);
  const auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<unsigned char> key;
  bool ok = h.size() == 2 * n;
  for (std::size_t i = 0; ok && i < h.size(); i += 2) {
    const int hi = nibble(h[i]);
    const int lo = nibble(h[i + 1]);
    ok = hi >= 0 && lo >= 0;
    if (ok) key.push_back(static_cast<unsigned char>(hi * 16 + lo));
  }
  if (!ok)
    throw error(errc::config_invalid,
                shown + " does not hold a " + std::to_string(n) +
                    "-byte key as hex, so no secret was encrypted with it and nothing was "
                    "written; restore the install's key file (without it ZeroClaw cannot read "
                    "its encrypted secrets either)",
                shown);
  return key;
}

/// The refusal of a key that is missing while the config holds `encrypted` values sealed
/// with it: a new key could not open them, and the config would mix two keys.
inline error key_missing(const std::string& shown, std::size_t encrypted) {
  return error(errc::not_found,
               std::to_string(encrypted) + " value(s) of the config are encrypted and the key " +
                   shown +
                   " that ZeroClaw decrypts them with is missing; restore that file (a new key "
                   "could not decrypt them, and the config would mix two keys); nothing was "
                   "written",
               shown);
}

/// The install's key: `.secret_key` read (a regular file, never through a link), or
/// created when absent, as ZeroClaw does on its first save: random bytes from the cipher,
/// written as hex to a new file of mode 0600 beside it, owned as the config (`config`) is,
/// renamed into place without replacing one that appeared meanwhile (then that one is
/// used). Never created while the config holds `encrypted` > 0 values (key_missing).
template <class Fs, class Cipher>
std::vector<unsigned char> install_key(Fs& fs, Cipher& cipher, const std::string& install_root,
                                       const std::string& config_name, std::size_t encrypted,
                                       bool& created) {
  const std::string name(secret_key_file);
  const std::string shown = paths::join(install_root, name);
  auto dir = fs.open_root(install_root);
  for (int attempt = 0; attempt < 2; ++attempt) {
    const fs::read_result r = fs::try_read_file_at(fs, dir, name, 4096);
    if (r.refusal == fs::read_refusal::none) return parse_key(r.bytes, Cipher::key_bytes, shown);
    if (r.refusal != fs::read_refusal::missing)
      throw fs::read_refusal_error(r.refusal, shown, 4096);
    if (encrypted > 0) throw key_missing(shown, encrypted);
    const std::optional<fs::stat_info> config = fs.stat_at(dir, config_name);
    if (!config)
      throw error(errc::identity_changed,
                  paths::join(install_root, config_name) +
                      " disappeared while its key was being made; nothing was written",
                  shown);
    std::vector<unsigned char> key(Cipher::key_bytes);
    cipher.random(key.data(), key.size());
    const std::string tmp =
        publish::temp_file_name(publish::staging_kind::replace, name, publish::random_token());
    try {
      publish::create_owned_file(fs, dir, tmp, hex(key.data(), key.size()), fs::modes::private_file,
                                 *config, paths::join(install_root, config_name));
      fs.sync_filesystem(dir);
      if (publish::rename_noreplace(fs, dir, tmp, dir, name)) {
        fs.sync_dir(dir);
        created = true;
        return key;
      }
      fs.unlink_at(dir, tmp);  // another process created it first: use that one
    } catch (const error& e) {
      try {
        if (fs.stat_at(dir, tmp)) fs.unlink_at(dir, tmp);
      } catch (...) {
      }
      throw with_context(e, "failed to create " + shown, shown, reason_of(e));
    }
  }
  throw error(errc::identity_changed, shown + " changed while it was being created; run again",
              shown);
}

}  // namespace secrets_detail

namespace secrets_detail {

/// Calls `visit(entry table, its schema, "<entry path>.")` for every entry of the closure
/// kinds the schema knows, and every channel the schema describes.
template <class Schema, class Visit>
void for_each_entry(const zeroclaw::value& config, Visit&& visit) {
  const auto entries = [&](const zeroclaw::entry_kind& k, const auto& schema_of) {
    for (const auto& [name, val] : zeroclaw::entries_of(config, k)) {
      const zeroclaw::entry_schema* s = schema_of(name);
      if (s != nullptr) visit(*val, *s, zeroclaw::entry_path(k, name) + ".");
    }
  };
  for (const zeroclaw::entry_kind& k : zeroclaw::entry_kinds)
    entries(k,
            [&k](const std::string& name) { return zeroclaw::entry_schema_of<Schema>(k, name); });
  if constexpr (zeroclaw::schema_detail::has_channel<Schema>::value) {
    static constexpr zeroclaw::entry_kind channels{"channel", zeroclaw::ref_target::channel,
                                                   "channels", true};
    entries(channels, [](const std::string& name) {
      return Schema::channel(name.substr(0, name.find('.')));
    });
  }
}

}  // namespace secrets_detail

/// Every secret field the config holds (entries of the closure kinds the schema knows, and
/// the credentials of its channels where the schema describes them), with its state: the
/// one list `secrets list`, `secrets set` and `status` read. Pure.
template <class Schema = zeroclaw::schema_v3>
std::vector<secret_entry> list_secrets(const zeroclaw::value& config) {
  std::vector<secret_entry> out;
  secrets_detail::for_each_entry<Schema>(
      config, [&](const zeroclaw::value& v, const zeroclaw::entry_schema& s, const std::string& p) {
        secrets_detail::secrets_of(v, s.fields, p, out);
        secrets_detail::secrets_of(v, s.extra, p, out);
      });
  return out;
}

/// The secret fields of the config's entries that have no line (`secrets set` adds it);
/// not in `list_secrets`, so `status` does not count an absent optional key as blank. Pure.
template <class Schema = zeroclaw::schema_v3>
std::vector<std::string> missing_secret_fields(const zeroclaw::value& config) {
  std::vector<std::string> out;
  secrets_detail::for_each_entry<Schema>(
      config, [&](const zeroclaw::value& v, const zeroclaw::entry_schema& s, const std::string& p) {
        secrets_detail::missing_of(v, s.fields, p, out);
      });
  return out;
}

/// The config at `config_path` (absolute) that `secrets set` will replace, read by the rule
/// of a command that replaces it (zeroclaw::read_config_to_replace: a symlink or a second
/// hard link refused) and parsed; its text in `text`. A command that only reads the config
/// follows a symlink instead (`read_secrets`, zeroclaw::read_install_config).
template <class Fs>
zeroclaw::value read_config_to_edit(Fs& fs, const std::string& config_path, std::string& text) {
  const std::string root = zeroclaw::install_root_of(config_path);
  const std::optional<std::string> t = detail::read_config(fs, root, paths::file_name(config_path));
  if (!t) throw zeroclaw::missing_config_error(config_path);
  text = *t;
  return zeroclaw::parse_toml(text, config_path);
}

/// `secrets list`: every secret field of the config at `config_path` and its state. Only
/// reads, so a symlinked config is followed (zeroclaw::read_existing_install_config).
template <class Fs, class Schema = zeroclaw::schema_v3>
std::vector<secret_entry> read_secrets(Fs& fs, const std::string& config_path) {
  const std::string text = zeroclaw::read_existing_install_config(fs, config_path);
  return list_secrets<Schema>(zeroclaw::parse_toml(text, config_path));
}

/// Refuses (errc::not_found, naming `secrets list`) a `path` that is not a secret field
/// `config` (read from `config_path`) holds. Pure.
template <class Schema = zeroclaw::schema_v3>
void check_secret_field(const zeroclaw::value& config, const std::string& config_path,
                        const std::string& path) {
  for (const secret_entry& e : list_secrets<Schema>(config))
    if (e.path == path) return;
  for (const std::string& missing : missing_secret_fields<Schema>(config))
    if (missing == path) return;  // a secret field whose line is missing: set adds it
  throw error(errc::not_found,
              path + " is not a secret field of " + config_path +
                  "; `clawport secrets list` shows them (a field that is not secret is set "
                  "with `zeroclaw config set`); nothing was written",
              path);
}

/// check_secret_field on the config at `config_path` (absolute): what `secrets set` asks
/// before it reads a value, so a wrong field is named before any input is read.
template <class Fs, class Schema = zeroclaw::schema_v3>
void require_secret_field(Fs& fs, const std::string& config_path, const std::string& path) {
  std::string text;
  check_secret_field<Schema>(read_config_to_edit(fs, config_path, text), config_path, path);
}

/// What `set_secret` wrote.
struct set_secret_result {
  std::string config;
  std::string backup;
  std::string path;
  secret_state stored = secret_state::set;  ///< encrypted, reference, or set (plain text)
  std::string key_file;                     ///< the key used ("" for plain or a reference)
  bool key_created = false;
  /// The field was blank (or its line missing) before: the change loses nothing, so no
  /// backup was kept (issue 44 item 8).
  bool was_blank = false;
};

/// The text `value` takes in the config: an `op://` reference as given; plain text where
/// `[secrets] encrypt = false`; else `enc2:` under the install's key.
template <class Fs, class Cipher>
std::string stored_form(Fs& fs, Cipher& cipher, const zeroclaw::value& config,
                        const std::string& install_root, std::string_view value,
                        set_secret_result& res) {
  if (state_of(value) == secret_state::reference) {
    res.stored = secret_state::reference;
    return std::string(value);
  }
  const zeroclaw::value* encrypt = zeroclaw::find_path(config, "secrets.encrypt");
  if (encrypt != nullptr && encrypt->is_boolean() && !encrypt->boolean) {
    res.stored = secret_state::set;
    return std::string(value);
  }
  std::size_t encrypted = 0;
  for (const secret_entry& e : list_secrets(config))
    encrypted += e.state == secret_state::encrypted ? 1 : 0;
  const std::vector<unsigned char> key = secrets_detail::install_key(
      fs, cipher, install_root, paths::file_name(res.config), encrypted, res.key_created);
  res.key_file = paths::join(install_root, std::string(secret_key_file));
  std::vector<unsigned char> nonce(Cipher::nonce_bytes);
  cipher.random(nonce.data(), nonce.size());
  const std::string sealed = cipher.seal(value, nonce.data(), key.data());
  res.stored = secret_state::encrypted;
  return "enc2:" + secrets_detail::hex(nonce.data(), nonce.size()) +
         secrets_detail::hex(reinterpret_cast<const unsigned char*>(sealed.data()), sealed.size());
}

/// Sets the secret field `path` of the config at `config_path` (absolute) to `value`, as
/// ZeroClaw stores it (see the top of this file). Only the value's bytes change (or, for a
/// secret field whose line is missing, that line is added under its table's header); the
/// config is replaced through zeroclaw::rewrite_config (backup `config.toml.bak-<now>`
/// when a value is replaced, unless `keep_backup` is false: a caller that kept one for this
/// run already; none when the field was blank, as the change then loses nothing; mode and
/// owner kept). Refuses, writing nothing: a path that is not a secret field the
/// config holds (errc::not_found, naming `secrets list`; checked first); an empty value, or
/// one that is already ciphertext (errc::invalid_argument); a missing key while the config
/// holds encrypted values (errc::not_found); a field written as a multi-line string
/// (errc::config_invalid); the refusals of rewrite_config. Cipher: the policy of
/// crypto/sodium.hpp (key_bytes, nonce_bytes, random, seal).
template <class Fs, class Cipher, class Schema = zeroclaw::schema_v3>
set_secret_result set_secret(Fs& fs, Cipher& cipher, const std::string& config_path,
                             const std::string& path, std::string_view value, const timestamp& now,
                             bool keep_backup = true) {
  namespace sd = secrets_detail;
  std::string text;
  const zeroclaw::value config = read_config_to_edit(fs, config_path, text);
  check_secret_field<Schema>(config, config_path, path);
  if (value.empty())
    throw error(errc::invalid_argument,
                "an empty value for " + path +
                    "; nothing was written (the field is blank already "
                    "or keeps its value)",
                path);
  if (state_of(value) == secret_state::encrypted)
    throw error(errc::invalid_argument,
                "the value for " + path +
                    " is already ciphertext (enc:/enc2:); give the secret itself, nothing was "
                    "written",
                path);
  // Where the value's bytes are in `old_text`: a one-line string literal; for a field whose
  // line is missing, the end of its table's `[header]` line (`len` 0: the line is added).
  const auto locate = [&](std::string_view old_text) {
    const toml::table doc = toml_adaptor::parse(old_text, config_path);
    const toml::node* node = sd::node_at(doc, path);
    std::optional<std::size_t> at;
    std::optional<std::size_t> len;
    if (node != nullptr && node->is_string()) at = sd::offset_of(old_text, node->source().begin);
    if (at) len = sd::string_token(old_text.substr(*at));
    if (node == nullptr) {
      at = sd::after_header(old_text, doc, path);
      len = 0;
    }
    if (!at || !len)
      throw error(errc::config_invalid,
                  path + " is not written as a one-line string in " + config_path +
                      ", so clawport cannot replace just its value; nothing was written (set "
                      "it with `zeroclaw config set " +
                      path + "`)",
                  path);
    return std::make_pair(*at, *len);
  };
  (void)locate(text);  // refused before a key is created
  set_secret_result res;
  res.config = config_path;
  res.path = path;
  const zeroclaw::value* before = zeroclaw::find_path(config, path);
  res.was_blank = before == nullptr || (before->is_string() && before->text.empty());
  const std::string install_root = zeroclaw::install_root_of(config_path);
  const std::string stored = stored_form(fs, cipher, config, install_root, value, res);

  std::optional<zeroclaw::value> expected;  // the config as read, with the one field set
  const auto edit = [&](std::string_view old_text) {
    expected = zeroclaw::parse_toml(old_text, config_path);
    if (!sd::set_in(*expected, path, stored)) expected.reset();
    const auto [at, len] = locate(old_text);
    std::string out(old_text.substr(0, at));
    if (len == 0) {  // the missing line, added as the table's first
      if (at > 0 && old_text[at - 1] != '\n') out += '\n';
      out += path.substr(path.rfind('.') + 1) + " = ";
    }
    out += toml_writer::quote(stored);
    if (len == 0) out += '\n';
    out += old_text.substr(at + len);
    return out;
  };
  // The result must mean the config with exactly this field changed.
  const auto check = [&](std::string_view new_text) {
    if (!expected || !(zeroclaw::parse_toml(new_text, config_path) == *expected))
      throw error(errc::config_invalid,
                  "replacing the value of " + path + " in " + config_path +
                      " would change more than that field (a clawport bug); nothing was written",
                  path);
  };
  const zeroclaw::config_append_result w =
      zeroclaw::rewrite_config(fs, config_path, edit, now, check, keep_backup && !res.was_blank);
  res.backup = w.backup;
  return res;
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
