// SPDX-License-Identifier: MIT
// Umbrella header of the process module: the one process runner (the skills commands'
// TEST.sh and git, the signing policies' ssh-keygen).
#pragma once

#include "process/runner.hpp"
