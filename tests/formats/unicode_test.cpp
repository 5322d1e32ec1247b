// SPDX-License-Identifier: MIT
// JavaScript's localeCompare approximated (formats/unicode.hpp, openclaw-claws.md Appendix
// C.2); the cross-check against Node's ICU is collation_crosscheck.py beside this file.
#include "support/test.hpp"

#include <string>

TEST_SUITE("formats.unicode") {
  // Every expected order below is what JavaScript's localeCompare (ICU root) gives; the
  // reason is the UCA level that decides it (primary: letters, secondary: diacritics,
  // tertiary: case and variants).
  TEST_CASE("localeCompare: ICU root collation, approximated (Appendix C.2)") {
    const auto lt = [](const char* a, const char* b) {
      INFO(a << " < " << b);
      CHECK(clawport::unicode::locale_compare(a, b) == -1);
      CHECK(clawport::unicode::locale_compare(b, a) == 1);
      CHECK(clawport::unicode::locale_less(a, b));
      CHECK_FALSE(clawport::unicode::locale_less(b, a));
    };
    const auto eq = [](const char* a, const char* b) {
      INFO(a << " == " << b);
      CHECK(clawport::unicode::locale_compare(a, b) == 0);
      CHECK_FALSE(clawport::unicode::locale_less(a, b));
      CHECK_FALSE(clawport::unicode::locale_less(b, a));
    };
    // ASCII, what plan keys are made of: spaces < punctuation < symbols < currency < digits
    // < letters; `_` before `-` before `.`; case only at the tertiary level, lower first.
    lt("a b", "a_b");
    lt("a\tb", "a b");
    lt("_", "-");
    lt("-", ".");
    lt("a_b", "a.b");
    lt("x_1", "x-1");
    lt("x_1", "x1");
    lt("a+b", "a$b");
    lt("$", "0");
    lt("0", "a");
    lt("a", "A");
    lt("ab", "aB");
    lt("aB", "Ab");  // tertiary: the first difference decides
    lt("Ab", "ac");  // primary before tertiary
    lt("cronJob:x", "mcpServer:a");
    lt("package:skill:@a/b", "package:skill:a");  // `@` is punctuation, before letters
    // Diacritics are secondary: they only decide between strings equal without them.
    lt("a", "\xC3\xA1");  // a < á
    lt("\xC3\xA1", "b");  // á < b
    lt("e", "\xC3\xA9");  // e < é
    lt("\xC3\xA9", "f");  // é < f
    lt("\xC3\xA4", "Z");  // ä < Z: the letter decides, not the case or the mark
    lt("A", "\xC3\xA1");  // secondary before tertiary: A < á
    lt("resume", "r\xC3\xA9sum\xC3\xA9");
    lt("r\xC3\xA9sum\xC3\xA9", "resumes");
    lt("ab\xCC\x81",
       "\xC3\xA1"
       "b");                      // the first position with a mark decides
    lt("\xC3\xA1", "\xC3\xA0");   // ICU's order of marks: acute < grave
    lt("\xC3\xA0", "\xC3\xA2");   // grave < circumflex
    lt("\xC3\xB6", "\xC3\xB8");   // ö < ø (o + a stroke, heavier than the diaeresis)
    eq("\xC3\xA9", "e\xCC\x81");  // canonically equivalent: NFD first
    // Letters ICU expands or orders on their own.
    lt("ss", "\xC3\x9F");  // ß = ss + a variant
    lt("SS", "\xC3\x9F");
    lt("\xC3\x9F", "st");
    lt("ae", "\xC3\xA6");  // æ = ae + a variant
    lt("AE", "\xC3\xA6");
    lt("\xC3\xA6", "af");
    lt("\xC3\xB8", "oz");  // ø is an o
    lt("nz", "\xC5\x8B");  // ŋ is a letter of its own after n
    lt("\xC5\x8B", "o");
    lt("iz", "\xC4\xB1");  // ı after i
    lt("\xC4\xB1", "j");
    lt("z", "\xC3\xBE");  // þ after z
    // Other scripts after Latin; digits of every script are digits.
    lt("z", "\xCE\xB1");         // z < α
    lt("\xCE\xB1", "\xCE\xAC");  // α < ά (tonos is a diacritic)
    lt("\xCE\xAC", "\xCE\xB2");  // ά < β
    lt("\xCE\xB2", "\xD0\xB1");  // Greek < Cyrillic
    eq("1", "\xD9\xA1");         // ١ (Arabic-Indic one) = 1
    lt("\xD9\xA1", "2");
    lt("2", "\xC2\xB2");  // ² is a 2 with a tertiary difference
    lt("\xC2\xB2", "3");
    // Non-ASCII punctuation in ICU's measured order: hyphen < en dash < em dash < period.
    lt("a-b",
       "a\xE2\x80\x93"
       "b");
    lt("a\xE2\x80\x93"
       "b",
       "a\xE2\x80\x94"
       "b");
    lt("a\xE2\x80\x94"
       "b",
       "a.b");
    lt("a\xE2\x82\xAC"
       "b",
       "a0b");  // € before digits
    lt("a$b",
       "a\xE2\x82\xAC"
       "b");  // $ before €
    // Controls and format characters are ignorable.
    eq("a\x01"
       "b",
       "ab");
    eq("a\xE2\x80\x8B"
       "b",
       "ab");  // zero-width space
    eq("", "\x01");
  }
}
