// SPDX-License-Identifier: MIT
// Foundation: version, configuration macros and the error type.
#pragma once

#include "core/config.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "core/time.hpp"
#include "core/utf8.hpp"
#include "core/version.hpp"
