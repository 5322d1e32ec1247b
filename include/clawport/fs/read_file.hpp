// SPDX-License-Identifier: MIT
// Reading a whole small file: the one reader of every config, manifest and package file of
// every command, and in chunks of a file too large to hold (`try_read_file_chunks_at`).
// Bounded (a size limit checked by stat before opening and again while
// reading), and only a regular file is ever read: a device (/dev/zero), a FIFO, a socket or
// a directory is refused naming it before it is opened, and the descriptor is opened
// non-blocking (fs::posix::open_file_at), so a FIFO swapped in meanwhile cannot hang the
// open and is refused by the fstat that follows. A symlink is followed only where the
// caller says so (a config's path, as the runtime reads it), a second hard link is refused
// where the caller says so (a package file), and a file replaced or resized while it is
// read is refused rather than read half old, half new.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "policy.hpp"
#include "sys_error.hpp"

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// What `read_file` accepts besides a regular file with one name. Combine with `|`.
enum class read_kinds : unsigned {
  regular = 0,         ///< a regular file with one link, reached without a symlink
  follow_symlink = 1,  ///< the path form follows a symlinked last component (realpath)
  hard_linked = 2,     ///< a regular file with more than one name is read too
};

constexpr read_kinds operator|(read_kinds a, read_kinds b) noexcept {
  return static_cast<read_kinds>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
constexpr bool has_kind(read_kinds set, read_kinds k) noexcept {
  return (static_cast<unsigned>(set) & static_cast<unsigned>(k)) != 0;
}

/// Why a file was not read (typed; `read_refusal_error` words it).
enum class read_refusal {
  none,         ///< read: `bytes` holds the whole file
  missing,      ///< no such name
  symlink,      ///< the name is a symbolic link and was not followed
  hard_linked,  ///< the file has more than one name and the caller refuses that
  not_regular,  ///< a device, FIFO, socket or directory
  too_large,    ///< larger than the caller's limit (by stat or while read)
  changed,      ///< replaced, or resized, between classification and the last byte
};

/// The outcome of `try_read_file_at`.
struct read_result {
  read_refusal refusal = read_refusal::none;
  std::string bytes;  ///< the whole file when `refusal` is none
  stat_info info;     ///< the file as opened (or as classified, when refused before)
};

/// The clawport::error for a refusal, naming `shown`: errc::not_found, errc::unsafe_path
/// (symlink, hard link), errc::unsupported (not a regular file), errc::limit_exceeded,
/// errc::identity_changed.
inline error read_refusal_error(read_refusal r, const std::string& shown, std::uint64_t max) {
  switch (r) {
    case read_refusal::missing:
      return error(errc::not_found, shown + " does not exist", shown, ENOENT);
    case read_refusal::symlink:
      return error(errc::unsafe_path, shown + " is a symbolic link, which is not followed here",
                   shown, ELOOP);
    case read_refusal::hard_linked:
      return error(errc::unsafe_path,
                   shown + " has more than one hard link, so it is not read as this file", shown);
    case read_refusal::not_regular:
      return error(errc::unsupported,
                   shown +
                       " is not a regular file (a device, FIFO, socket or directory), so it is "
                       "not read",
                   shown);
    case read_refusal::too_large:
      return error(errc::limit_exceeded,
                   shown + " is larger than " + std::to_string(max) + " bytes, so it is not read",
                   shown);
    case read_refusal::changed:
    case read_refusal::none:
      break;
  }
  return error(errc::identity_changed,
               shown + " was replaced or changed size while it was read; run again", shown);
}

/// Reads `name` in the opened directory `dir` in chunks, at most `max` bytes, never following
/// a symlink, giving each chunk to `chunk(std::string_view bytes, const stat_info& opened)` as
/// it is read: the one bounded reader, for a file too large to hold (a bundle's
/// memory/entries.jsonl, issue 47). Refusals are typed (`read_result::refusal`; `bytes` stays
/// empty), checked in this order by lstat before anything is opened: missing, symlink,
/// not_regular, hard_linked, too_large; then the opened file must be the same regular file
/// (else changed) and keep its size while read. A `changed` or `too_large` found while reading
/// comes after chunks were given: the caller discards what it made of them. Throws
/// clawport::error only for an I/O failure of the backend (and what `chunk` throws).
template <class Fs, class Chunk>
read_result try_read_file_chunks_at(Fs& fs, const typename Fs::dir& dir, std::string_view name,
                                    std::uint64_t max, read_kinds kinds, Chunk&& chunk) {
  read_result r;
  const auto refuse = [&r](read_refusal why) -> read_result& {
    r.refusal = why;
    return r;
  };
  const std::optional<stat_info> st = fs.stat_at(dir, name);
  if (!st) return refuse(read_refusal::missing);
  r.info = *st;
  if (st->kind == file_kind::symlink) return refuse(read_refusal::symlink);
  if (st->kind != file_kind::regular) return refuse(read_refusal::not_regular);
  const bool linked_ok = has_kind(kinds, read_kinds::hard_linked);
  if (st->nlink > 1 && !linked_ok) return refuse(read_refusal::hard_linked);
  if (st->size > max) return refuse(read_refusal::too_large);
  auto f = fs.open_file_at(dir, name);
  r.info = fs.stat(f);
  if (r.info.kind != file_kind::regular || r.info.id != st->id)
    return refuse(read_refusal::changed);
  if (r.info.nlink > 1 && !linked_ok) return refuse(read_refusal::hard_linked);
  if (r.info.size > max) return refuse(read_refusal::too_large);
  constexpr std::size_t chunk_size = 65536;
  std::string buffer(chunk_size, '\0');
  std::uint64_t total = 0;
  for (;;) {
    const std::size_t n = fs.read(f, buffer.data(), chunk_size);
    if (n == 0) break;
    total += n;
    if (total > max) return refuse(read_refusal::too_large);
    chunk(std::string_view(buffer.data(), n), static_cast<const stat_info&>(r.info));
  }
  if (total != r.info.size || fs.stat(f).size != r.info.size) return refuse(read_refusal::changed);
  return r;
}

/// Reads `name` in the opened directory `dir` whole, at most `max` bytes
/// (`try_read_file_chunks_at`, its refusals and their order, the chunks kept in `bytes`).
template <class Fs>
read_result try_read_file_at(Fs& fs, const typename Fs::dir& dir, std::string_view name,
                             std::uint64_t max, read_kinds kinds = read_kinds::regular) {
  std::string bytes;
  read_result r = try_read_file_chunks_at(fs, dir, name, max, kinds,
                                          [&bytes](std::string_view c, const stat_info& opened) {
                                            if (bytes.empty())
                                              bytes.reserve(static_cast<std::size_t>(opened.size));
                                            bytes.append(c.data(), c.size());
                                          });
  if (r.refusal == read_refusal::none) r.bytes = std::move(bytes);
  return r;
}

/// `try_read_file_at`, a refusal thrown as `read_refusal_error(…, shown, max)` and an I/O
/// failure re-thrown as "failed to read {shown}: …" (its code and errno kept).
template <class Fs>
std::string read_file_at(Fs& fs, const typename Fs::dir& dir, std::string_view name,
                         std::uint64_t max, read_kinds kinds, const std::string& shown) {
  read_result r;
  try {
    r = try_read_file_at(fs, dir, name, max, kinds);
  } catch (const error& e) {
    throw with_context(e, "failed to read " + shown, shown, reason_of(e));
  }
  if (r.refusal != read_refusal::none) throw read_refusal_error(r.refusal, shown, max);
  return std::move(r.bytes);
}

/// Reads the file at the absolute `path` whole (see `try_read_file_at`); the directories
/// above it are the operator's own path and are followed. With `read_kinds::follow_symlink`
/// a symlinked file is followed to its target (named in messages as "path (a symlink to
/// target)"); without it, it is refused. Every error's subject is `path`; messages start
/// with `what` ("the config") when it is given. errc::invalid_argument for a relative path.
template <class Fs>
std::string read_file(Fs& fs, const std::string& path, std::uint64_t max,
                      read_kinds kinds = read_kinds::regular, const std::string& what = {}) {
  const std::string prefix = what.empty() ? std::string() : what + " ";
  if (path.empty() || path.front() != '/' || path.back() == '/') {
    throw error(errc::invalid_argument, prefix + "must be an absolute file path: " + path, path);
  }
  std::string real = path;
  if (has_kind(kinds, read_kinds::follow_symlink)) {
    const std::optional<std::string> c = fs.canonical(path);
    if (!c) throw error(errc::not_found, prefix + path + " does not exist", path, ENOENT);
    real = *c;
  }
  const std::string shown = prefix + (real == path ? path : path + " (a symlink to " + real + ")");
  const std::string parent = paths::parent(real);
  try {
    auto d = fs.open_root(parent);
    return read_file_at(fs, d, paths::file_name(real), max, kinds, shown);
  } catch (const error& e) {
    if (e.subject() == shown) throw error(e.code(), e.what(), path, e.sys_errno());
    throw with_context(e, "failed to read " + shown, path, reason_of(e));
  }
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
