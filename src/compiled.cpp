// SPDX-License-Identifier: MIT
// The clawport::compiled library: the one TU that defines the compiled mode's entry points
// (include/clawport/compiled/api.hpp).
#include <clawport/compiled/implementation.hpp>
