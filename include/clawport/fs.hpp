// SPDX-License-Identifier: MIT
// Filesystem access: the Fs policy, the production backend fs::posix, anchored root opening
// and the handle-based tree copy. The test backends (fs::memory, fs::faulty) are opt-in:
// <clawport/testing.hpp>.
#pragma once

#include "fs/anchored.hpp"
#include "fs/copy.hpp"
#include "fs/jobs.hpp"
#include "fs/modes.hpp"
#include "fs/open_path.hpp"
#include "fs/owner.hpp"
#include "fs/policy.hpp"
#include "fs/posix.hpp"
#include "fs/read_file.hpp"
#include "fs/sys_error.hpp"
#include "fs/temp_dir.hpp"
#include "fs/write_new_file.hpp"
