// SPDX-License-Identifier: MIT
// Publishing a finished bundle: admission of the destination, the Publish policy and its
// strategies (staged_swap, exchange, none).
#pragma once

#include "publish/admission.hpp"
#include "publish/exchange.hpp"
#include "publish/names.hpp"
#include "publish/none.hpp"
#include "publish/policy.hpp"
#include "publish/replace_file.hpp"
#include "publish/staged_swap.hpp"
