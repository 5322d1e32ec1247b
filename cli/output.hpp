// SPDX-License-Identifier: MIT
// The one output path of the CLI (issue 41 item 2): the only place in cli/ that writes to
// stdout or stderr (tools/check_rules.py fails on any other). Human text built from
// anything a user did not write (names read from a config, a bundle, a directory listing,
// a child's output) is escaped here through `text::terminal_lines`; text the library
// already rendered through it, and JSON documents (`json::dump`), go out as they are.
#pragma once

#include <clawport/clawport.hpp>

#include <iostream>
#include <string>
#include <string_view>

namespace clawport::cli::out {

/// Where a piece of output goes.
enum class to { out, err };

/// The stream of `t`. For CLI11 only (its help and version text, which clawport writes);
/// every other write goes through the functions below.
inline std::ostream& stream(to t) { return t == to::out ? std::cout : std::cerr; }

/// Human output in plain characters (host_environment::plain_text: NO_COLOR, TERM=dumb),
/// set once by `main`: the emoji markers of the reports become words here, in one place.
inline bool& plain() {
  static bool on = false;
  return on;
}

/// Text already safe for a terminal: the library's renderers (`text::terminal_lines`,
/// `render_plan`, `render_report`, `plan_text`...). Printed as is, but for the emoji
/// markers in plain mode (text::plain_markers).
inline void rendered(std::string_view text, to t = to::out) {
  if (plain())
    stream(t) << text::plain_markers(std::string(text)) << std::flush;
  else
    stream(t) << text << std::flush;
}

/// Lines made with `text::terminal_lines`: each piece already escaped.
inline void lines(const text::terminal_lines& l, to t = to::out) { rendered(l.text, t); }

/// A JSON document (`json::dump`, `json_text`), and the newline that ends it.
inline void document(std::string_view json) {
  std::cout << json;
  if (json.empty() || json.back() != '\n') std::cout << '\n';
  std::cout << std::flush;
}

/// One line of human text built from values: escaped whole, a newline inside included.
inline void line(std::string_view s, to t = to::out) {
  text::terminal_lines l;
  l(s);
  rendered(l.text, t);
}

/// `clawport: warning: <w>` on stderr, escaped.
inline void warning(std::string_view w) { line("clawport: warning: " + std::string(w), to::err); }

/// A question the answer follows on the same line (stderr unless told): escaped, no newline.
inline void prompt(std::string_view s, to t = to::err) {
  stream(t) << text::escape_for_terminal(s) << std::flush;
}

/// The progress line on stderr (a terminal only: the caller checks), rewritten in place;
/// `clear_progress` erases it.
inline void progress(std::string_view s) {
  std::cerr << '\r' << text::escape_for_terminal(s) << std::flush;
}
inline void clear_progress() { std::cerr << "\r\033[K" << std::flush; }

/// A failure: `clawport: error: ...` on stderr, or with `json` the error document on
/// stdout too (and the line on stderr for a person watching). A control character in a
/// path or value is shown escaped (issue 9 item 11).
inline void error(const clawport::error& e, bool json) {
  std::string l = "clawport: error: " + std::string(e.what());
  if (!e.subject().empty() && std::string(e.what()).find(e.subject()) == std::string::npos)
    l += " (" + e.subject() + ")";
  line(l, to::err);
  if (json) document(clawport::json::dump(clawport::json::error_document(e)));
}

}  // namespace clawport::cli::out
