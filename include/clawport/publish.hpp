// SPDX-License-Identifier: MIT
// Publishing a finished bundle: admission of the destination, the Publish policy and its
// strategies (staged_swap, exchange, none); the staged directory, the no-replace rename and
// the undo journal every apply shares.
#pragma once

#include "publish/admission.hpp"
#include "publish/exchange.hpp"
#include "publish/exchange_entry.hpp"
#include "publish/intent.hpp"
#include "publish/names.hpp"
#include "publish/none.hpp"
#include "publish/policy.hpp"
#include "publish/rename.hpp"
#include "publish/replace_file.hpp"
#include "publish/staged_dir.hpp"
#include "publish/staged_swap.hpp"
#include "publish/undo.hpp"
