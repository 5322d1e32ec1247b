// SPDX-License-Identifier: MIT
// The OpenClaw write side, offline (docs/openclaw.md, "Lifecycle"): `add` (consent, the
// plan rebuilt and compared, the workspace staged and published or adopted, provenance in
// the ledger, the agent registered in openclaw.json), `status` (drift, read-only) and
// `remove` (unchanged managed files only, the ledger entry last). Every failure of `add`
// is rolled back so the state directory and the workspace hold what they held before. One
// command per header: add.hpp, status.hpp, remove.hpp (what they share: lifecycle_base.hpp).
#pragma once

#include "add.hpp"
#include "lifecycle_base.hpp"
#include "remove.hpp"
#include "status.hpp"
