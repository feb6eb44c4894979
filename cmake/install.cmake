# The installed package: bin/wormnet, the static libraries as imported targets wormnet::<layer>
# (wormnet::firmware is what user firmware links), the headers under include/wormnet with the
# paths the sources use ("firmware/ccl.h"), lib/cmake/wormnet/wormnetConfig.cmake and
# lib/pkgconfig/wormnet.pc. The SystemC ABI (SC_CPLUSPLUS) travels as a usage requirement of
# wormnet::cosim, so a C++20 consumer links against Debian's C++17 libsystemc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(WN_INSTALLED_LAYERS wn_core wn_topology wn_rtl wn_router wn_network wn_cosim wn_algorithms wn_firmware
    wn_experiments wn_plugin)
install(TARGETS wormnet RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${WN_INSTALLED_LAYERS} EXPORT wormnetTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir systemc algorithms firmware experiments)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wormnet
          FILES_MATCHING PATTERN "*.h"
          # the RTL backend's own checks read the verilated models, which are not installed
          PATTERN "rtl_*_check.h" EXCLUDE)
endforeach()
install(DIRECTORY ${WN_GEN_DIR}/wormnet DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wormnet FILES_MATCHING
        PATTERN "*.h" PATTERN "rtl_models.h" EXCLUDE)
set(WN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/wormnet)
install(EXPORT wormnetTargets NAMESPACE wormnet:: DESTINATION ${WN_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/wormnetConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/wormnetConfig.cmake INSTALL_DESTINATION ${WN_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/wormnetConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/wormnetConfig.cmake ${CMAKE_BINARY_DIR}/package/wormnetConfigVersion.cmake
        DESTINATION ${WN_CMAKE_DIR})
# pkg-config: the same libraries in link order, the same ABI definition.
set(WN_PC_LIBS "")
foreach(t wn_experiments wn_firmware wn_algorithms wn_cosim wn_network wn_router wn_rtl wn_topology wn_core)
  string(APPEND WN_PC_LIBS " -l${t}")
endforeach()
configure_file(${CMAKE_SOURCE_DIR}/cmake/wormnet.pc.in ${CMAKE_BINARY_DIR}/package/wormnet.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/wormnet.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
