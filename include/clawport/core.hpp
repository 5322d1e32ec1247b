// SPDX-License-Identifier: MIT
// Foundation: version, configuration macros (and the ABI namespace keyed on them), the error
// type, time, UTF-8, text and lexical paths.
#pragma once

#include "core/config.hpp"
#include "core/error.hpp"
#include "core/host.hpp"
#include "core/paths.hpp"
#include "core/text.hpp"
#include "core/time.hpp"
#include "core/utf8.hpp"
#include "core/version.hpp"
