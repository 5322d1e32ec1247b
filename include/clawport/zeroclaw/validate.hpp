// SPDX-License-Identifier: MIT
// Standalone validation of a config (the closure, re-parsed): what ZeroClaw's
// `Config::validate()` checks and what its loader rejects (docs/library.md, Schema policy), in
// upstream's order, fail-fast, with errors that name the field.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../formats/toml_writer.hpp"
#include "document.hpp"
#include "schema.hpp"
#include "shape.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The first problem `validate_config` found. `code` is upstream's structured code
/// (`dangling_reference`, ...) or empty for a plain error; `path` names the field.
struct validation_error {
  std::string code;
  std::string message;
  std::string path;

  /// Upstream's display: `[<code>] <message> (<path>)`, or the bare message.
  std::string display() const {
    if (code.empty()) return message;
    return "[" + code + "] " + message + " (" + path + ")";
  }
};

namespace detail {

struct validator_state {
  std::optional<validation_error> error;
  bool fail(std::string code, std::string message, std::string path) {
    if (!error) error = validation_error{std::move(code), std::move(message), std::move(path)};
    return false;
  }
};

inline std::vector<const member*> sorted_members(const value* table) {
  std::vector<const member*> out;
  if (table != nullptr && table->is_table())
    for (const member& m : table->members) out.push_back(&m);
  std::sort(out.begin(), out.end(),
            [](const member* a, const member* b) { return a->key < b->key; });
  return out;
}

inline const value* child(const value* table, std::string_view key) {
  return (table != nullptr && table->is_table()) ? table->find(key) : nullptr;
}

/// Loader-level checks on one entry: types, enum values, required keys.
inline bool check_shape(const value& entry, list_view<field> fields, list_view<field> extra,
                        const std::string& path, validator_state& st) {
  try {
    shape_sink sink{nullptr, nullptr, false};
    (void)shape_table(entry, fields, extra, path, sink);
  } catch (const error& e) {
    return st.fail("", e.what(), e.subject());
  }
  const auto required = [&](list_view<field> list, const value& table,
                            const std::string& at) -> bool {
    for (const field& f : list)
      if (f.required && lookup(table, f) == nullptr)
        return st.fail("", "missing field `" + std::string(f.key) + "` in `" + at + "`",
                       at + "." + std::string(f.key));
    return true;
  };
  if (!required(fields, entry, path) || !required(extra, entry, path)) return false;
  // Required keys of nested tables that are present (approval_route.approver_channel).
  for (const field& f : fields)
    if (f.type == field_type::table && !f.children.empty())
      if (const value* sub = entry.find(f.key))
        if (sub->is_table() && !required(f.children, *sub, path + "." + std::string(f.key)))
          return false;
  return true;
}

inline bool valid_http_url(std::string_view url, bool& http_scheme) {
  const auto colon = url.find("://");
  http_scheme = false;
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view scheme = url.substr(0, colon);
  for (const char c : scheme)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' ||
          c == '-' || c == '.'))
      return false;
  const std::string_view rest = url.substr(colon + 3);
  if (rest.empty() || rest.front() == '/') return false;
  for (const char c : rest)
    if (static_cast<unsigned char>(c) <= 0x20) return false;
  http_scheme = scheme == "http" || scheme == "https";
  return true;
}

template <typename Schema>
class validator {
 public:
  explicit validator(const value& config) : config_(config) {}

  std::optional<validation_error> run() {
    (void)(shapes() && prechecks() && skill_directories() && env_names() && providers() &&
           servers() && runtime_summarizers() && agents());
    return st_.error;
  }

 private:
  const value* top(std::string_view key) const { return child(&config_, key); }

  bool shapes() {
    const std::pair<const char*, entry_schema> sections[] = {
        {"agents", Schema::agent()},
        {"risk_profiles", Schema::risk_profile()},
        {"runtime_profiles", Schema::runtime_profile()},
        {"skill_bundles", Schema::skill_bundle()},
        {"knowledge_bundles", Schema::knowledge_bundle()},
        {"mcp_bundles", Schema::mcp_bundle()}};
    for (const auto& [name, entry] : sections)
      for (const member* m : sorted_members(top(name))) {
        const std::string path = std::string(name) + "." + m->key;
        if (!m->val.is_table()) return st_.fail("", "`" + path + "` must be a table", path);
        if (!check_shape(m->val, entry.fields, entry.extra, path, st_)) return false;
      }
    if (const value* list = mcp_servers())
      for (std::size_t i = 0; i < list->items.size(); ++i) {
        const std::string path = "mcp.servers[" + std::to_string(i) + "]";
        if (!list->items[i].is_table()) return st_.fail("", "`" + path + "` must be a table", path);
        const entry_schema entry = Schema::mcp_server();
        if (!check_shape(list->items[i], entry.fields, entry.extra, path, st_)) return false;
      }
    const std::pair<const char*, int> kinds[] = {{"models", 0}, {"tts", 1}, {"transcription", 2}};
    for (const auto& [kind, which] : kinds)
      for (const member* family : sorted_members(child(top("providers"), kind))) {
        const entry_schema* entry = which == 0   ? Schema::model_provider(family->key)
                                    : which == 1 ? Schema::tts_provider(family->key)
                                                 : Schema::transcription_provider(family->key);
        if (entry == nullptr) continue;  // unknown families are dropped at load upstream
        for (const member* m : sorted_members(&family->val)) {
          const std::string path =
              std::string("providers.") + kind + "." + family->key + "." + m->key;
          if (!m->val.is_table()) return st_.fail("", "`" + path + "` must be a table", path);
          if (!check_shape(m->val, entry->fields, entry->extra, path, st_)) return false;
        }
      }
    return true;
  }

  const value* mcp_servers() const {
    const value* list = child(top("mcp"), "servers");
    return (list != nullptr && list->is_array()) ? list : nullptr;
  }

  bool prechecks() {
    for (const member* a : sorted_members(top("agents"))) {
      const value* timeout = child(child(&a->val, "precheck"), "timeout_secs");
      if (timeout != nullptr && timeout->type == value::kind::integer && timeout->integer <= 0) {
        const std::string path = "agents." + a->key + ".precheck.timeout_secs";
        return st_.fail("invalid_numeric_range", path + " must be greater than 0", path);
      }
    }
    return true;
  }

  // The closure has no config_path, so the install root is the relative default ".".
  bool skill_directories() {
    std::vector<std::pair<std::string, std::string>> resolved;
    for (const member* b : sorted_members(top("skill_bundles"))) {
      const value* dir = child(&b->val, "directory");
      const std::string configured =
          (dir != nullptr && dir->is_string()) ? std::string(text::trim(dir->text)) : std::string();
      const std::string path = paths::normalize(configured.empty() ? "shared/skills/" + b->key
                                                                   : paths::join(".", configured));
      if (!paths::starts_with(path, "shared"))
        return st_.fail("invalid_format",
                        "skill-bundle directory '" + path +
                            "' escapes the shared workspace at 'shared'; bundles must stay "
                            "inside `<install>/shared/`",
                        "skill-bundles." + b->key + ".directory");
      for (const auto& other : resolved)
        if (other.second == path)
          return st_.fail("invalid_format",
                          "skill-bundles '" + other.first + "' and '" + b->key +
                              "' both resolve to directory '" + path +
                              "'; each bundle must own a unique directory",
                          "skill_bundles");
      resolved.emplace_back(b->key, path);
    }
    return true;
  }

  bool env_names() {
    for (const member* p : sorted_members(top("risk_profiles"))) {
      const value* list = child(&p->val, "shell_env_passthrough");
      if (list == nullptr || !list->is_array()) continue;
      for (std::size_t i = 0; i < list->items.size(); ++i) {
        const std::string& name = list->items[i].text;
        bool ok = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
        for (const char c : name)
          ok = ok && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '_');
        if (!ok) {
          const std::string path =
              "risk_profiles." + p->key + ".shell_env_passthrough[" + std::to_string(i) + "]";
          return st_.fail("", path + " is invalid (" + name + "); expected [A-Za-z_][A-Za-z0-9_]*",
                          path);
        }
      }
    }
    return true;
  }

  bool providers() {
    for (const member* family : sorted_members(child(top("providers"), "models"))) {
      if (Schema::model_provider(family->key) == nullptr) continue;
      for (const member* m : sorted_members(&family->val)) {
        const std::string base = "providers.models." + family->key + "." + m->key;
        const value* uri = child(&m->val, "uri");
        bool http = false;
        if (uri != nullptr && uri->is_string()) {
          if (!valid_http_url(uri->text, http))
            return st_.fail("", base + ".uri is not a valid URL", base + ".uri");
          if (!http) return st_.fail("", base + ".uri must use http/https", base + ".uri");
        }
        const value* t = child(&m->val, "temperature");
        if (t != nullptr) {
          const double v =
              t->type == value::kind::integer ? static_cast<double>(t->integer) : t->floating;
          if (!(v >= 0.0 && v <= 2.0))
            return st_.fail("",
                            base + ".temperature: temperature " + toml_number(*t) +
                                " is out of range (expected 0..=2)",
                            base + ".temperature");
        }
        if (const value* pricing = child(&m->val, "pricing"))
          if (pricing->is_table())
            for (const member& p : pricing->members) {
              const std::string at = base + ".pricing." + p.key;
              const bool number =
                  p.val.type == value::kind::floating || p.val.type == value::kind::integer;
              const double v = p.val.type == value::kind::integer
                                   ? static_cast<double>(p.val.integer)
                                   : p.val.floating;
              if (!number) return st_.fail("", at + ": value must be a number", at);
              if (std::isnan(v)) return st_.fail("", at + ": value must not be NaN", at);
              if (v < 0.0)
                return st_.fail("", at + ": value must be >= 0.0 (got " + toml_number(p.val) + ")",
                                at);
            }
        if (family->key == "ollama") {
          const value* model = child(&m->val, "model");
          if (model != nullptr && model->is_string() && model->text.size() >= 6 &&
              model->text.compare(model->text.size() - 6, 6, ":cloud") == 0) {
            const std::string u = (uri != nullptr && uri->is_string()) ? uri->text : "";
            const bool local = u.empty() || u.find("://localhost") != std::string::npos ||
                               u.find("://127.0.0.1") != std::string::npos;
            if (local)
              return st_.fail("",
                              base + ": model \"" + model->text +
                                  "\" is an Ollama cloud model and needs a remote uri",
                              base + ".uri");
            const value* key = child(&m->val, "api_key");
            if (u.find("ollama.com") != std::string::npos &&
                (key == nullptr || !key->is_string() || key->text.empty()))
              return st_.fail(
                  "",
                  base + ": model \"" + model->text + "\" on ollama.com needs a non-empty api_key",
                  base + ".api_key");
          }
        }
      }
    }
    return true;
  }

  /// A number as written: the shortest text that reads back as the same value (so
  /// `2.0000001` is not shown as `2.0`), the writer's own rule.
  static std::string toml_number(const value& v) {
    if (v.type == value::kind::integer) return std::to_string(v.integer);
    return toml_writer::floating(v.floating);
  }

  bool servers() {
    const value* mcp = top("mcp");
    const value* enabled = child(mcp, "enabled");
    if (enabled != nullptr && enabled->is_boolean() && !enabled->boolean) return true;
    const value* list = mcp_servers();
    if (list == nullptr) return true;
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list->items.size(); ++i) {
      const value& s = list->items[i];
      const std::string at = "mcp.servers[" + std::to_string(i) + "]";
      const std::string name = detail::string_of(child(&s, "name"));
      if (text::trim(name).empty())
        return st_.fail("required_field_empty", at + ".name must not be empty", at + ".name");
      const std::string folded = text::to_lower_ascii(name);
      if (std::find(seen.begin(), seen.end(), folded) != seen.end())
        return st_.fail("", "mcp.servers contains duplicate name: " + name, at + ".name");
      seen.push_back(folded);
      std::string transport = detail::string_of(child(&s, "transport"));
      if (transport.empty()) transport = "stdio";
      const value* url = child(&s, "url");
      if (transport == "stdio") {
        if (text::trim(detail::string_of(child(&s, "command"))).empty())
          return st_.fail("", at + " with transport=stdio requires non-empty command",
                          at + ".command");
      } else {
        if (url == nullptr || !url->is_string() || text::trim(url->text).empty())
          return st_.fail("", at + " with transport=" + transport + " requires url", at + ".url");
      }
      if (url != nullptr && url->is_string() && !url->text.empty()) {
        bool http = false;
        if (!valid_http_url(url->text, http) || !http)
          return st_.fail("", at + ".url must use http/https", at + ".url");
      }
      const value* ca = child(&s, "tls_ca_cert_path");
      if (ca != nullptr && ca->is_string()) {
        if (ca->text.empty() || ca->text.front() != '/')
          return st_.fail("", at + ".tls_ca_cert_path must be an absolute path",
                          at + ".tls_ca_cert_path");
        if (url == nullptr || !url->is_string() || url->text.rfind("https://", 0) != 0)
          return st_.fail("", at + ".url must use https when tls_ca_cert_path is set", at + ".url");
      }
      const value* timeout = child(&s, "tool_timeout_secs");
      if (timeout != nullptr && timeout->type == value::kind::integer) {
        if (timeout->integer <= 0)
          return st_.fail("invalid_numeric_range", at + ".tool_timeout_secs must be greater than 0",
                          at + ".tool_timeout_secs");
        if (timeout->integer > 600)
          return st_.fail("invalid_numeric_range", at + ".tool_timeout_secs exceeds max 600",
                          at + ".tool_timeout_secs");
      }
    }
    return true;
  }

  /// A two-tier reference `v` at `path` must be dotted and name an existing entry of
  /// `section`. `model_family_check` (agents' model_provider only) also requires a known
  /// family and uses upstream's bracketed wording.
  bool two_tier(const std::string& path, const std::string& v, const std::string& section,
                bool model_family_check) {
    const auto dot = v.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == v.size())
      return st_.fail("invalid_format",
                      path + " must be dotted form `<type>.<alias>` (got \"" + v + "\")", path);
    const std::string type = v.substr(0, dot);
    const std::string alias = v.substr(dot + 1);
    if (model_family_check && Schema::model_provider(type) == nullptr)
      return st_.fail("dangling_reference",
                      path + " = \"" + v + "\" but \"" + type +
                          "\" is not a known provider family; check "
                          "[providers.models.<family>.<alias>] in config.toml (valid families: "
                          "`zeroclaw providers`)",
                      path);
    const value* entry = child(child(section_table(section), type), alias);
    if (entry == nullptr || !entry->is_table())
      return st_.fail("dangling_reference",
                      path + " = \"" + v + "\" but " +
                          (model_family_check ? "[" + section + "." + type + "." + alias + "]"
                                              : section + "." + type + "." + alias) +
                          " is not configured",
                      path);
    return true;
  }

  const value* section_table(const std::string& dotted) const {
    const value* v = &config_;
    std::size_t start = 0;
    for (;;) {
      const auto dot = dotted.find('.', start);
      v = child(v, std::string_view(dotted).substr(
                       start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos) return v;
      start = dot + 1;
    }
  }

  bool runtime_summarizers() {
    for (const member* p : sorted_members(top("runtime_profiles"))) {
      const std::string v =
          detail::string_of(child(child(&p->val, "context_compression"), "summary_provider"));
      if (text::trim(v).empty()) continue;
      if (!two_tier("runtime_profiles." + p->key + ".context_compression.summary_provider",
                    std::string(text::trim(v)), "providers.models", false))
        return false;
    }
    return true;
  }

  bool agents() {
    const value* agents = top("agents");
    for (const member* a : sorted_members(agents)) {
      const std::string base = "agents." + a->key + ".";
      const value& agent = a->val;
      const std::string model =
          std::string(text::trim(detail::string_of(child(&agent, "model_provider"))));
      if (model.empty())
        return st_.fail("required_field_empty",
                        base +
                            "model_provider must reference a configured model model_provider "
                            "(e.g. \"anthropic.default\")",
                        base + "model_provider");
      if (!two_tier(base + "model_provider", model, "providers.models", true)) return false;
      if (const value* channels = child(&agent, "channels"))
        for (std::size_t i = 0; i < channels->items.size(); ++i)
          if (!two_tier(base + "channels[" + std::to_string(i) + "]", channels->items[i].text,
                        "channels", false))
            return false;
      const std::pair<const char*, const char*> refs[] = {
          {"tts_provider", "providers.tts"},
          {"transcription_provider", "providers.transcription"},
          {"classifier_provider", "providers.models"},
          {"summary_provider", "providers.models"}};
      for (const auto& [key, section] : refs) {
        const std::string v = std::string(text::trim(detail::string_of(child(&agent, key))));
        if (!v.empty() && !two_tier(base + key, v, section, false)) return false;
      }
      const char* bundles[] = {"skill_bundles", "knowledge_bundles", "mcp_bundles"};
      for (const char* key : bundles)
        if (const value* list = child(&agent, key))
          for (std::size_t i = 0; i < list->items.size(); ++i) {
            const std::string v = std::string(text::trim(list->items[i].text));
            if (v.empty()) continue;
            if (child(top(key), v) == nullptr)
              return st_.fail("dangling_reference",
                              base + key + "[" + std::to_string(i) + "] = \"" + v + "\" but " +
                                  key + "." + v + " is not configured",
                              base + key + "[" + std::to_string(i) + "]");
          }
      const std::pair<const char*, const char*> profiles[] = {
          {"risk_profile", "risk_profiles"}, {"runtime_profile", "runtime_profiles"}};
      for (const auto& [key, section] : profiles) {
        const std::string v = std::string(text::trim(detail::string_of(child(&agent, key))));
        if (!v.empty() && child(top(section), v) == nullptr)
          return st_.fail(
              "dangling_reference",
              base + key + " = \"" + v + "\" but " + section + "." + v + " is not configured",
              base + key);
      }
      const value* enabled = child(&agent, "enabled");
      const bool is_enabled = enabled == nullptr || !enabled->is_boolean() || enabled->boolean;
      if (is_enabled && text::trim(detail::string_of(child(&agent, "risk_profile"))).empty())
        return st_.fail("required_field_empty",
                        base +
                            "risk_profile must reference a configured [risk_profiles.<alias>] "
                            "entry",
                        base + "risk_profile");
      if (!delegates(a->key, agent, agents)) return false;
    }
    return true;
  }

  bool delegates(const std::string& alias, const value& agent, const value* agents) {
    const std::string base = "agents." + alias + ".";
    if (const value* list = child(&agent, "delegates"); list != nullptr && list->is_array()) {
      std::vector<std::string> seen;
      for (std::size_t i = 0; i < list->items.size(); ++i) {
        const value& d = list->items[i];
        const std::string target =
            std::string(text::trim(d.is_string() ? d.text : detail::string_of(child(&d, "agent"))));
        const std::string at = base + "delegates[" + std::to_string(i) + "].agent";
        if (target.empty())
          return st_.fail("required_field_empty",
                          at + " is empty; remove it or name a configured agent", at);
        if (target == alias)
          return st_.fail("invalid_format",
                          at + " names this agent itself; an agent cannot delegate to itself", at);
        if (child(agents, target) == nullptr)
          return st_.fail("dangling_reference",
                          at + " = \"" + target + "\" but agents." + target + " is not configured",
                          at);
        if (std::find(seen.begin(), seen.end(), target) != seen.end())
          return st_.fail("invalid_format", at + " duplicates an earlier delegate target", at);
        seen.push_back(target);
      }
    }
    const value* workspace = child(&agent, "workspace");
    if (const value* access = child(workspace, "access"); access != nullptr && access->is_table())
      for (const member& m : access->members) {
        const std::string at = base + "workspace.access." + m.key;
        if (m.key == alias) return st_.fail("invalid_format", at + " names this agent itself", at);
        if (child(agents, m.key) == nullptr)
          return st_.fail("dangling_reference", at + " but agents." + m.key + " is not configured",
                          at);
      }
    if (const value* list = child(workspace, "read_memory_from");
        list != nullptr && list->is_array())
      for (std::size_t i = 0; i < list->items.size(); ++i) {
        const std::string& target = list->items[i].text;
        const std::string at = base + "workspace.read_memory_from[" + std::to_string(i) + "]";
        if (target == alias) return st_.fail("invalid_format", at + " names this agent itself", at);
        const value* other = child(agents, target);
        if (other == nullptr)
          return st_.fail("dangling_reference",
                          at + " = \"" + target + "\" but agents." + target + " is not configured",
                          at);
        const auto backend = [](const value* a) {
          const std::string b = detail::string_of(child(child(a, "memory"), "backend"));
          return b.empty() ? std::string("sqlite") : b;
        };
        if (backend(other) != backend(&agent))
          return st_.fail("invalid_format",
                          at + " points at agents." + target + " which uses memory backend " +
                              backend(other) + ", but agents." + alias + " uses " +
                              backend(&agent) +
                              "; the allowlist must point at same-backend siblings only",
                          at);
      }
    return true;
  }

  const value& config_;
  validator_state st_;
};

}  // namespace detail

/// Validates a whole config as ZeroClaw would load it on a clean install; returns the
/// first error, or nullopt.
template <typename Schema>
std::optional<validation_error> validate_config(const value& config) {
  require_schema<Schema>();
  if constexpr (is_schema_v<Schema>) {
    return detail::validator<Schema>(config).run();
  } else {
    return std::nullopt;  // not reached: require_schema has named what is missing
  }
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
