#===- OffloadFlags.cmake - compile and link flags of an offload build ----===#
#
# Shared by the build tree (cmake/OffloadPackage.cmake) and the installed
# package (OffloadConfig.cmake), so that both define Offload::offload alike.
#
#===----------------------------------------------------------------------===#

# offload_default_archs(<var>)
# The host offload target of this machine: kernels run on the CPU through
# libomptarget, which is what a machine without a GPU can run.
function(offload_default_archs var)
  set(cpu ${CMAKE_HOST_SYSTEM_PROCESSOR})
  if(cpu STREQUAL "x86_64" OR cpu STREQUAL "AMD64")
    set(${var} "x86_64-pc-linux-gnu" PARENT_SCOPE)
  else()
    set(${var} "${cpu}-unknown-linux-gnu" PARENT_SCOPE)
  endif()
endfunction()

# offload_describe_archs(<var> <archs>)
# A readable account of OFFLOAD_ARCHS for configure output; stops with a
# message on entries that are neither a GPU, a triple nor `none`.
function(offload_describe_archs var)
  set(words)
  foreach(a ${ARGN})
    if(a MATCHES "^sm_[0-9]+[af]?$")
      list(APPEND words "${a} (NVIDIA GPU)")
    elseif(a MATCHES "^gfx[0-9a-f]+")
      list(APPEND words "${a} (AMD GPU)")
    elseif(a MATCHES "^[A-Za-z0-9_]+-[A-Za-z0-9_]+-[A-Za-z0-9_-]+$")
      list(APPEND words "${a} (host CPU through libomptarget)")
    elseif(a STREQUAL "none")
      list(APPEND words
        "none (no plugin: kernels run on the calling CPU thread)")
    else()
      message(FATAL_ERROR "offload: OFFLOAD_ARCHS entry '${a}' is not an "
        "offload target: use sm_NN (NVIDIA), gfxNNN (AMD), a host triple such "
        "as x86_64-pc-linux-gnu, or 'none' to build without the plugin")
    endif()
  endforeach()
  if("none" IN_LIST ARGN AND NOT ARGN STREQUAL "none")
    message(FATAL_ERROR "offload: OFFLOAD_ARCHS 'none' excludes other targets")
  endif()
  if(NOT words)
    message(FATAL_ERROR "offload: OFFLOAD_ARCHS is empty")
  endif()
  list(JOIN words ", " text)
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# offload_target_flags(<var> <archs>...)
# The clang options that select the offload targets of OFFLOAD_ARCHS (after
# -fopenmp -nogpulib):
#   GPUs only (sm_90;gfx90a)     --offload-arch=sm_90,gfx90a
#   host triples only            -fopenmp-targets=x86_64-pc-linux-gnu
#   GPUs and triples mixed       -fopenmp-targets=nvptx64-nvidia-cuda,
#                                  amdgcn-amd-amdhsa,x86_64-pc-linux-gnu
#                                -Xopenmp-target=nvptx64-nvidia-cuda
#                                  --offload-arch=sm_90  (and so on per GPU)
# clang 22 applies --offload-arch to every -fopenmp-targets triple (the host
# triple then rejects sm_90) and cannot infer a triple from a host triple
# given to --offload-arch, hence the per-triple form for mixed lists. All of
# them link one program holding an image per target.
function(offload_target_flags var)
  set(nvptx)
  set(amdgcn)
  set(triples)
  foreach(a ${ARGN})
    if(a MATCHES "^sm_")
      list(APPEND nvptx ${a})
    elseif(a MATCHES "^gfx")
      list(APPEND amdgcn ${a})
    else()
      list(APPEND triples ${a})
    endif()
  endforeach()
  set(flags -fopenmp -nogpulib)
  if(NOT triples)
    set(gpus ${nvptx} ${amdgcn})
    list(JOIN gpus "," joined)
    list(APPEND flags --offload-arch=${joined})
  elseif(NOT nvptx AND NOT amdgcn)
    list(JOIN triples "," joined)
    list(APPEND flags -fopenmp-targets=${joined})
  else()
    set(all)
    set(per_target)
    foreach(gpu nvptx64-nvidia-cuda:nvptx amdgcn-amd-amdhsa:amdgcn)
      string(REPLACE ":" ";" gpu "${gpu}")
      list(GET gpu 0 triple)
      list(GET gpu 1 group)
      if(${group})
        list(APPEND all ${triple})
        list(JOIN ${group} "," joined)
        # One option, so CMake neither splits nor merges the pair.
        list(APPEND per_target
          "SHELL:-Xopenmp-target=${triple} --offload-arch=${joined}")
      endif()
    endforeach()
    list(APPEND all ${triples})
    list(JOIN all "," joined)
    list(APPEND flags -fopenmp-targets=${joined} ${per_target})
  endif()
  set(${var} ${flags} PARENT_SCOPE)
endfunction()

# offload_usage_requirements(<target> ARCHS <list> PLUGIN <path>
#                            [PLUGIN_DEPENDENCY <path>]
#                            CUDA_PATH <dir> LLVM_LIBDIR <dir>)
# Adds to an INTERFACE target the flags that build sources with the plugin
# for the given offload targets: sm_*/gfx* GPUs or host triples. ARCHS `none`
# adds no flag at all: sources then build with any C++20 compiler and run
# their kernels on the CPU (offload/cpu_fallback.hpp).
#
# Every source compiled with the plugin names it in its dependency file, so
# the build system recompiles it whenever the plugin changes (a new plugin
# may lower or bundle differently). PLUGIN_DEPENDENCY is the plugin's path
# as the build system itself names it, when that differs from PLUGIN (see
# OffloadPackage.cmake).
function(offload_usage_requirements target)
  cmake_parse_arguments(ARG "" "PLUGIN;PLUGIN_DEPENDENCY;CUDA_PATH;LLVM_LIBDIR"
    "ARCHS" ${ARGN})
  target_compile_features(${target} INTERFACE cxx_std_20)
  if(ARG_ARCHS STREQUAL "none")
    return()
  endif()
  offload_target_flags(flags ${ARG_ARCHS})
  # Device code is optimised like nvcc's when the build names no level
  # (CMake's empty build type): the plugin compiles it at -O3 then, but
  # ptxas is run by the driver, at -O0 unless told. A level in the build
  # type or CMAKE_CXX_FLAGS is respected (one in a target's own options
  # comes before this one and is not: name it in one of those).
  set(_offload_device_opt)
  if(NOT CMAKE_CXX_FLAGS MATCHES "(^| )-O")
    set(_offload_device_opt "$<$<CONFIG:>:SHELL:-Xarch_device -O3>")
  endif()
  if(ARG_ARCHS MATCHES "(^|;)sm_")
    list(APPEND flags --cuda-path=${ARG_CUDA_PATH})
  endif()
  if(NOT ARG_PLUGIN_DEPENDENCY)
    set(ARG_PLUGIN_DEPENDENCY ${ARG_PLUGIN})
  endif()
  # -fdepfile-entry is a cc1 option; SHELL: keeps CMake from merging the
  # -Xclang with another one.
  target_compile_options(${target} INTERFACE -fplugin=${ARG_PLUGIN} ${flags}
    "SHELL:-Xclang \"-fdepfile-entry=${ARG_PLUGIN_DEPENDENCY}\""
    ${_offload_device_opt})
  # The link step runs clang-linker-wrapper, which needs the same targets.
  target_link_options(${target} INTERFACE ${flags}
    -Wl,-rpath,${ARG_LLVM_LIBDIR})
endfunction()
