# What `cmake --install` (and `make install PREFIX=DIR`) puts in a prefix:
# the polyrt command, the public headers, the libraries, a CMake package
# (find_package(polyrt CONFIG) -> polyrt::polyrt), polyrt.pc for pkg-config,
# and the bash completion.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# What a consumer links: the whole runtime (Program/State and the batch API).
add_library(polyrt_sdk INTERFACE)
target_link_libraries(polyrt_sdk INTERFACE polyrt_scheduler)
set_target_properties(polyrt_sdk PROPERTIES EXPORT_NAME polyrt)
add_library(polyrt::polyrt ALIAS polyrt_sdk)  # the same name for add_subdirectory consumers

install(TARGETS polyrt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS polyrt_sdk polyrt_scheduler polyrt_gpu_backend polyrt_cpu_backend polyrt_codegen
                polyrt_core polyrt_core_internal polyrt_llvm
        EXPORT polyrtTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/polyrt
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Every public header (each one a public header includes must be installed
# with it).
file(GLOB POLYRT_PUBLIC_HEADERS CONFIGURE_DEPENDS core/include/polyrt/*.hpp
     scheduler/include/polyrt/*.hpp)
install(FILES ${POLYRT_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/polyrt)

set(POLYRT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/polyrt)
install(EXPORT polyrtTargets NAMESPACE polyrt:: DESTINATION ${POLYRT_CMAKE_DIR})
configure_package_config_file(cmake/polyrtConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/polyrtConfig.cmake INSTALL_DESTINATION ${POLYRT_CMAKE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/polyrtConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/polyrtConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/polyrtConfigVersion.cmake
        DESTINATION ${POLYRT_CMAKE_DIR})

# pkg-config: the archives (one linker group), then LLVM, oneTBB and the system.
if(POLYRT_STATIC_LLVM)
  set(POLYRT_PC_LLVM "")
  message(STATUS "polyrt: polyrt.pc lists no LLVM libraries with POLYRT_STATIC_LLVM; use the CMake package")
else()
  set(POLYRT_PC_LLVM "-L${LLVM_LIBRARY_DIR} -lLLVM-${LLVM_VERSION_MAJOR}")
endif()
file(RELATIVE_PATH POLYRT_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
configure_file(cmake/polyrt.pc.in ${CMAKE_CURRENT_BINARY_DIR}/polyrt.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/polyrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES scripts/polyrt-completion.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME polyrt)
# Every doc the help and the README name, under docs/ as the README links them.
install(FILES README.md LICENSE NOTICE DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB POLYRT_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${POLYRT_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
