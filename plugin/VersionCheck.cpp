//===- VersionCheck.cpp - refuse to load into another clang ---------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The plugin uses clang's C++ API, which has no stable ABI, and resolves it
// from the clang that loads it. Loaded into another major version it would
// die at its first call into a function that moved ("symbol lookup error")
// or, worse, run against changed class layouts. So before any other code of
// ours runs, compare the running clang's version with the one we were built
// against and stop with a message that says what to do.
//
//===----------------------------------------------------------------------===//

#include "clang/Basic/Version.inc"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// The major version in clang::getClangFullVersion() of the process, 0 if
/// it cannot be told. The function is looked up rather than linked, so that
/// the check itself can never be the unresolved symbol; its mangling and
/// std::string return have been the same since clang 4.
int runningClangMajor(std::string &Full) {
  using VersionFn = std::string (*)();
  auto *Fn = reinterpret_cast<VersionFn>(
      dlsym(RTLD_DEFAULT, "_ZN5clang19getClangFullVersionB5cxx11Ev"));
  if (!Fn)
    return 0;
  Full = Fn();
  const char *At = std::strstr(Full.c_str(), "clang version ");
  if (!At)
    return 0;
  return std::atoi(At + std::strlen("clang version "));
}

// Priority 101: before the registrations of the attributes and the plugin
// action, which are ordinary static constructors of the other files.
__attribute__((constructor(101))) void checkClangVersion() {
  std::string Full;
  int Major = runningClangMajor(Full);
  if (Major == 0 || Major == CLANG_VERSION_MAJOR)
    return;
  Dl_info Self{};
  dladdr(reinterpret_cast<void *>(&checkClangVersion), &Self);
  std::fprintf(stderr,
               "offload: error: %s is built for clang %d (%s) and cannot be "
               "loaded into clang %d (%s); compile with clang++-%d\n",
               Self.dli_fname ? Self.dli_fname : "the offload plugin",
               CLANG_VERSION_MAJOR, CLANG_VERSION_STRING, Major, Full.c_str(),
               CLANG_VERSION_MAJOR);
  // Nothing of the foreign clang may run our registrations; stop here.
  _exit(1);
}

} // namespace
