// SPDX-License-Identifier: MIT
// expect: Publish policy: missing `static constexpr bool writes`
// errors: 1
#include <clawport/fs.hpp>
#include <clawport/publish.hpp>

struct no_writes {
  static constexpr std::string_view name = "x";
  template <class Fs>
  static clawport::publish::outcome publish(Fs&, const typename Fs::dir&,
                                            const clawport::publish::request&) {
    return {};
  }
};

static_assert(clawport::publish::check_policy<no_writes, clawport::fs::posix>());
