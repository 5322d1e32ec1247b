// SPDX-License-Identifier: MIT
// Opt-in, NOT part of <clawport/clawport.hpp>: ZeroClaw's SQLite memory store (`brain.db`)
// behind the memory Store policy. Include it explicitly and link libsqlite3 (pkg-config
// `sqlite3`): #include <clawport/sqlite.hpp>. Nothing else in the library includes it.
#pragma once

#include "sqlite/merge.hpp"
#include "sqlite/schema.hpp"
#include "sqlite/store.hpp"
