//===- main.cpp - Catch2 entry point of the offload unit tests ------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

// Catch2 supplies main(); every other file in this directory only declares
// test cases, so the expensive runner is compiled once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
