// SPDX-License-Identifier: MIT
// Importing a bundle into an install: verify, plan (renames, reuse, maps), apply; the
// state of an install afterwards (status) and its secrets (list, set; the cipher a policy).
#pragma once

#include "importer/apply.hpp"
#include "importer/file_stream.hpp"
#include "importer/plan.hpp"
#include "importer/render.hpp"
#include "importer/secrets.hpp"
#include "importer/staged_copy.hpp"
#include "importer/status.hpp"
