// SPDX-License-Identifier: MIT
#include "support/test.hpp"
