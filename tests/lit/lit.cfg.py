# -*- Python -*-
#===- lit.cfg.py - offload lit configuration ------------------------------===#
#
# Substitutions used by the tests:
#   %clangxx         clang++ 22
#   %plugin          -fplugin=<build>/lib/liboffload.so
#   %host-target     the plugin, -fopenmp and the host offload target
#   %sm90            the plugin, -fopenmp and sm_90 (compile and link only)
#   %link-rt         the runtime and the rpaths a program needs
#   %offload-rewrite the rewriter
#===----------------------------------------------------------------------===#
import os
import lit.formats

config.name = "offload"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "errors.test.cpp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.offload_obj_root, "tests", "lit")

lib = os.path.join(config.offload_obj_root, "lib")
bindir = os.path.join(config.offload_obj_root, "bin")
runtime_inc = os.path.join(config.offload_src_root, "runtime", "include")
clangxx = os.path.join(config.llvm_tools_dir, "clang++")
plugin = "-fplugin=" + os.path.join(lib, "liboffload.so")
common = "-std=c++20 %s -fopenmp -nogpulib" % plugin

config.substitutions.append(("%clangxx", clangxx))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%host-target",
                             common + " -fopenmp-targets=x86_64-pc-linux-gnu"))
config.substitutions.append(("%sm90", common + " --offload-arch=sm_90 --cuda-path=" +
                             config.cuda_path))
config.substitutions.append(("%link-rt", "-L%s -lofld_rt -Wl,-rpath,%s -Wl,-rpath,%s"
                             % (lib, lib, config.llvm_lib_dir)))
config.substitutions.append(("%runtime-include", runtime_inc))
config.substitutions.append(("%cuda-path", config.cuda_path))
config.substitutions.append(("%offload-rewrite", os.path.join(bindir, "offload-rewrite")))
config.substitutions.append(("%e2e", os.path.join(config.offload_src_root, "tests", "e2e")))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["LD_LIBRARY_PATH"] = os.pathsep.join([lib, config.llvm_lib_dir])
# Runs are never allowed to fall back silently to the host CPU.
config.environment["OMP_TARGET_OFFLOAD"] = "MANDATORY"
for var in ["HOME", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

if os.path.exists(os.path.join(config.cuda_path, "bin", "ptxas")):
    config.available_features.add("cuda")
if os.path.exists(os.path.join(bindir, "offload-rewrite")):
    config.available_features.add("rewriter")
# g++ builds the same sources without the plugin (CPU fallback).
import shutil
_gxx = shutil.which("g++-12", path=config.environment["PATH"])
if _gxx:
    config.available_features.add("gxx")
    config.substitutions.append(("%gxx", _gxx))

# OFFLOAD_SANITIZE builds (cmake/Sanitizers.cmake): the instrumented plugin
# and runtime run inside uninstrumented programs (clang, the test programs),
# so the shared sanitizer runtime is preloaded into every command.
import subprocess
_nm = os.path.join(config.llvm_tools_dir, "llvm-nm")
_syms = subprocess.run([_nm, "-D", "--undefined-only", os.path.join(lib, "liboffload.so")],
                       capture_output=True, text=True).stdout
for _sym, _rt in (("__asan_init", "libclang_rt.asan-x86_64.so"),
                  ("__ubsan_handle", "libclang_rt.ubsan_standalone-x86_64.so")):
    if _sym in _syms:
        config.environment["LD_PRELOAD"] = subprocess.run(
            [clangxx, "-print-file-name=" + _rt], capture_output=True,
            text=True).stdout.strip()
        # Like an uninstrumented run: huge allocations return null, and an error
        # (or a deliberate stack overflow) ends the process with a signal.
        # allow_user_poisoning=0: LLVM's inline allocator code poisons memory in
        # our instrumented copy that uninstrumented libclang-cpp then hands out
        # (cmake/Sanitizers.cmake).
        config.environment["ASAN_OPTIONS"] = ("detect_leaks=0:allocator_may_return_null=1:"
                                              "abort_on_error=1:allow_user_poisoning=0")
        config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
        config.available_features.add("sanitized")
        break
