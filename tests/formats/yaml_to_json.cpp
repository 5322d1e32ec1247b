// SPDX-License-Identifier: MIT
// yaml_to_json: reads YAML documents with clawport's YAML reader (formats/yaml.hpp) and prints each
// as JSON, for tests/formats/yaml_crosscheck.py. Input on stdin: documents separated by a
// line "\x1e" (ASCII RS). Output: one line per document, `OK <json>` or `ERR <kind> <msg>`.
// Only formats/ (a tenth of the umbrella's compile, issue 48); single_include/ (the ASan
// build) has the umbrella alone.
#if __has_include(<clawport/formats.hpp>)
#include <clawport/formats.hpp>
#else
#include <clawport/clawport.hpp>
#endif

#include <iostream>
#include <iterator>
#include <string>

int main() {
  const std::string all((std::istreambuf_iterator<char>(std::cin)),
                        std::istreambuf_iterator<char>());
  std::size_t from = 0;
  for (;;) {
    std::size_t sep = all.find("\n\x1e\n", from);
    const std::string doc =
        all.substr(from, sep == std::string::npos ? std::string::npos : sep - from + 1);
    const auto r = clawport::yaml::parse(doc);
    if (r.ok()) {
      std::cout << "OK " << clawport::json::stable_stringify(r.value) << "\n";
    } else {
      std::cout << "ERR " << static_cast<int>(r.error->kind) << " " << r.error->where() << "\n";
    }
    if (sep == std::string::npos) break;
    from = sep + 3;
    if (from >= all.size()) break;
  }
  return 0;
}
