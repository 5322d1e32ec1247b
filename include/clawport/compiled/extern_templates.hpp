// SPDX-License-Identifier: MIT
// The default-policy instantiations that the compiled mode's one TU (src/compiled.cpp,
// target clawport::compiled) defines, declared `extern template` here, so that a TU of a
// program linking it calls them instead of instantiating and generating them again
// (docs/library.md, "Compiled mode"; docs/benchmarks.md, "Compile cost").
// The declarations are seen only where CLAWPORT_LINK_COMPILED is defined, which linking the
// clawport::compiled CMake target does; the umbrella <clawport/clawport.hpp> includes this
// header. Without the macro nothing is declared and the library stays header-only.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "../exporter.hpp"
#include "../fs/posix.hpp"
#include "../publish/exchange.hpp"
#include "../publish/none.hpp"
#include "../verify.hpp"
#include "../zeroclaw/api.hpp"
#include "../zeroclaw/secret_ledger.hpp"

#ifdef CLAWPORT_LINK_COMPILED
namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

// The export (each publish strategy): the class, and the function templates its members call
// (non-inline, so neither compiler instantiates them in a TU that sees these declarations; the
// class's members are inline, which g++ honours and clang++ still optimises for inlining).
extern template class basic_exporter<>;
extern template class basic_exporter<fs::posix, zeroclaw::schema_v3, publish::exchange>;
extern template class basic_exporter<fs::posix, zeroclaw::schema_v3, publish::none>;
namespace zeroclaw {
extern template export_plan plan_export<schema_v3, names::portable>(std::string_view,
                                                                    std::string_view,
                                                                    const plan_options&);
extern template std::string render_config_toml<schema_v3>(const export_plan&);
extern template std::set<std::string> read_secret_ledger<fs::posix>(fs::posix&, const std::string&,
                                                                    const std::string&);
}  // namespace zeroclaw

// The verify.
namespace verify {
extern template report verify_bundle<fs::posix, zeroclaw::schema_v3>(fs::posix&, const std::string&,
                                                                     const limits&);
extern template report verify_bundle<fs::posix, zeroclaw::schema_v3>(fs::posix&, const std::string&,
                                                                     const limits&, unsigned,
                                                                     const progress_function&);
extern template report verify_bundle_files<fs::posix, zeroclaw::schema_v3>(
    fs::posix&, const std::string&, const limits&, unsigned, const progress_function&);
}  // namespace verify

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
#endif  // CLAWPORT_LINK_COMPILED
