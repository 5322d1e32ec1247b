// SPDX-License-Identifier: MIT
// Filesystem access: the Fs policy and its backends (fs::posix, fs::memory), anchored
// root opening and the handle-based tree copy.
#pragma once

#include "fs/anchored.hpp"
#include "fs/copy.hpp"
#include "fs/faulty.hpp"
#include "fs/memory.hpp"
#include "fs/policy.hpp"
#include "fs/posix.hpp"
#include "fs/sys_error.hpp"
