#===- OffloadPackage.cmake - Offload::offload and the installed package --===#
#
# Offload::offload carries everything a consumer needs: the plugin, -fopenmp
# with the offload targets of OFFLOAD_ARCHS, the runtime and the rpath
# of libomptarget. In-tree it points at the build tree; `cmake --install`
# writes OffloadConfig.cmake, which recreates it against the install tree
# with the consumer's own OFFLOAD_ARCHS.
#
#===----------------------------------------------------------------------===#

include(OffloadFlags)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Stops on OFFLOAD_ARCHS entries that are no offload target.
offload_describe_archs(_offload_archs_text ${OFFLOAD_ARCHS})

add_library(offload INTERFACE)
add_library(Offload::offload ALIAS offload)

# Sources must compile after the plugin is linked (first build) and again
# whenever it is relinked. The plugin goes into each object's dependency
# file (see OffloadFlags.cmake); Ninja runs from the top of the build tree
# and knows the plugin by its relative path, and only a dependency on that
# same node makes a relinked plugin recompile its users in the same run.
# (plugin/CMakeLists.txt names the plugin and puts it in lib/.)
set(_offload_plugin_name
  ${CMAKE_SHARED_MODULE_PREFIX}offload${CMAKE_SHARED_MODULE_SUFFIX})
set(_offload_plugin_dep ${PROJECT_BINARY_DIR}/lib/${_offload_plugin_name})
if(CMAKE_GENERATOR MATCHES "Ninja")
  file(RELATIVE_PATH _offload_plugin_dep ${CMAKE_BINARY_DIR}
    ${_offload_plugin_dep})
endif()
offload_usage_requirements(offload
  ARCHS "${OFFLOAD_ARCHS}"
  PLUGIN $<TARGET_FILE:offload_plugin>
  PLUGIN_DEPENDENCY ${_offload_plugin_dep}
  CUDA_PATH "${OFFLOAD_CUDA_PATH}"
  LLVM_LIBDIR "${LLVM_LIBRARY_DIR}")
if(OFFLOAD_ARCHS STREQUAL "none")
  target_include_directories(offload INTERFACE
    $<TARGET_PROPERTY:ofld_rt,INTERFACE_INCLUDE_DIRECTORIES>)
else()
  target_link_libraries(offload INTERFACE ofld_rt)
  # add_dependencies on the INTERFACE target alone orders only the
  # consumers' links after the plugin; a utility target in between orders
  # their compiles too (Ninja).
  add_custom_target(offload_plugin_ready DEPENDS offload_plugin)
  add_dependencies(offload offload_plugin_ready)
endif()

#===----------------------------------------------------------------------===#
# Installation: the plugin, the runtime (headers and libofld_rt), offload-rewrite
# and the CMake package.
#===----------------------------------------------------------------------===#

set(OFFLOAD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Offload)

install(TARGETS offload_plugin
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT offload)
# libofld_rt needs libomptarget, which lives in LLVM's library directory.
set_target_properties(ofld_rt PROPERTIES
  EXPORT_NAME runtime INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS ofld_rt EXPORT OffloadTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT offload)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/offload
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT offload
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.def")
if(TARGET offload-rewrite)
  install(TARGETS offload-rewrite
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT offload)
endif()

install(EXPORT OffloadTargets NAMESPACE Offload::
  DESTINATION ${OFFLOAD_INSTALL_CMAKEDIR} COMPONENT offload)
set(OFFLOAD_INSTALL_PLUGIN ${CMAKE_INSTALL_LIBDIR}/${_offload_plugin_name})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/OffloadConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/OffloadConfig.cmake
  INSTALL_DESTINATION ${OFFLOAD_INSTALL_CMAKEDIR}
  PATH_VARS OFFLOAD_INSTALL_PLUGIN)
# 0.x releases change the interface between minor versions.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/OffloadConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/OffloadConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/OffloadConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/OffloadFlags.cmake
  DESTINATION ${OFFLOAD_INSTALL_CMAKEDIR} COMPONENT offload)
