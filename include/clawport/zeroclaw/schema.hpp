// SPDX-License-Identifier: MIT
// Schema descriptors: a config schema as constexpr data. Each carried table is a list of
// `field`s (key, type, default, secret, reference target, drop rule, host-local note);
// the closure engine interprets them, so another schema is another Schema policy type.
#pragma once

#include "../core/config.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "reasons.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// A constexpr view of contiguous descriptors.
template <typename T>
struct list_view {
  const T* data = nullptr;
  std::size_t size = 0;
  constexpr list_view() = default;
  template <std::size_t N>
  constexpr list_view(const T (&array)[N]) noexcept : data(array), size(N) {}
  constexpr const T* begin() const noexcept { return data; }
  constexpr const T* end() const noexcept { return data + size; }
  constexpr bool empty() const noexcept { return size == 0; }
};

using name_list = list_view<std::string_view>;

/// TOML shape a field must have.
enum class field_type {
  string,
  boolean,
  integer,
  number,        ///< float; an integer is accepted as well
  string_array,  ///< array of strings
  string_map,    ///< table of string values (env, headers, access)
  table,         ///< a nested struct described by `children`
  table_array,   ///< an array of tables each described by `children`
  any,           ///< any TOML value, carried as written (provider_extra, ...)
};

/// What a reference field points at. Two-tier targets take `family.alias`.
enum class ref_target {
  none,
  model_provider,          ///< providers.models.<family>.<alias> (two-tier)
  tts_provider,            ///< providers.tts.<family>.<alias> (two-tier)
  transcription_provider,  ///< providers.transcription.<family>.<alias> (two-tier)
  channel,                 ///< channels.<type>.<alias> (two-tier)
  risk_profile,            ///< risk_profiles.<alias>
  runtime_profile,         ///< runtime_profiles.<alias>
  skill_bundle,            ///< skill_bundles.<alias>
  knowledge_bundle,        ///< knowledge_bundles.<alias>
  mcp_bundle,              ///< mcp_bundles.<alias>
  mcp_server,              ///< mcp.servers[].name
  agent,                   ///< agents.<alias>
  cron_job,                ///< cron.<alias>
};

/// True for references spelled `family.alias`.
constexpr bool is_two_tier(ref_target t) noexcept {
  return t == ref_target::model_provider || t == ref_target::tts_provider ||
         t == ref_target::transcription_provider || t == ref_target::channel;
}

/// The default a pruned value is compared with (`absent` = Option::None: never pruned).
struct default_value {
  enum class kind { absent, string, boolean, integer, number, strings, empty_table, table };
  kind type = kind::absent;
  std::string_view text{};
  bool boolean = false;
  std::int64_t integer = 0;
  double number = 0;
  name_list strings{};  ///< for kind::strings (an empty list is `strings` with size 0)
};

/// How the engine treats a field of a carried entry before pruning.
enum class field_rule {
  carry,            ///< travels when it differs from the default
  drop,             ///< removed; reported (with `row`, `reason`, `detail`) when occupied
  force_false,      ///< written as false; reported when the source value is true
  identity_path,    ///< kept only in portable form (docs/format.md), else removed and reported
  skill_directory,  ///< docs/library.md, Exporting directory rules
};

/// A note for a value that travels but names something of the source host.
struct note_rule {
  bool present = false;
  note_kind kind = note_kind::host_path;
  std::string_view detail{};
  std::string_view when_equals{};  ///< note only when the value is this string or "true"
};

/// One key of a table.
struct field {
  std::string_view key{};
  field_type type = field_type::string;
  default_value def{};
  bool secret = false;    ///< every non-empty string leaf is scrubbed to ""
  bool required = false;  ///< a table without it does not load upstream
  ref_target ref = ref_target::none;
  field_rule rule = field_rule::carry;
  int row = 0;  ///< docs/format.md row, orders drops within an entry
  drop_reason reason = drop_reason::host_specific;
  std::string_view detail{};
  note_rule note{};
  name_list choices{};  ///< allowed string values (an enum); empty = any string
  name_list aliases{};  ///< other spellings accepted on disk (serde alias)
  list_view<field> children{};

  // Builders, so schema tables read as one line per key.
  constexpr field as_secret() const noexcept {
    field x = *this;
    x.secret = true;
    return x;
  }
  constexpr field as_required() const noexcept {
    field x = *this;
    x.required = true;
    return x;
  }
  constexpr field refers_to(ref_target t) const noexcept {
    field x = *this;
    x.ref = t;
    return x;
  }
  constexpr field one_of(name_list c) const noexcept {
    field x = *this;
    x.choices = c;
    return x;
  }
  constexpr field also_spelled(name_list a) const noexcept {
    field x = *this;
    x.aliases = a;
    return x;
  }
  constexpr field with_children(list_view<field> c) const noexcept {
    field x = *this;
    x.children = c;
    return x;
  }
  constexpr field dropped(int row_, drop_reason reason_, std::string_view detail_) const noexcept {
    return ruled(field_rule::drop, row_, reason_, detail_);
  }
  constexpr field ruled(field_rule r, int row_, drop_reason reason_ = drop_reason::host_specific,
                        std::string_view detail_ = {}) const noexcept {
    field x = *this;
    x.rule = r;
    x.row = row_;
    x.reason = reason_;
    x.detail = detail_;
    return x;
  }
  constexpr field noted(note_kind k, std::string_view detail_,
                        std::string_view when = {}) const noexcept {
    field x = *this;
    x.note = note_rule{true, k, detail_, when};
    return x;
  }
};

namespace fields {
constexpr default_value absent() noexcept { return {}; }
constexpr default_value str(std::string_view s) noexcept {
  default_value d;
  d.type = default_value::kind::string;
  d.text = s;
  return d;
}
constexpr default_value boolean(bool b) noexcept {
  default_value d;
  d.type = default_value::kind::boolean;
  d.boolean = b;
  return d;
}
constexpr default_value integer(std::int64_t i) noexcept {
  default_value d;
  d.type = default_value::kind::integer;
  d.integer = i;
  return d;
}
constexpr default_value number(double x) noexcept {
  default_value d;
  d.type = default_value::kind::number;
  d.number = x;
  return d;
}
constexpr default_value strings(name_list l = {}) noexcept {
  default_value d;
  d.type = default_value::kind::strings;
  d.strings = l;
  return d;
}
constexpr default_value empty_table() noexcept {
  default_value d;
  d.type = default_value::kind::empty_table;
  return d;
}
/// A nested struct that exists by default: its default is its children's defaults.
constexpr default_value defaults_of_children() noexcept {
  default_value d;
  d.type = default_value::kind::table;
  return d;
}

constexpr field f(std::string_view key, field_type type, default_value def = {}) noexcept {
  field x;
  x.key = key;
  x.type = type;
  x.def = def;
  return x;
}
}  // namespace fields

/// One alias-keyed entry type (the value of `[risk_profiles.<alias>]`, ...).
struct entry_schema {
  std::string_view name{};  ///< for messages: "agent", "risk profile", ...
  list_view<field> fields{};
  list_view<field> extra{};  ///< family-specific fields (providers), checked after `fields`
  bool prune = true;         ///< false for providers: carried exactly as written (docs/format.md)
};

/// The Schema policy requirements, checked at compile time by `require_schema<S>()`:
///   static constexpr std::uint32_t version;             // written as schema_version
///   static constexpr entry_schema agent();               // [agents.<alias>]
///   static constexpr entry_schema risk_profile();        // [risk_profiles.<alias>]
///   static constexpr entry_schema runtime_profile();     // [runtime_profiles.<alias>]
///   static constexpr entry_schema skill_bundle();        // [skill_bundles.<alias>]
///   static constexpr entry_schema knowledge_bundle();    // [knowledge_bundles.<alias>]
///   static constexpr entry_schema mcp_bundle();          // [mcp_bundles.<alias>]
///   static constexpr entry_schema mcp_server();          // [[mcp.servers]]
///   static constexpr const entry_schema* model_provider(std::string_view family);
///   static constexpr const entry_schema* tts_provider(std::string_view family);
///   static constexpr const entry_schema* transcription_provider(std::string_view family);
///   static constexpr name_list model_families();         // known slots, in order
/// Optional: `static constexpr const entry_schema* channel(std::string_view type)`, the
/// credentials of `[channels.<type>.<alias>]` (never carried; listed by `secrets` and
/// `status`, which the runtime encrypts).
/// The provider functions return nullptr for a family the schema does not know.
namespace schema_detail {

template <typename S, typename = void>
struct has_version : std::false_type {};
template <typename S>
struct has_version<S, std::void_t<decltype(std::uint32_t{S::version})>> : std::true_type {};

// One trait per member: `entry` members return an entry_schema, `provider` members map a
// family name to a `const entry_schema*`.
#define CLAWPORT_SCHEMA_ENTRY(member)                                                           \
  template <typename S, typename = void>                                                        \
  struct has_##member : std::false_type {};                                                     \
  template <typename S>                                                                         \
  struct has_##member<S, std::enable_if_t<std::is_same_v<decltype(S::member()), entry_schema>>> \
      : std::true_type {};
#define CLAWPORT_SCHEMA_PROVIDER(member)                                                     \
  template <typename S, typename = void>                                                     \
  struct has_##member : std::false_type {};                                                  \
  template <typename S>                                                                      \
  struct has_##member<S, std::enable_if_t<std::is_convertible_v<                             \
                             decltype(S::member(std::string_view{})), const entry_schema*>>> \
      : std::true_type {};
CLAWPORT_SCHEMA_ENTRY(agent)
CLAWPORT_SCHEMA_ENTRY(risk_profile)
CLAWPORT_SCHEMA_ENTRY(runtime_profile)
CLAWPORT_SCHEMA_ENTRY(skill_bundle)
CLAWPORT_SCHEMA_ENTRY(knowledge_bundle)
CLAWPORT_SCHEMA_ENTRY(mcp_bundle)
CLAWPORT_SCHEMA_ENTRY(mcp_server)
CLAWPORT_SCHEMA_PROVIDER(model_provider)
CLAWPORT_SCHEMA_PROVIDER(tts_provider)
CLAWPORT_SCHEMA_PROVIDER(transcription_provider)
CLAWPORT_SCHEMA_PROVIDER(channel)  // optional: the secret fields of `channels.<type>.<alias>`
#undef CLAWPORT_SCHEMA_ENTRY
#undef CLAWPORT_SCHEMA_PROVIDER

template <typename S, typename = void>
struct has_model_families : std::false_type {};
template <typename S>
struct has_model_families<
    S, std::enable_if_t<std::is_convertible_v<decltype(S::model_families()), name_list>>>
    : std::true_type {};

}  // namespace schema_detail

template <typename S>
struct is_schema
    : std::conjunction<schema_detail::has_version<S>, schema_detail::has_agent<S>,
                       schema_detail::has_risk_profile<S>, schema_detail::has_runtime_profile<S>,
                       schema_detail::has_skill_bundle<S>, schema_detail::has_knowledge_bundle<S>,
                       schema_detail::has_mcp_bundle<S>, schema_detail::has_mcp_server<S>,
                       schema_detail::has_model_provider<S>, schema_detail::has_tts_provider<S>,
                       schema_detail::has_transcription_provider<S>,
                       schema_detail::has_model_families<S>> {};
template <typename S>
inline constexpr bool is_schema_v = is_schema<S>::value;

/// Compile-time check, one message per missing member (and nothing else: the entry points
/// that call it instantiate nothing more for a type that is not a Schema).
template <typename S>
constexpr void require_schema() noexcept {
  namespace d = schema_detail;
  static_assert(d::has_version<S>::value,
                "Schema policy: missing `static constexpr std::uint32_t version`");
  static_assert(d::has_agent<S>::value,
                "Schema policy: missing `static constexpr entry_schema agent()`");
  static_assert(d::has_risk_profile<S>::value,
                "Schema policy: missing `static constexpr entry_schema risk_profile()`");
  static_assert(d::has_runtime_profile<S>::value,
                "Schema policy: missing `static constexpr entry_schema runtime_profile()`");
  static_assert(d::has_skill_bundle<S>::value,
                "Schema policy: missing `static constexpr entry_schema skill_bundle()`");
  static_assert(d::has_knowledge_bundle<S>::value,
                "Schema policy: missing `static constexpr entry_schema knowledge_bundle()`");
  static_assert(d::has_mcp_bundle<S>::value,
                "Schema policy: missing `static constexpr entry_schema mcp_bundle()`");
  static_assert(d::has_mcp_server<S>::value,
                "Schema policy: missing `static constexpr entry_schema mcp_server()`");
  static_assert(d::has_model_provider<S>::value,
                "Schema policy: missing `static constexpr const entry_schema* "
                "model_provider(std::string_view family)`");
  static_assert(d::has_tts_provider<S>::value,
                "Schema policy: missing `static constexpr const entry_schema* "
                "tts_provider(std::string_view family)`");
  static_assert(d::has_transcription_provider<S>::value,
                "Schema policy: missing `static constexpr const entry_schema* "
                "transcription_provider(std::string_view family)`");
  static_assert(d::has_model_families<S>::value,
                "Schema policy: missing `static constexpr name_list model_families()`");
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
