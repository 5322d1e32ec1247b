// SPDX-License-Identifier: MIT
// The host environment (core/host.hpp): gathered from a map of variables, a working
// directory and one clock reading; the instant (SOURCE_DATE_EPOCH or the clock); paths made
// absolute; the environment a child process may see; the temporary root.
#include "support/test.hpp"

#include <string>
#include <vector>

using clawport::environment_map;
using clawport::gather_host;
using clawport::host_environment;
using clawport::timestamp;

namespace {

const timestamp clock_reading{1700000000, 123456789};

}  // namespace

TEST_CASE("host: every field is gathered from the variables, the directory and the clock") {
  const environment_map vars{{"HOME", "/home/u"},
                             {"ZEROCLAW_CONFIG_DIR", "/etc/zc"},
                             {"ZEROCLAW_DATA_DIR", "data"},
                             {"OPENCLAW_STATE_DIR", "~/oc"},
                             {"OPENCLAW_WORKSPACE_DIR", "/ws"},
                             {"OPENCLAW_PROFILE", "work"},
                             {"SOURCE_DATE_EPOCH", "1786408000"},
                             {"TMPDIR", "/var/tmp"},
                             {"UNRELATED", "x"}};
  const host_environment h = gather_host(vars, "/cwd", clock_reading);
  CHECK(h.home == "/home/u");
  CHECK(h.cwd == "/cwd");
  CHECK(h.zeroclaw_config_dir == std::optional<std::string>("/etc/zc"));
  CHECK(h.zeroclaw_data_dir == std::optional<std::string>("data"));
  CHECK(h.openclaw_state_dir == std::optional<std::string>("~/oc"));
  CHECK(h.openclaw_workspace_dir == std::optional<std::string>("/ws"));
  CHECK(h.openclaw_profile == std::optional<std::string>("work"));
  CHECK(h.source_date_epoch == std::optional<std::string>("1786408000"));
  CHECK(h.clock == clock_reading);
  CHECK(h.temp_root == "/var/tmp");
}

TEST_CASE("host: an unset or empty variable is not set") {
  const environment_map vars{{"ZEROCLAW_CONFIG_DIR", ""},
                             {"OPENCLAW_STATE_DIR", ""},
                             {"OPENCLAW_PROFILE", ""},
                             {"SOURCE_DATE_EPOCH", ""}};
  const host_environment h = gather_host(vars, "/cwd", clock_reading);
  CHECK(h.home.empty());
  CHECK_FALSE(h.zeroclaw_config_dir);
  CHECK_FALSE(h.zeroclaw_data_dir);
  CHECK_FALSE(h.openclaw_state_dir);
  CHECK_FALSE(h.openclaw_profile);
  CHECK_FALSE(h.source_date_epoch);
  CHECK(h.now() == clock_reading);
}

TEST_CASE("host: now() is SOURCE_DATE_EPOCH in whole seconds, else the clock; malformed throws") {
  CHECK(gather_host({}, "/", clock_reading).now() == clock_reading);
  CHECK(gather_host({{"SOURCE_DATE_EPOCH", "1786408000"}}, "/", clock_reading).now() ==
        timestamp{1786408000, 0});
  // Gathering never refuses: only a command that stamps an instant does.
  const host_environment bad = gather_host({{"SOURCE_DATE_EPOCH", "12a"}}, "/", clock_reading);
  try {
    (void)bad.now();
    FAIL("a malformed SOURCE_DATE_EPOCH was accepted");
  } catch (const clawport::error& e) {
    CHECK(e.code() == clawport::errc::invalid_argument);
    CHECK(e.subject() == "SOURCE_DATE_EPOCH");
  }
}

TEST_CASE("host: absolute() joins a relative path to the working directory, verbatim") {
  const host_environment h = gather_host({}, "/work", clock_reading);
  CHECK(h.absolute("/abs/x") == "/abs/x");
  CHECK(h.absolute("rel/../x") == "/work/rel/../x");  // no normalisation
  CHECK(h.absolute("") == "/work/");
  // A working directory that could not be read is empty: the path hangs off the root.
  CHECK(gather_host({}, "", clock_reading).absolute("x") == "/x");
}

TEST_CASE("host: absolute_home() only for an absolute HOME") {
  CHECK(gather_host({{"HOME", "/home/u"}}, "/", clock_reading).absolute_home() ==
        std::optional<std::string>("/home/u"));
  CHECK_FALSE(gather_host({{"HOME", "home/u"}}, "/", clock_reading).absolute_home());
  CHECK_FALSE(gather_host({}, "/", clock_reading).absolute_home());
}

TEST_CASE("host: a child sees only the allowed variables, in the allow-list's order") {
  const environment_map vars{{"SSH_AUTH_SOCK", "/run/agent"},
                             {"TERM", ""},
                             {"HOME", "/home/u"},
                             {"PATH", "/bin"},
                             {"AWS_SECRET_ACCESS_KEY", "s3cr3t"},
                             {"OPENAI_API_KEY", "sk-x"},
                             {"LANG", "C.UTF-8"},
                             {"LD_PRELOAD", "/evil.so"}};
  const host_environment h = gather_host(vars, "/", clock_reading);
  const std::vector<std::string> want{"PATH=/bin", "HOME=/home/u", "TERM=", "LANG=C.UTF-8",
                                      "SSH_AUTH_SOCK=/run/agent"};
  CHECK(h.child_env == want);
  CHECK(clawport::child_environment(vars) == want);
}

TEST_CASE("host: a child always gets a PATH") {
  CHECK(clawport::child_environment({{"USER", "u"}}) ==
        std::vector<std::string>{"USER=u", "PATH=/usr/local/bin:/usr/bin:/bin"});
  CHECK(clawport::child_environment({{"PATH", ""}}) == std::vector<std::string>{"PATH="});
}

TEST_CASE("host: the temporary root is TMPDIR when absolute, else /tmp") {
  CHECK(gather_host({}, "/", clock_reading).temp_root == "/tmp");
  CHECK(gather_host({{"TMPDIR", ""}}, "/", clock_reading).temp_root == "/tmp");
  CHECK(gather_host({{"TMPDIR", "rel"}}, "/", clock_reading).temp_root == "/tmp");
  CHECK(gather_host({{"TMPDIR", "/scratch"}}, "/", clock_reading).temp_root == "/scratch");
}

TEST_CASE("host: the ZeroClaw config path and data directory") {
  namespace zc = clawport::zeroclaw;
  const host_environment home = gather_host({{"HOME", "/home/u"}}, "/cwd", clock_reading);
  CHECK(zc::default_config_path(home) == "/home/u/.zeroclaw/config.toml");
  CHECK(zc::config_path_of(home, "") == "/home/u/.zeroclaw/config.toml");
  CHECK(zc::config_path_of(home, "x/config.toml") == "/cwd/x/config.toml");
  CHECK(zc::data_dir_of(home).empty());
  const host_environment dir =
      gather_host({{"HOME", "/home/u"}, {"ZEROCLAW_CONFIG_DIR", "zc"}, {"ZEROCLAW_DATA_DIR", "d"}},
                  "/cwd", clock_reading);
  CHECK(zc::default_config_path(dir) == "zc/config.toml");
  CHECK(zc::config_path_of(dir, "") == "/cwd/zc/config.toml");
  CHECK(zc::data_dir_of(dir) == "/cwd/d");
  CHECK(zc::install_root_of(zc::config_path_of(dir, "")) == "/cwd/zc");
}
