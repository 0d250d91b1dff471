#===- print-flags.cmake - the clang options of an OFFLOAD_ARCHS list -----===#
# cmake -DSRC=<source root> -DARCHS=a,b,c -P print-flags.cmake
cmake_minimum_required(VERSION 3.20)
include(${SRC}/cmake/OffloadFlags.cmake)
string(REPLACE "," ";" archs "${ARCHS}")
offload_describe_archs(text ${archs})
offload_target_flags(flags ${archs})
list(JOIN flags " | " flags)
message("${text}: ${flags}")
