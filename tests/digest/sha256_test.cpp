// SPDX-License-Identifier: MIT
// SHA-256 against the NIST FIPS 180-4 example vectors, on every backend this CPU runs,
// and the accelerated backend against the portable one on random lengths and splits.
#include "support/test.hpp"

#include <random>
#include <string>
#include <vector>

namespace digest = clawport::digest;

namespace {

std::vector<digest::sha256_backend> runnable_backends() {
  std::vector<digest::sha256_backend> out;
  for (auto b : {digest::sha256_backend::portable, digest::sha256_backend::x86_sha,
                 digest::sha256_backend::arm_sha2}) {
    if (digest::sha256_backend_available(b)) out.push_back(b);
  }
  return out;
}

std::string hex_of(digest::sha256_backend b, const std::string& text) {
  digest::sha256 h(b);
  h.update(text);
  return digest::to_hex(h.finish());
}

struct no_finish {
  [[maybe_unused]] static constexpr std::size_t digest_size = 32;
  void update(const void*, std::size_t) {}
  void update(std::string_view) {}
};

struct wrong_finish {
  static constexpr std::size_t digest_size = 32;
  void update(const void*, std::size_t) {}
  void update(std::string_view) {}
  std::string finish() { return {}; }
};

}  // namespace

TEST_CASE("sha256: NIST vectors on every backend this CPU runs") {
  const std::string million(1000000, 'a');
  const struct {
    const char* name;
    std::string text;
    const char* hex;
  } vectors[] = {
      {"empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"448 bits", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"896 bits",
       "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlm"
       "nopqrsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
      {"one million a", million,
       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
  };
  for (auto b : runnable_backends()) {
    CAPTURE(std::string(digest::to_string(b)));
    for (const auto& v : vectors) {
      CAPTURE(std::string(v.name));
      CHECK(hex_of(b, v.text) == v.hex);
      // The same message fed one byte at a time, then in 1000-byte pieces.
      digest::sha256 h(b);
      if (v.text.size() < 2000) {
        for (char c : v.text) h.update(&c, 1);
      } else {
        for (std::size_t i = 0; i < v.text.size(); i += 1000) {
          h.update(std::string_view(v.text).substr(i, 1000));
        }
      }
      CHECK(digest::to_hex(h.finish()) == v.hex);
    }
  }
  CHECK(digest::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256: the labelled form sha256:<hex> and its 12-digit short form") {
  const std::string abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  CHECK(clawport::digest::prefixed(abc) == "sha256:" + abc);
  CHECK(clawport::digest::sha256_prefixed("abc") == "sha256:" + abc);
  CHECK(clawport::digest::short_form("sha256:" + abc) == "ba7816bf8f01");
  CHECK(clawport::digest::short_form(abc) == "ba7816bf8f01");
  CHECK(clawport::digest::short_form("sha256:ab") == "ab");
}

TEST_CASE("sha256: finish() resets, so one object hashes consecutive messages") {
  digest::sha256 h;
  h.update("abc");
  CHECK(digest::to_hex(h.finish()) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(digest::to_hex(h.finish()) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("sha256: the accelerated backend equals the portable one on random input") {
  const auto best = digest::sha256_best_backend();
  if (best == digest::sha256_backend::portable) {
    MESSAGE("this CPU has no SHA instructions; only the portable backend is tested");
    return;
  }
  std::mt19937_64 rng(20261201);
  std::string data(70000, '\0');
  for (auto& c : data) c = static_cast<char>(rng());
  for (int round = 0; round < 400; ++round) {
    const std::size_t len =
        round < 200 ? static_cast<std::size_t>(round) : static_cast<std::size_t>(rng() % 70000);
    const std::string_view msg(data.data(), len);
    digest::sha256 portable(digest::sha256_backend::portable);
    digest::sha256 fast(best);
    // Feed both in the same random pieces, so buffering across blocks is exercised.
    std::size_t at = 0;
    while (at < len) {
      const std::size_t piece = std::min<std::size_t>(len - at, rng() % 300 + 1);
      portable.update(msg.substr(at, piece));
      fast.update(msg.substr(at, piece));
      at += piece;
    }
    CAPTURE(len);
    CHECK(digest::to_hex(fast.finish()) == digest::to_hex(portable.finish()));
  }
}

TEST_CASE("sha256: forcing a backend the CPU lacks is refused as unsupported") {
  for (auto b : {digest::sha256_backend::x86_sha, digest::sha256_backend::arm_sha2}) {
    if (digest::sha256_backend_available(b)) continue;
    try {
      digest::sha256 h(b);
      FAIL("constructed an unavailable backend");
    } catch (const clawport::error& e) {
      CHECK(e.code() == clawport::errc::unsupported);
      CHECK(e.subject() == std::string(digest::to_string(b)));
    }
  }
}

TEST_CASE("digest policy: sha256 models it; a type missing finish() or with a wrong one does not") {
  static_assert(digest::check_policy<digest::sha256>());
  CHECK_FALSE(digest::detail::has_finish<no_finish>::value);
  CHECK(digest::detail::has_update_view<no_finish>::value);
  CHECK(digest::detail::has_finish<wrong_finish>::value);
  CHECK_FALSE(digest::detail::finish_is_bytes<wrong_finish>::value);
  CHECK(digest::detail::finish_is_bytes<digest::sha256>::value);
}

TEST_CASE("digest list: sorted bytewise, escaped as sha256sum escapes, parsed back") {
  const std::string a(64, 'a'), b(64, 'b'), c(64, 'c');
  const std::string text = digest::render_list({{"workspace/z", a},
                                                {"config.toml", b},
                                                {"Workspace/A", c},
                                                {"back\\slash", a},
                                                {"new\nline", b}});
  CHECK(text == c + "  Workspace/A\n" + "\\" + a + "  back\\\\slash\n" + b + "  config.toml\n" +
                    "\\" + b + "  new\\nline\n" + a + "  workspace/z\n");
  const auto back = digest::parse_list(text, "list");
  REQUIRE(back.size() == 5);
  CHECK(back[1].path == "back\\slash");
  CHECK(back[3].path == "new\nline");
  CHECK(back[4] == digest::list_entry{"workspace/z", a});
  CHECK(digest::parse_list(a + " *binary-mode\n", "list")[0].path == "binary-mode");
}

TEST_CASE("digest list: malformed lines and duplicates are refused naming the line") {
  const std::string a(64, 'a');
  const auto refused = [](const std::string& text) {
    try {
      digest::parse_list(text, "zeroclaw-agent.sha256");
    } catch (const clawport::error& e) {
      CHECK(e.code() == clawport::errc::bundle_invalid);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refused(a + "  x").find("newline") != std::string::npos);
  CHECK(refused(a + "  x\n" + "zz\n").find("line 2") != std::string::npos);
  CHECK(refused(std::string(64, 'A') + "  x\n").find("lower-case") != std::string::npos);
  CHECK(refused(a + " x\n").find("too short") != std::string::npos);
  CHECK(refused(a + " -x\n").find("two spaces") != std::string::npos);
  CHECK(refused("\\" + a + "  bad\\qescape\n").find("unknown escape") != std::string::npos);
  CHECK(refused(a + "  x\n" + a + "  x\n").find("twice") != std::string::npos);
  CHECK_THROWS_AS(digest::render_list({{"x", a}, {"x", a}}), clawport::error);
  CHECK_THROWS_AS(digest::render_list({{"x", "short"}}), clawport::error);
}
