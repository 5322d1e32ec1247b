// SPDX-License-Identifier: MIT
// The export: basic_exporter (the order of operations of docs/library.md, Exporting, over the four
// policies), the report and JSON rendering, and recover.
#pragma once

#include "exporter/destination.hpp"
#include "exporter/exporter.hpp"
#include "exporter/recover.hpp"
#include "exporter/report.hpp"
#include "exporter/result.hpp"
#include "exporter/signature.hpp"
