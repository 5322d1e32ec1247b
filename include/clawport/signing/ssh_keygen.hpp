// SPDX-License-Identifier: MIT
// The Signer and SignatureVerifier policies through OpenSSH's own `ssh-keygen -Y` (the
// SSHSIG format git uses for SSH-signed commits): no cryptography here, only the program
// run, by the library's one process runner (process/runner.hpp: no shell, everything it
// starts killed at the deadline) in its own session (no terminal to ask a passphrase on),
// with an environment of PATH alone (plus SSH_AUTH_SOCK when signing with an agent's key)
// and stdin from the data, a file of a private temporary directory (fs::temp_dir, 0700) that
// also holds the signature `-s` needs as a file. The directory is removed afterwards.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/posix.hpp"
#include "../fs/temp_dir.hpp"
#include "../process/runner.hpp"
#include "policy.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace signing {

/// How ssh-keygen is run.
struct ssh_keygen_options {
  /// The program; empty = the first of /usr/bin/ssh-keygen and /bin/ssh-keygen that exists
  /// (the child's PATH is /usr/bin:/bin, so nothing else would be found either).
  std::string program;
  /// Where the private temporary directory is made (host_environment::temp_root).
  std::string temp_root = "/tmp";
  /// The deadline of one ssh-keygen run; it is killed when it passes.
  std::chrono::milliseconds timeout{30000};
};

/// What one run gave.
struct ssh_keygen_run {
  int exit = -1;  ///< the exit status; -1 when killed
  std::string out;
  std::string err;
};

namespace detail {

inline std::string program_of(const ssh_keygen_options& o) {
  if (!o.program.empty()) return o.program;
  for (const char* p : {"/usr/bin/ssh-keygen", "/bin/ssh-keygen"})
    if (::access(p, X_OK) == 0) return p;
  throw error(errc::unsupported,
              "ssh-keygen was not found in /usr/bin or /bin; signed bundles need OpenSSH's "
              "ssh-keygen (Debian and Ubuntu: apt-get install openssh-client)",
              "ssh-keygen");
}

/// The private temporary directory one run's files go in (fs::temp_dir, through fs::posix).
struct private_dir {
  explicit private_dir(const std::string& root)
      : dir(disk, root.empty() ? std::string("/tmp") : root, "clawport-sign.") {}
  /// A new file `name` in the directory holding `bytes` (0600); its path.
  std::string put(const std::string& name, const std::string& bytes) {
    return dir.put(name, bytes);
  }

  fs::posix disk;
  fs::temp_dir<fs::posix> dir;
};

/// Runs `program args...` with stdin from the file `input_path`, the environment `env`,
/// until `timeout`.
inline ssh_keygen_run run(const std::string& program, const std::vector<std::string>& args,
                          const std::string& input_path, const std::vector<std::string>& env,
                          std::chrono::milliseconds timeout) {
  process::request req;
  req.argv.push_back(program);
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.timeout = timeout;
  req.stdin_path = input_path;
  req.new_session = true;  // no controlling terminal: a passphrase prompt fails at once
  process::outcome o = process::posix_runner(env).run(req);
  if (!o.error.empty())
    throw error(errc::unsupported,
                "cannot run " + program + ": " +
                    (o.error_number != 0 ? std::string(std::strerror(o.error_number)) : o.error) +
                    " (install OpenSSH's client: apt-get install openssh-client)",
                program, o.error_number);
  if (o.timed_out)
    throw error(errc::limit_exceeded, "ssh-keygen did not finish in time and was stopped",
                "ssh-keygen");
  ssh_keygen_run r;
  r.exit = o.exit;
  r.out = std::move(o.out);
  r.err = std::move(o.err);
  return r;
}

/// ssh-keygen's last non-empty stderr line, for a message.
inline std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return "no message";
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

/// What a failed ssh-keygen said: its last stderr line, or, when it printed nothing, how
/// it ended (issue 44: "(ssh-keygen: no message)" left the user guessing).
inline std::string last_line(const ssh_keygen_run& r) {
  if (r.err.find_last_not_of("\r\n") == std::string::npos)
    return r.exit < 0 ? std::string("was stopped by a signal and printed no message")
                      : "exited with status " + std::to_string(r.exit) + " and printed no message";
  return last_line(r.err);
}

/// The signing key of `-Y check-novalidate`'s "Good "<ns>" signature with <TYPE> key
/// SHA256:<fp>" line, as `<TYPE> SHA256:<fp>` (what `ssh-keygen -l` prints for the key);
/// "" when the line is not there.
inline std::string signing_key_of(const std::string& output) {
  const std::string with = " signature with ";
  const std::size_t at = output.find(with);
  if (at == std::string::npos) return {};
  const std::size_t from = at + with.size();
  const std::size_t end = output.find_first_of("\r\n", from);
  std::string key = output.substr(from, end == std::string::npos ? end : end - from);
  const std::size_t word = key.find(" key ");
  if (word != std::string::npos) key.replace(word, 5, " ");
  return key;
}

}  // namespace detail

/// The Signer: `ssh-keygen -Y sign -f <key> -n <namespace>`. `key` is a private key file,
/// or a public key (`.pub`) whose private half is in ssh-agent (then `auth_sock` is the
/// agent's socket, $SSH_AUTH_SOCK), as git's `user.signingkey`.
class ssh_keygen_signer {
 public:
  ssh_keygen_signer(std::string key, std::string sig_namespace,
                    std::optional<std::string> auth_sock = std::nullopt,
                    ssh_keygen_options options = {})
      : key_(std::move(key)),
        ns_(std::move(sig_namespace)),
        auth_sock_(std::move(auth_sock)),
        opt_(std::move(options)) {}

  /// The armored signature (`-----BEGIN SSH SIGNATURE-----` ...) over `data`.
  std::string sign(const std::string& data) const {
    const std::string program = detail::program_of(opt_);
    detail::private_dir dir(opt_.temp_root);
    const std::string input = dir.put("data", data);
    std::vector<std::string> env{"PATH=/usr/bin:/bin"};
    if (auth_sock_) env.push_back("SSH_AUTH_SOCK=" + *auth_sock_);
    const ssh_keygen_run r =
        detail::run(program, {"-q", "-Y", "sign", "-f", key_, "-n", ns_}, input, env, opt_.timeout);
    if (r.exit != 0 || r.out.rfind("-----BEGIN SSH SIGNATURE-----", 0) != 0)
      throw error(errc::signing_failed,
                  "signing with " + key_ + " failed (ssh-keygen: " + detail::last_line(r) +
                      "); give a private key file without a passphrase, or a public key (.pub) "
                      "whose private half is loaded in ssh-agent (ssh-add; SSH_AUTH_SOCK set)",
                  key_);
    return r.out;
  }

 private:
  std::string key_;
  std::string ns_;
  std::optional<std::string> auth_sock_;
  ssh_keygen_options opt_;
};

/// Whether `principal` is an allowed_signers pattern (`*@example.org`, `!mallory`) or a list
/// (`alice,bob`) rather than one name: ssh-keygen matches such a field, it names no one.
inline bool is_principal_pattern(const std::string& principal) {
  return principal.find_first_of("*?,") != std::string::npos ||
         (!principal.empty() && principal.front() == '!');
}

/// The SignatureVerifier: the signature must be good under `sig_namespace`
/// (`-Y check-novalidate`) and `-Y verify -I <principal>` must accept it against
/// `allowed_signers` (key listed for that principal, the namespace allowed, unexpired).
/// With `signer`, that principal is the one asked for (a pattern line such as
/// `*@example.org` allows it, and every line for it is tried, not only the first). Without,
/// the candidates are the principals `-Y find-principals` names for the key (the first
/// line listing it); a pattern names no one and is never reported as the signer.
class ssh_keygen_verifier {
 public:
  ssh_keygen_verifier(std::string allowed_signers, std::string sig_namespace,
                      std::optional<std::string> signer = std::nullopt,
                      ssh_keygen_options options = {})
      : allowed_(std::move(allowed_signers)),
        ns_(std::move(sig_namespace)),
        signer_(std::move(signer)),
        opt_(std::move(options)) {
    if (signer_ && (signer_->empty() || is_principal_pattern(*signer_)))
      throw error(errc::invalid_argument,
                  "the signer `" + *signer_ +
                      "` is not one principal (a pattern or list matches many); name the "
                      "principal that must have signed, e.g. alice@example.org",
                  *signer_);
  }

  /// The principal that signed `data`.
  std::string verify(const std::string& data, const std::string& signature) const {
    const std::string program = detail::program_of(opt_);
    detail::private_dir dir(opt_.temp_root);
    const std::string input = dir.put("data", data);
    const std::string sig = dir.put("sig", signature);
    const std::vector<std::string> env{"PATH=/usr/bin:/bin"};
    const auto keygen = [&](std::vector<std::string> args) {
      return detail::run(program, args, input, env, opt_.timeout);
    };
    const ssh_keygen_run check = keygen({"-Y", "check-novalidate", "-n", ns_, "-s", sig});
    if (check.exit != 0)
      throw error(errc::signature_invalid,
                  "the signature does not match the signed bytes under the namespace `" + ns_ +
                      "` (ssh-keygen: " + detail::last_line(check) + ")");
    const auto accepted = [&](const std::string& principal) {
      return keygen({"-Y", "verify", "-f", allowed_, "-I", principal, "-n", ns_, "-s", sig});
    };
    // Whom to trust: the key that signed, as `ssh-keygen -l` shows it (check-novalidate's
    // "Good ... signature with ED25519 key SHA256:..." line), told in every refusal below.
    const std::string key = detail::signing_key_of(check.out + check.err);
    const auto untrusted = [&key](const std::string& why, const std::string& subject) {
      return error(errc::signer_untrusted,
                   why + (key.empty() ? std::string() : "; the signing key is " + key), subject);
    };
    std::optional<ssh_keygen_run> good;
    if (signer_) {
      good = accepted(*signer_);
      if (good->exit == 0) return *signer_;
    }
    const ssh_keygen_run found = keygen({"-Y", "find-principals", "-s", sig, "-f", allowed_});
    if (found.exit != 0)
      throw untrusted(
          "the signing key is not in " + allowed_ +
              ", or its entry there has expired (ssh-keygen: " + detail::last_line(found) +
              "); add the signer's `<principal> <public key>` line there if you trust it",
          allowed_);
    const std::vector<std::string> principals = split_principals(found.out);
    if (signer_)
      throw untrusted("the signature is not by `" + *signer_ + "` as " + allowed_ +
                          " allows it under the namespace `" + ns_ +
                          "` (ssh-keygen: " + detail::last_line(*good) +
                          "); the key is listed there for " + join(principals) +
                          "; check that principal's entry, its namespaces= and valid-after/"
                          "valid-before options",
                      allowed_);
    for (const std::string& p : principals) {
      if (is_principal_pattern(p)) continue;
      good = accepted(p);
      if (good->exit == 0) return p;
    }
    throw untrusted(unnamed_message(principals, good), allowed_);
  }

 private:
  /// Why no principal find-principals named could be reported as the signer.
  std::string unnamed_message(const std::vector<std::string>& principals,
                              const std::optional<ssh_keygen_run>& last) const {
    if (!last)
      return "the signing key is allowed in " + allowed_ + " only by the pattern " +
             join(principals) +
             ", which names no one; say who must have signed (--signer <principal>, the "
             "`signer` option)";
    return "the first entry of " + allowed_ + " listing the signing key (" + join(principals) +
           ") may not sign under the namespace `" + ns_ +
           "` (ssh-keygen: " + detail::last_line(*last) +
           "); check its namespaces= and valid-after/valid-before options, or, if a later "
           "entry allows the key, name its principal (--signer <principal>, the `signer` "
           "option)";
  }
  static std::vector<std::string> split_principals(const std::string& out) {
    std::vector<std::string> all;
    std::string cur;
    for (const char c : out + "\n") {
      if (c == '\n' || c == ',' || c == '\r') {
        if (!cur.empty()) all.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    return all;
  }
  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& p : v) s += (s.empty() ? "`" : ", `") + p + "`";
    return s.empty() ? "nobody" : s;
  }

  std::string allowed_;
  std::string ns_;
  std::optional<std::string> signer_;
  ssh_keygen_options opt_;
};

}  // namespace signing
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
