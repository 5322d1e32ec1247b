// SPDX-License-Identifier: MIT
// The Publish policy: how a finished staging directory replaces the destination. A policy
// is a type with a wire `name`, a `writes` flag (false = dry run: the exporter stages
// nothing) and a static `publish` template over the Fs policy.
#pragma once

#include "../fs/policy.hpp"
#include "admission.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

struct outcome;

/// Everything a strategy needs to replace `destination` by `staging`, both single names
/// inside the parent handle it is given.
struct request {
  std::string staging;               ///< name of the complete staged bundle in the parent
  std::string destination;           ///< name of the destination in the parent
  destination_names names;           ///< how to name the destination in messages
  admission adm;                     ///< what admission found (kind + identity)
  std::vector<fs::file_id> sources;  ///< identities of every source root the export read
  bool sync = true;                  ///< fsync the parent after the rename (durability)
  /// Polled before the destination is touched and, for staged_swap, between its renames:
  /// true = undo what was done and throw errc::cancelled. Empty = never cancelled.
  std::function<bool()> cancelled;
  /// Called once the new bundle is in place and durable, before the previous bundle is
  /// removed (which can take minutes: issue 44 item 1), with the outcome so far: the caller
  /// may report while the removal runs. Not called when nothing is replaced.
  std::function<void(const outcome&)> published;
  /// Called while that previous bundle is removed, with the entries removed so far (a
  /// progress count; no total). Empty = not told.
  fs::removal_progress removing;
};

/// Wire values of `publish.guarantee`.
namespace guarantee {
/// The destination name went from the old content (or nothing) to the complete new bundle
/// in one step: at no instant was it missing or partial.
inline constexpr std::string_view atomic = "atomic";
/// The destination was briefly absent; a crash in that window leaves the old bundle at
/// `.zeroclaw-export-old-<token>` beside it, which `clawport recover` restores.
inline constexpr std::string_view recoverable = "recoverable";
/// Nothing was published (dry run).
inline constexpr std::string_view none = "none";
}  // namespace guarantee

/// What a strategy reports after publishing.
struct outcome {
  std::string strategy;               ///< the strategy that actually ran: swap, exchange, none
  std::string requested;              ///< the strategy that was asked for
  std::string guarantee;              ///< one of the `guarantee` values
  std::vector<std::string> warnings;  ///< untidy but successful: e.g. an old tree left behind
};

/// The outcome of the strategy `name` run as asked, `promised` its guarantee until the
/// strategy finds otherwise.
inline outcome outcome_of(std::string_view name, std::string_view promised = {}) {
  outcome out;
  out.strategy = std::string(name);
  out.requested = std::string(name);
  out.guarantee = std::string(promised);
  return out;
}

namespace detail {

template <class P, class = void>
struct has_name : std::false_type {};
template <class P>
struct has_name<P, std::void_t<decltype(std::string_view{P::name})>> : std::true_type {};

template <class P, class = void>
struct has_writes : std::false_type {};
template <class P>
struct has_writes<P, std::void_t<decltype(bool{P::writes})>> : std::true_type {};

template <class P, class Fs, class = void>
struct has_publish : std::false_type {};
template <class P, class Fs>
struct has_publish<P, Fs,
                   std::void_t<decltype(outcome{
                       P::publish(std::declval<Fs&>(), std::declval<const typename Fs::dir&>(),
                                  std::declval<const request&>())})>> : std::true_type {};

}  // namespace detail

/// Checks at compile time that `P` models the Publish policy over the Fs backend `Fs`,
/// naming what is missing: `static_assert(publish::check_policy<P, Fs>());`.
template <class P, class Fs>
constexpr bool check_policy() {
  static_assert(detail::has_name<P>::value,
                "Publish policy: missing `static constexpr std::string_view name`");
  static_assert(detail::has_writes<P>::value,
                "Publish policy: missing `static constexpr bool writes` (false = dry run)");
  static_assert(detail::has_publish<P, Fs>::value,
                "Publish policy: missing `template <class Fs> static outcome publish(Fs&, "
                "const typename Fs::dir& parent, const publish::request&)`");
  return true;
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
