// SPDX-License-Identifier: MIT
// Agent memory as it travels (bundle format 2, `--with-memory`): the entry, the Store policy.
// Pure, no SQLite: the SQLite store is <clawport/sqlite.hpp> (opt-in, links libsqlite3).
#pragma once

#include "memory/entry.hpp"
#include "memory/jsonl.hpp"
#include "memory/markdown.hpp"
#include "memory/markdown_files.hpp"
#include "memory/target.hpp"
