#===- Sanitizers.cmake - OFFLOAD_SANITIZE: ASan/UBSan builds of our code --===#
#
# Part of the offload project: GPU offloading for C++ through a Clang plugin.
#
#===----------------------------------------------------------------------===#
#
#   cmake -DOFFLOAD_SANITIZE=address,undefined ...
#
# instruments what this project builds for the host: the plugin (and its
# analysis/sema libraries), the runtime libofld_rt, offload-rewrite and
# the unit tests. Programs compiled *with* the plugin (examples, end-to-end
# tests) are not instrumented: their device images go through the offload
# toolchain, which the sanitizers do not support.
#
# The plugin is loaded into the system clang, which has no sanitizer runtime.
# Everything therefore links the *shared* sanitizer runtime (-shared-libsan), and
# tools that load an instrumented library must preload it:
#
#   LD_PRELOAD=$(clang++-22 -print-file-name=libclang_rt.asan-x86_64.so) \
#   ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 \
#   clang++-22 -fplugin=build/lib/liboffload.so ...
#
# tests/lit/lit.cfg.py does this by itself when the plugin it tests is
# instrumented, and the build does it for the targets compiled with the
# plugin (the examples) through CMAKE_CXX_COMPILER_LAUNCHER. Leak checking is
# off there: clang frees little at exit on purpose. So is manual poisoning
# (allow_user_poisoning=0), for the tools linked with the uninstrumented
# libclang-cpp too: llvm::BumpPtrAllocator's inline code poisons each new
# slab in our instrumented copy, and clang's own copy then hands out memory
# from it without unpoisoning, which ASan reports as use-after-poison where
# nothing is wrong (tests/lit/diagnostics/crash-rewriter-allocator-poison.cpp). UBSan findings stop the process (-fno-sanitize-recover), so a
# test fails on them.
#
# Include this file before the add_subdirectory() calls; it applies the flags
# once all targets exist.
#
#===----------------------------------------------------------------------===#

set(OFFLOAD_SANITIZE "" CACHE STRING
    "Sanitizers for the plugin, runtime and rewriter, e.g. address,undefined")

# The targets we build for the host; others (examples, tests built with the
# plugin) keep their flags.
set(OFFLOAD_SANITIZED_TARGETS
    offloadCore offload_plugin ofld_rt
    offloadRewriter offload-rewrite offload-unit-tests offload-staging-tests)

if(OFFLOAD_SANITIZE)
  string(REPLACE "," ";" _offload_san_list "${OFFLOAD_SANITIZE}")
  foreach(s IN LISTS _offload_san_list)
    if(NOT s MATCHES "^(address|undefined)$")
      message(FATAL_ERROR "OFFLOAD_SANITIZE: '${s}' is not supported "
        "(address and undefined are; the plugin shares its process with clang)")
    endif()
  endforeach()
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "OFFLOAD_SANITIZE needs clang as the host compiler "
      "(-DCMAKE_CXX_COMPILER=clang++-22): the runtime must be clang's shared one")
  endif()
  # With ASan its shared runtime carries UBSan's handlers too.
  if("address" IN_LIST _offload_san_list)
    set(_offload_rt libclang_rt.asan-x86_64.so)
  else()
    set(_offload_rt libclang_rt.ubsan_standalone-x86_64.so)
  endif()
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${_offload_rt}
    OUTPUT_VARIABLE OFFLOAD_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${OFFLOAD_SANITIZER_RUNTIME}")
    message(FATAL_ERROR "OFFLOAD_SANITIZE: no shared sanitizer runtime "
      "(${OFFLOAD_SANITIZER_RUNTIME}); install libclang-rt-22-dev")
  endif()
  get_filename_component(OFFLOAD_SANITIZER_RUNTIME_DIR "${OFFLOAD_SANITIZER_RUNTIME}"
                         DIRECTORY)
  set(OFFLOAD_SANITIZER_RUNTIME "${OFFLOAD_SANITIZER_RUNTIME}" CACHE INTERNAL "")
  message(STATUS "offload: sanitizers ${OFFLOAD_SANITIZE}; tools that load "
    "the plugin need LD_PRELOAD=${OFFLOAD_SANITIZER_RUNTIME}")

  # Targets compiled with the instrumented plugin (examples) need the runtime
  # preloaded into clang, at compile and at link time.
  set(_offload_san_env ${CMAKE_COMMAND} -E env
      "LD_PRELOAD=${OFFLOAD_SANITIZER_RUNTIME}"
      "ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_offload_san_env})
  set(CMAKE_CXX_LINKER_LAUNCHER ${_offload_san_env})

  function(_offload_apply_sanitizers)
    set(flags -fsanitize=${OFFLOAD_SANITIZE} -fno-omit-frame-pointer -g
              -fno-sanitize-recover=all)
    # UBSan's vptr check needs RTTI, which LLVM-linked code is built without.
    if(OFFLOAD_SANITIZE MATCHES "undefined")
      list(APPEND flags -fno-sanitize=vptr)
    endif()
    foreach(t IN LISTS OFFLOAD_SANITIZED_TARGETS)
      if(NOT TARGET ${t})
        continue()
      endif()
      target_compile_options(${t} PRIVATE ${flags})
      get_target_property(type ${t} TYPE)
      if(type STREQUAL "STATIC_LIBRARY")
        continue()
      endif()
      target_link_options(${t} PRIVATE ${flags} -shared-libsan
        "-Wl,-rpath,${OFFLOAD_SANITIZER_RUNTIME_DIR}")
    endforeach()
  endfunction()
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
                 CALL _offload_apply_sanitizers)
endif()
