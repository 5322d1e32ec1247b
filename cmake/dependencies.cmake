# SPDX-License-Identifier: MIT
# Finds clawport's dependencies as installed packages, falling back to FetchContent.
include(GNUInstallDirs)

# toml++ is used header-only. Debian's tomlplusplus CMake target links a compiled
# libtomlplusplus.so and defines TOML_HEADER_ONLY=0; we must not pass that on to our
# consumers, so we locate the header directory ourselves and never link that target.
find_path(CLAWPORT_TOMLPP_INCLUDE_DIR NAMES toml++/toml.h toml++/toml.hpp)
if(NOT CLAWPORT_TOMLPP_INCLUDE_DIR AND CLAWPORT_FETCH_DEPS)
  include(FetchContent)
  FetchContent_Declare(tomlplusplus
    GIT_REPOSITORY https://github.com/marzer/tomlplusplus.git GIT_TAG v3.4.0)
  FetchContent_GetProperties(tomlplusplus)
  if(NOT tomlplusplus_POPULATED)
    FetchContent_Populate(tomlplusplus)  # sources only: we want the headers, not its targets
  endif()
  set(CLAWPORT_TOMLPP_INCLUDE_DIR "${tomlplusplus_SOURCE_DIR}/include" CACHE PATH "" FORCE)
endif()
if(NOT CLAWPORT_TOMLPP_INCLUDE_DIR)
  message(FATAL_ERROR "clawport: toml++ headers not found; install libtomlplusplus-dev "
                      "or set CLAWPORT_TOMLPP_INCLUDE_DIR")
endif()
find_package(nlohmann_json 3.10 QUIET)
if(NOT nlohmann_json_FOUND)
  if(NOT CLAWPORT_FETCH_DEPS)
    message(FATAL_ERROR "clawport: nlohmann/json not found; install nlohmann-json3-dev")
  endif()
  include(FetchContent)
  FetchContent_Declare(nlohmann_json
    URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz)
  FetchContent_MakeAvailable(nlohmann_json)
endif()

if(CLAWPORT_BUILD_TESTS)
  find_package(doctest QUIET)
  if(NOT doctest_FOUND)
    if(NOT CLAWPORT_FETCH_DEPS)
      message(FATAL_ERROR "clawport: doctest not found; install doctest-dev")
    endif()
    include(FetchContent)
    FetchContent_Declare(doctest
      GIT_REPOSITORY https://github.com/doctest/doctest.git GIT_TAG v2.4.11)
    FetchContent_MakeAvailable(doctest)
  endif()
endif()

if(CLAWPORT_BUILD_CLI)
  find_package(CLI11 2.1 QUIET CONFIG)
  if(NOT CLI11_FOUND)
    if(NOT CLAWPORT_FETCH_DEPS)
      message(FATAL_ERROR "clawport: CLI11 not found; install libcli11-dev")
    endif()
    include(FetchContent)
    FetchContent_Declare(cli11
      GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git GIT_TAG v2.4.2)
    FetchContent_MakeAvailable(cli11)
  endif()
endif()
