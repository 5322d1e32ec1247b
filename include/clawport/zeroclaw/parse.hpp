// SPDX-License-Identifier: MIT
// TOML text -> the ordered document model, through the one TOML adaptor (formats/toml.hpp):
// parse errors become clawport::error(errc::config_parse) naming the line and column.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "../core/error.hpp"
#include "../formats/toml.hpp"
#include "document.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

namespace detail {

inline value from_toml_node(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: {
      value out = value::make_table();
      for (auto&& [key, child] : *node.as_table())
        out.members.push_back(member{std::string(key.str()), from_toml_node(child)});
      return out;
    }
    case toml::node_type::array: {
      value out = value::make_array();
      for (const toml::node& child : *node.as_array()) out.items.push_back(from_toml_node(child));
      return out;
    }
    case toml::node_type::string:
      return value::make_string(std::string(node.as_string()->get()));
    case toml::node_type::integer:
      return value::make_integer(node.as_integer()->get());
    case toml::node_type::floating_point:
      return value::make_floating(node.as_floating_point()->get());
    case toml::node_type::boolean:
      return value::make_boolean(node.as_boolean()->get());
    default: {
      // date, time, date-time: kept as TOML text
      std::ostringstream text;
      if (const auto* d = node.as_date()) text << *d;
      if (const auto* t = node.as_time()) text << *t;
      if (const auto* dt = node.as_date_time()) text << *dt;
      value out;
      out.type = value::kind::datetime;
      out.text = text.str();
      return out;
    }
  }
}

}  // namespace detail

/// Parses TOML text into an ordered table, through the one adaptor (formats/toml.hpp).
/// `what` names the text in errors (the config's real path, "the rendered closure"):
/// errc::config_parse "what:L:C: ...", errc::limit_exceeded past CLAWPORT_MAX_TOML_DEPTH.
inline value parse_toml(std::string_view text, std::string_view what) {
  const toml::table table = toml_adaptor::parse(text, what);
  return detail::from_toml_node(table);
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
