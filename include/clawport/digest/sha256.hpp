// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4), header-only, incremental. The compression function uses the
// CPU's SHA instructions when it has them (SHA-NI on x86-64, the ARMv8 SHA-2 crypto
// extension on AArch64), chosen at run time, with a portable fallback. No compiler
// flag is needed: the accelerated functions carry their own target attribute.
#pragma once

#include "../core/error.hpp"
#include "policy.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
// Not <immintrin.h>: it parses every AVX-512 header (0.45 s of g++ in each TU that includes
// this; issue 48) for three SHA intrinsics, which are the compiler's builtins below.
#include <smmintrin.h>
#define CLAWPORT_DIGEST_HAVE_X86_SHA 1
#define CLAWPORT_DIGEST_TARGET_X86 __attribute__((target("sha,sse4.1,ssse3")))
#elif defined(__aarch64__) && defined(__linux__) && defined(__GNUC__) &&                    \
    (!defined(__clang__) || defined(__ARM_FEATURE_SHA2) || defined(__ARM_FEATURE_CRYPTO) || \
     __clang_major__ >= 16)
// clang before 16 declares the SHA-2 intrinsics only when the whole TU is built for
// them; GCC (and newer clang) allow them inside a function with the target attribute.
#include <arm_neon.h>
#include <sys/auxv.h>
#define CLAWPORT_DIGEST_HAVE_ARM_SHA 1
#if defined(__clang__)
#define CLAWPORT_DIGEST_TARGET_ARM __attribute__((target("sha2")))
#else
#define CLAWPORT_DIGEST_TARGET_ARM __attribute__((target("+crypto")))
#endif
#endif

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace digest {

/// Which compression function a `sha256` object uses.
enum class sha256_backend {
  portable,  ///< plain C++, every CPU
  x86_sha,   ///< SHA-NI (x86-64 with SHA, SSSE3 and SSE4.1)
  arm_sha2,  ///< ARMv8 SHA-2 crypto extension (AArch64 Linux)
};

/// Wire name of a backend: `"portable"`, `"x86_sha"`, `"arm_sha2"`.
inline constexpr std::string_view sha256_backend_names[] = {"portable", "x86_sha", "arm_sha2"};
constexpr std::string_view to_string(sha256_backend b) noexcept {
  return wire_name<sha256_backend::arm_sha2>(b, sha256_backend_names, "unknown");
}

namespace detail {

alignas(16) inline constexpr std::uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline constexpr std::uint32_t rotr(std::uint32_t x, int n) noexcept {
  return (x >> n) | (x << (32 - n));
}

/// Portable compression of `blocks` consecutive 64-byte blocks into `h`.
inline void sha256_blocks_portable(std::uint32_t h[8], const unsigned char* p,
                                   std::size_t blocks) noexcept {
  for (; blocks != 0; --blocks, p += 64) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      w[i] = (std::uint32_t{p[4 * i]} << 24) | (std::uint32_t{p[4 * i + 1]} << 16) |
             (std::uint32_t{p[4 * i + 2]} << 8) | std::uint32_t{p[4 * i + 3]};
    }
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t t1 =
          hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
      const std::uint32_t t2 =
          (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
}

#if defined(CLAWPORT_DIGEST_HAVE_X86_SHA)

// The SHA-NI intrinsics of <shaintrin.h>, which only <immintrin.h> may include; GCC and
// clang name the builtins alike.
CLAWPORT_DIGEST_TARGET_X86 inline __m128i sha256msg1(__m128i a, __m128i b) noexcept {
  return (__m128i)__builtin_ia32_sha256msg1((__v4si)a, (__v4si)b);
}
CLAWPORT_DIGEST_TARGET_X86 inline __m128i sha256msg2(__m128i a, __m128i b) noexcept {
  return (__m128i)__builtin_ia32_sha256msg2((__v4si)a, (__v4si)b);
}
CLAWPORT_DIGEST_TARGET_X86 inline __m128i sha256rnds2(__m128i a, __m128i b, __m128i k) noexcept {
  return (__m128i)__builtin_ia32_sha256rnds2((__v4si)a, (__v4si)b, (__v4si)k);
}

/// SHA-NI compression. The state lives in two registers as ABEF and CDGH; each group
/// of four rounds takes four schedule words, the schedule is rolled in `m[4]`.
CLAWPORT_DIGEST_TARGET_X86 inline void sha256_blocks_x86(std::uint32_t h[8], const unsigned char* p,
                                                         std::size_t blocks) noexcept {
  const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));         // DCBA
  __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));  // HGFE
  tmp = _mm_shuffle_epi32(tmp, 0xB1);                                         // CDAB
  state1 = _mm_shuffle_epi32(state1, 0x1B);                                   // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);                           // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);                                // CDGH
  for (; blocks != 0; --blocks, p += 64) {
    const __m128i abef = state0;
    const __m128i cdgh = state1;
    __m128i m[4];
    for (int i = 0; i < 4; ++i) {
      m[i] =
          _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i)), byteswap);
    }
    for (int g = 0; g < 16; ++g) {
      __m128i& w = m[g & 3];
      if (g >= 4) {
        // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four words at a time.
        __m128i t = sha256msg1(w, m[(g + 1) & 3]);
        t = _mm_add_epi32(t, _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
        w = sha256msg2(t, m[(g + 3) & 3]);
      }
      __m128i msg =
          _mm_add_epi32(w, _mm_load_si128(reinterpret_cast<const __m128i*>(sha256_k + 4 * g)));
      state1 = sha256rnds2(state1, state0, msg);
      msg = _mm_shuffle_epi32(msg, 0x0E);
      state0 = sha256rnds2(state0, state1, msg);
    }
    state0 = _mm_add_epi32(state0, abef);
    state1 = _mm_add_epi32(state1, cdgh);
  }
  tmp = _mm_shuffle_epi32(state0, 0x1B);        // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);     // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);     // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), state1);
}

/// Asks the CPU whether it has SHA-NI with SSSE3 and SSE4.1 (one `cpuid` pair).
inline bool query_x86_sha() noexcept {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
  const bool ssse3 = (c & (1u << 9)) != 0;
  const bool sse41 = (c & (1u << 19)) != 0;
  if (!ssse3 || !sse41) return false;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, a, b, c, d);
  return (b & (1u << 29)) != 0;
}

/// Whether this CPU has SHA-NI, asked once per process: on a virtual machine `cpuid` traps
/// to the hypervisor (tens of microseconds), which per file was half of verify's time. An
/// immutable fact of the CPU, so the one function-local static is not mutable state.
inline bool cpu_has_x86_sha() noexcept {
  static const bool has = query_x86_sha();
  return has;
}

#endif

#if defined(CLAWPORT_DIGEST_HAVE_ARM_SHA)

/// ARMv8 SHA-2 compression: the state lives as ABCD and EFGH.
CLAWPORT_DIGEST_TARGET_ARM inline void sha256_blocks_arm(std::uint32_t h[8], const unsigned char* p,
                                                         std::size_t blocks) noexcept {
  uint32x4_t state0 = vld1q_u32(h);
  uint32x4_t state1 = vld1q_u32(h + 4);
  for (; blocks != 0; --blocks, p += 64) {
    const uint32x4_t abcd = state0;
    const uint32x4_t efgh = state1;
    uint32x4_t m[4];
    for (int i = 0; i < 4; ++i) {
      m[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * i)));
    }
    for (int g = 0; g < 16; ++g) {
      uint32x4_t& w = m[g & 3];
      if (g >= 4) {
        w = vsha256su1q_u32(vsha256su0q_u32(w, m[(g + 1) & 3]), m[(g + 2) & 3], m[(g + 3) & 3]);
      }
      const uint32x4_t msg = vaddq_u32(w, vld1q_u32(sha256_k + 4 * g));
      const uint32x4_t prev = state0;
      state0 = vsha256hq_u32(state0, state1, msg);
      state1 = vsha256h2q_u32(state1, prev, msg);
    }
    state0 = vaddq_u32(state0, abcd);
    state1 = vaddq_u32(state1, efgh);
  }
  vst1q_u32(h, state0);
  vst1q_u32(h + 4, state1);
}

inline bool query_arm_sha2() noexcept {
#if defined(HWCAP_SHA2)
  return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0;
#else
  return (getauxval(AT_HWCAP) & (1ul << 6)) != 0;  // HWCAP_SHA2 on AArch64 Linux
#endif
}

/// Whether this CPU has the ARMv8 SHA-2 instructions, asked once per process.
inline bool cpu_has_arm_sha2() noexcept {
  static const bool has = query_arm_sha2();
  return has;
}

#endif

}  // namespace detail

/// Whether this build and this CPU can run `b`.
inline bool sha256_backend_available(sha256_backend b) noexcept {
  switch (b) {
    case sha256_backend::portable:
      return true;
    case sha256_backend::x86_sha:
#if defined(CLAWPORT_DIGEST_HAVE_X86_SHA)
      return detail::cpu_has_x86_sha();
#else
      return false;
#endif
    case sha256_backend::arm_sha2:
#if defined(CLAWPORT_DIGEST_HAVE_ARM_SHA)
      return detail::cpu_has_arm_sha2();
#else
      return false;
#endif
  }
  return false;
}

/// The fastest backend this CPU runs. The CPU is asked once per process (`cpuid` on x86-64,
/// `getauxval` on AArch64); every later call reads the answer.
inline sha256_backend sha256_best_backend() noexcept {
  if (sha256_backend_available(sha256_backend::x86_sha)) return sha256_backend::x86_sha;
  if (sha256_backend_available(sha256_backend::arm_sha2)) return sha256_backend::arm_sha2;
  return sha256_backend::portable;
}

/// Incremental SHA-256; models the Digest policy (`<clawport/digest/policy.hpp>`).
///
///     digest::sha256 h;            // fastest backend of this CPU
///     h.update(data, size);        // any number of times
///     auto bytes = h.finish();     // 32 bytes; h is then ready for a new message
class sha256 {
 public:
  static constexpr std::size_t digest_size = 32;
  static constexpr std::size_t block_size = 64;
  using value_type = std::array<std::uint8_t, digest_size>;

  sha256() noexcept : sha256(sha256_best_backend(), nullptr) {}

  /// Forces a backend; `errc::unsupported` if this build or CPU cannot run it.
  explicit sha256(sha256_backend b) : sha256(b, nullptr) {
    if (!sha256_backend_available(b)) {
      throw error(errc::unsupported,
                  "SHA-256 backend " + std::string(to_string(b)) + " is not available on this CPU",
                  std::string(to_string(b)));
    }
  }

  sha256_backend backend() const noexcept { return backend_; }

  void update(const void* data, std::size_t size) noexcept {
    const auto* p = static_cast<const unsigned char*>(data);
    total_ += size;
    if (fill_ != 0) {
      const std::size_t take = size < block_size - fill_ ? size : block_size - fill_;
      std::memcpy(buffer_ + fill_, p, take);
      fill_ += take;
      p += take;
      size -= take;
      if (fill_ < block_size) return;
      compress(buffer_, 1);
      fill_ = 0;
    }
    if (size >= block_size) {
      compress(p, size / block_size);
      p += size - size % block_size;
      size %= block_size;
    }
    if (size != 0) {
      std::memcpy(buffer_, p, size);
      fill_ = size;
    }
  }

  void update(std::string_view text) noexcept { update(text.data(), text.size()); }

  /// The digest of everything updated since construction or the last `finish()`;
  /// resets the object to hash a new message with the same backend.
  value_type finish() noexcept {
    const std::uint64_t bits = total_ * 8;
    unsigned char pad[block_size * 2] = {0x80};
    const std::size_t pad_len = (fill_ < 56 ? 56 - fill_ : 120 - fill_);
    for (int i = 0; i < 8; ++i) {
      pad[pad_len + static_cast<std::size_t>(i)] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    }
    update(pad, pad_len + 8);
    value_type out{};
    for (std::size_t i = 0; i < 8; ++i) {
      out[4 * i] = static_cast<std::uint8_t>(h_[i] >> 24);
      out[4 * i + 1] = static_cast<std::uint8_t>(h_[i] >> 16);
      out[4 * i + 2] = static_cast<std::uint8_t>(h_[i] >> 8);
      out[4 * i + 3] = static_cast<std::uint8_t>(h_[i]);
    }
    reset();
    return out;
  }

  /// Starts a new message (same backend).
  void reset() noexcept {
    static constexpr std::uint32_t init[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::memcpy(h_, init, sizeof h_);
    total_ = 0;
    fill_ = 0;
  }

 private:
  sha256(sha256_backend b, std::nullptr_t) noexcept : backend_(b) { reset(); }

  void compress(const unsigned char* p, std::size_t blocks) noexcept {
    switch (backend_) {
#if defined(CLAWPORT_DIGEST_HAVE_X86_SHA)
      case sha256_backend::x86_sha:
        detail::sha256_blocks_x86(h_, p, blocks);
        return;
#endif
#if defined(CLAWPORT_DIGEST_HAVE_ARM_SHA)
      case sha256_backend::arm_sha2:
        detail::sha256_blocks_arm(h_, p, blocks);
        return;
#endif
      default:
        detail::sha256_blocks_portable(h_, p, blocks);
        return;
    }
  }

  sha256_backend backend_;
  std::uint32_t h_[8];
  std::uint64_t total_ = 0;
  std::size_t fill_ = 0;
  unsigned char buffer_[block_size];
};

static_assert(check_policy<sha256>());

/// Lower-case hexadecimal of a digest (or any byte array).
template <std::size_t N>
std::string to_hex(const std::array<std::uint8_t, N>& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(2 * N, '0');
  for (std::size_t i = 0; i < N; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 0x0f];
  }
  return out;
}

/// SHA-256 of `text` as 64 lower-case hex digits.
inline std::string sha256_hex(std::string_view text) {
  sha256 h;
  h.update(text);
  return to_hex(h.finish());
}

/// The label a SHA-256 digest carries where clawport writes one (bundle manifests, plan
/// integrity, OpenClaw ledgers): `sha256:<64 lower-case hex digits>`.
inline constexpr std::string_view sha256_label = "sha256:";

/// `hex` (a SHA-256 in lower-case hex) labelled: `"sha256:" + hex`. The one place the
/// labelled form is written.
inline std::string prefixed(std::string_view hex) {
  std::string out(sha256_label);
  out += hex;
  return out;
}

/// SHA-256 of `bytes` in the labelled form `sha256:<64 hex>`.
inline std::string sha256_prefixed(std::string_view bytes) { return prefixed(sha256_hex(bytes)); }

/// The short form of a digest used in names (staging directories): its first 12 hex
/// digits, after the `sha256:` label when it has one.
inline std::string short_form(std::string_view digest) {
  if (digest.substr(0, sha256_label.size()) == sha256_label)
    digest.remove_prefix(sha256_label.size());
  return std::string(digest.substr(0, 12));
}

}  // namespace digest
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport

#undef CLAWPORT_DIGEST_TARGET_X86
#undef CLAWPORT_DIGEST_TARGET_ARM
#undef CLAWPORT_DIGEST_HAVE_X86_SHA
#undef CLAWPORT_DIGEST_HAVE_ARM_SHA
