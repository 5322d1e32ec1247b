# SPDX-License-Identifier: MIT
# Install rules: headers, the exported INTERFACE target, a CMake package config with an
# architecture-independent version file, and a pkg-config file without a Libs: line; with
# CLAWPORT_BUILD_C, the C ABI too: libclawport-c.a and clawport.h, the target clawport::c
# (`find_package(clawport COMPONENTS c)`) and clawport-c.pc.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/clawport DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS clawport EXPORT clawportTargets)
if(CLAWPORT_BUILD_COMPILED)
  install(TARGETS clawport_compiled EXPORT clawportTargets)
endif()
set(CLAWPORT_CMAKE_DIR "${CMAKE_INSTALL_DATADIR}/cmake/clawport")
install(EXPORT clawportTargets NAMESPACE clawport:: DESTINATION ${CLAWPORT_CMAKE_DIR})
if(CLAWPORT_BUILD_C)
  install(TARGETS clawport_c EXPORT clawportCTargets
          PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT clawportCTargets NAMESPACE clawport:: DESTINATION ${CLAWPORT_CMAKE_DIR})
  file(RELATIVE_PATH CLAWPORT_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" CLAWPORT_PC_UP "${CLAWPORT_PC_UP}")
  configure_file(cmake/clawport-c.pc.in "${PROJECT_BINARY_DIR}/clawport-c.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/clawport-c.pc"
          DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()

configure_package_config_file(cmake/clawportConfig.cmake.in
  "${PROJECT_BINARY_DIR}/clawportConfig.cmake" INSTALL_DESTINATION ${CLAWPORT_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/clawportConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/clawportConfig.cmake"
              "${PROJECT_BINARY_DIR}/clawportConfigVersion.cmake"
        DESTINATION ${CLAWPORT_CMAKE_DIR})

configure_file(cmake/clawport.pc.in "${PROJECT_BINARY_DIR}/clawport.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/clawport.pc" DESTINATION "${CMAKE_INSTALL_DATADIR}/pkgconfig")
