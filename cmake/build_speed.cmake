# SPDX-License-Identifier: MIT
# Build speed, top level only (a consumer's add_subdirectory gets none of it):
# - ccache as the compiler launcher when it is installed (never required; CCACHE_DISABLE=1
#   or -DCLAWPORT_CCACHE=OFF turns it off, and a launcher given by the user wins);
# - CLAWPORT_UNITY_TESTS: clawport_tests compiled as a few unity TUs (tests/CMakeLists.txt).
if(NOT CLAWPORT_IS_TOP_LEVEL)
  return()
endif()
option(CLAWPORT_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(CLAWPORT_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(CLAWPORT_CCACHE_PROGRAM ccache)
  if(CLAWPORT_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER "${CLAWPORT_CCACHE_PROGRAM}")
  endif()
endif()

option(CLAWPORT_UNITY_TESTS "Compile clawport_tests as a few unity TUs" ON)
# 12: 74 test files in 7 TUs of ~150 KB of source each (issue 48; 8 made 10 TUs, each paying
# the ~15 s of CPU of parsing the library again at -O2), the sizes issue 24 measured under
# 2 GB per g++ -O2 compile.
set(CLAWPORT_UNITY_BATCH 12 CACHE STRING "Test files per unity TU of clawport_tests (on average: the TUs are balanced by size)")
