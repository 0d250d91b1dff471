#===- OffloadFlags.cmake - compile and link flags of an offload build ----===#

# offload_usage_requirements(<target> PLUGIN <path> ARCHS <list>
#                            CUDA_PATH <dir> LLVM_LIBDIR <dir>)
# Adds to an INTERFACE target the flags that build sources with the plugin
# for the given offload targets: sm_*/gfx* GPUs or host triples.
function(offload_usage_requirements target)
  cmake_parse_arguments(ARG "" "PLUGIN;CUDA_PATH;LLVM_LIBDIR" "ARCHS" ${ARGN})
  set(archs)
  set(triples)
  foreach(a ${ARG_ARCHS})
    if(a MATCHES "^(sm_|gfx)")
      list(APPEND archs ${a})
    else()
      list(APPEND triples ${a})
    endif()
  endforeach()
  set(flags -fopenmp -nogpulib)
  if(archs)
    list(JOIN archs "," joined)
    list(APPEND flags --offload-arch=${joined})
  endif()
  if(triples)
    list(JOIN triples "," joined)
    list(APPEND flags -fopenmp-targets=${joined})
  endif()
  if(archs MATCHES "sm_")
    list(APPEND flags --cuda-path=${ARG_CUDA_PATH})
  endif()
  target_compile_options(${target} INTERFACE -fplugin=${ARG_PLUGIN} ${flags})
  # The link step runs clang-linker-wrapper, which needs the same targets.
  target_link_options(${target} INTERFACE ${flags}
    -Wl,-rpath,${ARG_LLVM_LIBDIR})
  target_compile_features(${target} INTERFACE cxx_std_20)
endfunction()
