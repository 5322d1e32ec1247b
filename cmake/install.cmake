# SPDX-License-Identifier: MIT
# Install rules: headers, the exported INTERFACE target, a CMake package config with an
# architecture-independent version file, and a pkg-config file without a Libs: line.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/clawport DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS clawport EXPORT clawportTargets)
if(CLAWPORT_BUILD_COMPILED)
  install(TARGETS clawport_compiled EXPORT clawportTargets)
endif()
set(CLAWPORT_CMAKE_DIR "${CMAKE_INSTALL_DATADIR}/cmake/clawport")
install(EXPORT clawportTargets NAMESPACE clawport:: DESTINATION ${CLAWPORT_CMAKE_DIR})

configure_package_config_file(cmake/clawportConfig.cmake.in
  "${PROJECT_BINARY_DIR}/clawportConfig.cmake" INSTALL_DESTINATION ${CLAWPORT_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/clawportConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/clawportConfig.cmake"
              "${PROJECT_BINARY_DIR}/clawportConfigVersion.cmake"
        DESTINATION ${CLAWPORT_CMAKE_DIR})

configure_file(cmake/clawport.pc.in "${PROJECT_BINARY_DIR}/clawport.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/clawport.pc" DESTINATION "${CMAKE_INSTALL_DATADIR}/pkgconfig")
