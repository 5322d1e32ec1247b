// SPDX-License-Identifier: MIT
// Signed bundles (issue 29): the Signer and SignatureVerifier policies and their
// implementation through OpenSSH's ssh-keygen (run only when a signature is asked for).
#pragma once

#include "signing/policy.hpp"
#include "signing/ssh_keygen.hpp"
