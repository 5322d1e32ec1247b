// SPDX-License-Identifier: MIT
// The Digest policy: what an incremental hash must offer for the library to use it
// (content digests of bundles, plan integrity). `digest::sha256` models it.
#pragma once

#include "../core/config.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace digest {

namespace detail {

template <class D>
D& lval();

template <class D, class = void>
struct has_digest_size : std::false_type {};
template <class D>
struct has_digest_size<D, std::void_t<decltype(std::size_t{D::digest_size})>> : std::true_type {};

template <class D, class = void>
struct has_update_bytes : std::false_type {};
template <class D>
struct has_update_bytes<
    D, std::void_t<decltype(lval<D>().update(static_cast<const void*>(nullptr), std::size_t{}))>>
    : std::true_type {};

template <class D, class = void>
struct has_update_view : std::false_type {};
template <class D>
struct has_update_view<D, std::void_t<decltype(lval<D>().update(std::string_view{}))>>
    : std::true_type {};

template <class D, class = void>
struct has_finish : std::false_type {};
template <class D>
struct has_finish<D, std::void_t<decltype(lval<D>().finish())>> : std::true_type {};

template <class D, bool = has_finish<D>::value&& has_digest_size<D>::value>
struct finish_is_bytes : std::false_type {};
template <class D>
struct finish_is_bytes<D, true>
    : std::is_same<decltype(lval<D>().finish()), std::array<std::uint8_t, D::digest_size>> {};

}  // namespace detail

/// Checks at compile time that `D` models the Digest policy, naming the first missing
/// requirement: default-constructible, `static constexpr size_t digest_size`,
/// `update(const void*, size_t)`, `update(string_view)`, and `finish()` returning a
/// `std::array<uint8_t, digest_size>` (and leaving `D` ready for a new message).
/// Use as `static_assert(digest::check_policy<D>());`.
template <class D>
constexpr bool check_policy() {
  static_assert(std::is_default_constructible<D>::value,
                "Digest policy: must be default-constructible (a fresh hash of nothing)");
  static_assert(detail::has_digest_size<D>::value,
                "Digest policy: missing `static constexpr std::size_t digest_size`");
  static_assert(detail::has_update_bytes<D>::value,
                "Digest policy: missing `update(const void*, std::size_t)`");
  static_assert(detail::has_update_view<D>::value,
                "Digest policy: missing `update(std::string_view)`");
  static_assert(detail::has_finish<D>::value,
                "Digest policy: missing `finish()` returning the digest bytes");
  static_assert(!detail::has_finish<D>::value || !detail::has_digest_size<D>::value ||
                    detail::finish_is_bytes<D>::value,
                "Digest policy: `finish()` must return std::array<std::uint8_t, digest_size>");
  return true;
}

}  // namespace digest
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
