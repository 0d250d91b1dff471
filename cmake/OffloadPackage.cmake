#===- OffloadPackage.cmake - the Offload::offload usage target -----------===#
#
# Offload::offload carries everything a consumer needs: the plugin, -fopenmp
# with the offload targets of OFFLOAD_ARCHS, the runtime shim and the rpath
# of libomptarget. In-tree it points at the build tree; the installed
# OffloadConfig.cmake recreates it against the install tree.
#
#===----------------------------------------------------------------------===#

include(OffloadFlags)

add_library(offload INTERFACE)
add_library(Offload::offload ALIAS offload)
offload_usage_requirements(offload
  PLUGIN $<TARGET_FILE:offload_plugin>
  ARCHS "${OFFLOAD_ARCHS}"
  CUDA_PATH "${OFFLOAD_CUDA_PATH}"
  LLVM_LIBDIR "${LLVM_LIBRARY_DIR}")
target_link_libraries(offload INTERFACE ofld_rt)
add_dependencies(offload offload_plugin)
