// SPDX-License-Identifier: MIT
// The one definition of each default-policy instantiation compiled/extern_templates.hpp
// declares: the export with each of its three publish strategies (and the function
// templates its members call) and the verify. Included by compiled/implementation.hpp (the
// clawport::compiled TU) and by the C ABI's bindings/c/abi_instances.cpp, which compiles
// them in parallel with the parts that call them. Include it in one TU of a program only.
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

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

template class basic_exporter<>;
template class basic_exporter<fs::posix, zeroclaw::schema_v3, publish::exchange>;
template class basic_exporter<fs::posix, zeroclaw::schema_v3, publish::none>;
namespace zeroclaw {
template export_plan plan_export<schema_v3, names::portable>(std::string_view, std::string_view,
                                                             const plan_options&);
template std::string render_config_toml<schema_v3>(const export_plan&);
template std::set<std::string> read_secret_ledger<fs::posix>(fs::posix&, const std::string&,
                                                             const std::string&);
}  // namespace zeroclaw
namespace verify {
template report verify_bundle<fs::posix, zeroclaw::schema_v3>(fs::posix&, const std::string&,
                                                              const limits&);
template report verify_bundle<fs::posix, zeroclaw::schema_v3>(fs::posix&, const std::string&,
                                                              const limits&, unsigned,
                                                              const progress_function&);
template report verify_bundle_files<fs::posix, zeroclaw::schema_v3>(fs::posix&, const std::string&,
                                                                    const limits&, unsigned,
                                                                    const progress_function&);
}  // namespace verify

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
