#!/usr/bin/env python3
#===- fuzz/fuzz_plugin.py - mutation fuzzer for the plugin and rewriter ----===#
#
# Part of the offload project: GPU offloading for C++ through a Clang plugin.
#
#===----------------------------------------------------------------------===#
#
# Feeds mutated C++ sources through clang++ with the offload plugin (and,
# when given, through offload-rewrite) and records every input that makes a
# tool crash, assert, print "PLEASE submit a bug report" or hang.
#
# Why a subprocess loop and not in-process libFuzzer: the plugin is a module
# loaded by the system clang, which is neither instrumented nor built to
# survive a crash, so coverage feedback would only see this driver. Instead,
# the loop keeps a mutated input as a new seed when it produces a diagnostic
# (or a clean compile) that no earlier input produced: cheap feedback that
# steers it into the plugin's checks.
#
# Deterministic for a given --seed and --runs (the clock only bounds
# --minutes). See fuzz/README.md.
#
#===----------------------------------------------------------------------===#

import argparse
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# What the mutators splice in: the constructs the plugin inspects, and the
# values its checks compare against.
SNIPPETS = [
    "[[offload::kernel]] void k0(int *p) {}",
    "[[offload::kernel]] void k1(std::span<float> v) { v[ofld::global_id()] = 1; }",
    "[[offload::kernel]] void k2([[offload::out]] const int &x) {}",
    "[[offload::kernel]] void k3([[offload::out]] std::span<int> v) {}",
    "[[offload::kernel(3)]] void k4() {}",
    "[[offload::kernel]] int k5() { return 0; }",
    "[[offload::kernel]] void k6(int n) { int a[n]; a[0] = 0; }",
    "[[offload::kernel]] void k7(int) { throw 1; }",
    "[[offload::kernel]] void k8(int) { (void)typeid(int); }",
    "[[offload::kernel]] void k9(int x) { offload(k9, x); }",
    "[[offload::kernel]] void k10(int &&r) {}",
    "[[offload::kernel]] void k11(void (*f)()) {}",
    "template <class T> [[offload::kernel]] void kt(T t, std::span<T> v) {}",
    "struct Bits { int a : 3; int b : 5; }; [[offload::kernel]] void kb(Bits b, std::span<int> o) { o[0] = b.a; }",
    "struct V { virtual void f(); }; [[offload::kernel]] void kv(const V &v) {}",
    "void undefined_host(int); [[offload::kernel]] void ku(int x) { undefined_host(x); }",
    "offload(k1, std::span<float>());",
    "offload(ofld::launch{.grid = {0xffffffffu}}, k1, std::span<float>());",
    "offload(ofld::launch{.grid = {0, 4}, .block = {0}}, k1, std::span<float>());",
    "offload(ofld::launch{.block = {1u << 31, 0, 0}, .device = -7}, k1, std::span<float>());",
    "offload(kt<int>, 1, std::span<int>());",
    "offload(kt<int *>, nullptr, std::span<int *>());",
    "offload(offload, 1);",
    "offload(&k1);",
    "offload();",
    "offload(ofld::launch{});",
    "auto fp = &k1; offload(fp, std::span<float>());",
    "struct S { [[offload::kernel]] static void sk(int); };",
    "[[offload::out]] int g;",
    "namespace ns { [[offload::kernel]] void nk(std::array<int, 4> &a) {} }",
    "[[offload::kernel]] void kl(int x) { auto l = [&] { return x; }; (void)l(); }",
    "[[offload::kernel]] void kc(int) { co_return; }",
    "template <class T> void tcall(T t) { offload(t, 1); }",
    "#define K [[offload::kernel]]",
    "#include <span>",
    "#include <vector>",
    "using ofld::launch;",
    "int main() { return 0; }",
]

TOKENS = [
    "[[offload::kernel]]", "[[offload::out]]", "offload", "ofld::launch",
    "ofld::global_id()", "std::span<float>", "std::span<const float>",
    "std::span<int *>", "const", "&", "&&", "*", "...", "template", "typename",
    "virtual", "static", "constexpr", "co_return", "throw", "typeid(int)",
    "dynamic_cast<int *>", "new int", "delete", "sizeof", "decltype(auto)",
    "void", "int", "float", "auto", "{", "}", "(", ")", "<", ">", ",", ";",
    "::", ".grid", ".block", ".device", "= {", "0", "-1", "0xffffffff",
    "2147483648", "1u << 31", "nullptr", "main", "operator()", "__restrict",
    "alignas(64)", "[[noreturn]]", "requires true", "noexcept", "this",
]

NUMBERS = ["0", "1", "-1", "255", "256", "1024", "65536", "0x7fffffff",
           "0x80000000", "0xffffffff", "4294967296", "-2147483648",
           "18446744073709551615ull", "1e309", "0.0", "'\\0'"]

TOKEN_RE = re.compile(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+\w*|\d[\w.]*|\"(?:\\.|[^\"\\])*\"|"
                      r"'(?:\\.|[^'\\])*'|::|->|&&|\|\||<<|>>|\[\[|\]\]|\S")

CRASH_PATTERNS = [
    "PLEASE submit a bug report",
    "Stack dump:",
    "Assertion `",
    "LLVM ERROR:",
    "UNREACHABLE executed",
    "failed due to signal",
    "AddressSanitizer",
    "UndefinedBehaviorSanitizer",
    "runtime error:",
]


def collect_seeds(dirs):
    seeds = []
    for d in dirs:
        for base, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith((".cpp", ".hpp")):
                    p = os.path.join(base, f)
                    try:
                        with open(p, encoding="utf-8", errors="replace") as fh:
                            text = fh.read()
                    except OSError:
                        continue
                    # lit RUN lines would only add noise to the parse.
                    text = "\n".join(l for l in text.splitlines()
                                     if "RUN:" not in l)
                    seeds.append((os.path.relpath(p, ROOT), text))
    seeds.sort()
    return seeds


class Mutator:
    def __init__(self, rng, corpus):
        self.rng = rng
        self.corpus = corpus

    def other(self):
        return self.rng.choice(self.corpus)[1]

    def mutate(self, text):
        ops = [self.delete_lines, self.duplicate_line, self.swap_lines,
               self.insert_snippet, self.insert_snippet, self.replace_token,
               self.replace_token, self.delete_token, self.replace_number,
               self.splice, self.truncate, self.insert_foreign_line,
               self.wrap_in_template, self.flip_byte]
        for _ in range(self.rng.randint(1, 4)):
            text = self.rng.choice(ops)(text)
        return text

    def lines(self, text):
        return text.split("\n")

    def delete_lines(self, text):
        ls = self.lines(text)
        if len(ls) < 2:
            return text
        i = self.rng.randrange(len(ls))
        n = self.rng.randint(1, min(4, len(ls) - i))
        return "\n".join(ls[:i] + ls[i + n:])

    def duplicate_line(self, text):
        ls = self.lines(text)
        i = self.rng.randrange(len(ls))
        return "\n".join(ls[:i + 1] + [ls[i]] + ls[i + 1:])

    def swap_lines(self, text):
        ls = self.lines(text)
        if len(ls) < 2:
            return text
        i, j = self.rng.randrange(len(ls)), self.rng.randrange(len(ls))
        ls[i], ls[j] = ls[j], ls[i]
        return "\n".join(ls)

    def insert_snippet(self, text):
        ls = self.lines(text)
        i = self.rng.randrange(len(ls) + 1)
        return "\n".join(ls[:i] + [self.rng.choice(SNIPPETS)] + ls[i:])

    def insert_foreign_line(self, text):
        src = self.lines(self.other())
        ls = self.lines(text)
        i = self.rng.randrange(len(ls) + 1)
        return "\n".join(ls[:i] + [self.rng.choice(src)] + ls[i:])

    def tokens(self, text):
        return list(TOKEN_RE.finditer(text))

    def replace_token(self, text):
        toks = self.tokens(text)
        if not toks:
            return text
        m = self.rng.choice(toks)
        if self.rng.random() < 0.5:
            new = self.rng.choice(TOKENS)
        else:
            new = self.rng.choice(toks).group(0)
        return text[:m.start()] + new + text[m.end():]

    def delete_token(self, text):
        toks = self.tokens(text)
        if not toks:
            return text
        m = self.rng.choice(toks)
        return text[:m.start()] + text[m.end():]

    def replace_number(self, text):
        nums = [m for m in self.tokens(text) if m.group(0)[0].isdigit()]
        if not nums:
            return self.replace_token(text)
        m = self.rng.choice(nums)
        return text[:m.start()] + self.rng.choice(NUMBERS) + text[m.end():]

    def splice(self, text):
        a, b = self.lines(text), self.lines(self.other())
        return "\n".join(a[:self.rng.randrange(len(a) + 1)] +
                         b[self.rng.randrange(len(b) + 1):])

    def truncate(self, text):
        if not text:
            return text
        return text[:self.rng.randrange(len(text))]

    def wrap_in_template(self, text):
        # Moves a kernel or a call into a template, instantiated or not.
        ls = self.lines(text)
        i = self.rng.randrange(len(ls))
        if "offload" not in ls[i]:
            return text
        return "\n".join(ls[:i] + ["template <class T> void tw(T) {", ls[i], "}",
                                   "template void tw<int>(int);"] + ls[i + 1:])

    def flip_byte(self, text):
        if not text:
            return text
        i = self.rng.randrange(len(text))
        return text[:i] + chr(self.rng.choice(b"{}()<>[];:,&*\"'\\#\n")) + text[i + 1:]


def modes(args):
    """The compile jobs an input goes through; each is a list of arguments."""
    common = [args.clangxx, "-std=c++20", "-fplugin=" + args.plugin, "-fopenmp",
              "-nogpulib", "-fno-crash-diagnostics", "-ferror-limit=50",
              "-w"]
    host = ["-fopenmp-targets=x86_64-pc-linux-gnu"]
    out = [
        ("syntax", common + host + ["--offload-host-only", "-fsyntax-only"]),
        ("host-ir", common + host + ["--offload-host-only", "-S", "-emit-llvm",
                                     "-O1", "-o", "-"]),
        ("device-ir", common + host + ["--offload-device-only", "-S",
                                       "-emit-llvm", "-O1", "-o", "-"]),
    ]
    if args.sm90:
        out.append(("sm90-ir", common + ["--offload-arch=sm_90", "--cuda-path=" +
                                         args.cuda_path, "--offload-device-only",
                                         "-S", "-emit-llvm", "-o", "-"]))
    return out


def classify(rc, stderr, timed_out):
    """Returns why a run failed, or None when it did not."""
    if timed_out:
        return "timeout"
    if rc < 0 or rc > 128:
        return "signal %d" % (-rc if rc < 0 else rc - 128)
    for p in CRASH_PATTERNS:
        if p in stderr:
            return p.strip(":` ")
    return None


def crash_frame(stderr):
    """The first stack frame inside the plugin (or the first frame at all):
    crashes with the same one are the same bug."""
    frames = re.findall(r"#\d+ 0x[0-9a-f]+ (.*)", stderr)
    for f in frames:
        if "offload" in f or "ofld" in f:
            return re.sub(r"\(/[^)]*\)|\+0x[0-9a-f]+", "", f).strip()
    return frames[4].strip() if len(frames) > 4 else "no stack"


def signature(stderr):
    """Which diagnostics a run gave, without names, numbers and locations."""
    sig = set()
    for line in stderr.splitlines():
        m = re.search(r"(error|warning): (.*)", line)
        if m:
            msg = re.sub(r"'[^']*'", "'_'", m.group(2))
            msg = re.sub(r"\d+", "N", msg)
            sig.add(msg)
    return frozenset(sig)


def run_one(cmd, timeout, env):
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout, env=env)
        return p.returncode, p.stderr.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode("utf-8", "replace") if e.stderr else ""
        return -9, err, True


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--plugin", required=True, help="path to liboffload.so")
    ap.add_argument("--clangxx", default="clang++-22")
    ap.add_argument("--rewriter", help="offload-rewrite to fuzz as well")
    ap.add_argument("--runtime-include", default=os.path.join(
        ROOT, "runtime", "include"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=0, help="stop after N inputs")
    ap.add_argument("--minutes", type=float, default=0,
                    help="stop after this long")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds before a compile counts as a hang")
    ap.add_argument("--seeds", nargs="*", default=[
        os.path.join(ROOT, d) for d in
        ("tests/e2e", "tests/lit/diagnostics", "tests/lit/codegen",
         "tests/lit/rewriter/Inputs", "examples")])
    ap.add_argument("--out", default="fuzz-out",
                    help="where crashes and the grown corpus go")
    ap.add_argument("--sm90", action="store_true",
                    help="also compile for sm_90 (device side)")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--max-corpus", type=int, default=2000)
    ap.add_argument("--preload", help="shared sanitizer runtime to preload "
                    "into the tools (for an OFFLOAD_SANITIZE plugin)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if not args.runs and not args.minutes:
        args.runs = 100

    seeds = collect_seeds(args.seeds)
    if not seeds:
        sys.exit("fuzz_plugin: no seed files found")
    rng = random.Random(args.seed)
    corpus = list(seeds)
    mut = Mutator(rng, corpus)
    jobs = modes(args)
    os.makedirs(os.path.join(args.out, "crashes"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "corpus"), exist_ok=True)
    seen = set()
    crashes = {}
    bugs = {}  # first plugin frame -> first crash with it
    runs = execs = 0
    start = time.time()
    env = dict(os.environ)
    if args.preload:
        env["LD_PRELOAD"] = args.preload
        # allow_user_poisoning=0: see cmake/Sanitizers.cmake.
        env["ASAN_OPTIONS"] = ("detect_leaks=0:allocator_may_return_null=1:"
                               "allow_user_poisoning=0")
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    tmp = tempfile.mkdtemp(prefix="ofld-fuzz-")
    log = open(os.path.join(args.out, "fuzz.log"), "a")
    log.write("start seed=%d runs=%d minutes=%g seeds=%d\n" %
              (args.seed, args.runs, args.minutes, len(seeds)))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    try:
        while True:
            if args.runs and runs >= args.runs:
                break
            if args.minutes and time.time() - start > args.minutes * 60:
                break
            name, base = rng.choice(corpus)
            text = mut.mutate(base)
            runs += 1
            path = os.path.join(tmp, "input.cpp")
            with open(path, "w") as fh:
                fh.write(text)
            mode, cmd = jobs[runs % len(jobs)]
            targets = [(mode, cmd)]
            if args.rewriter and runs % 4 == 0:
                targets.append(("rewriter", [args.rewriter, "--explain"]))
            for mode, cmd in targets:
                if mode == "rewriter":
                    full = cmd + [path, "--", "-std=c++20",
                                  "-I" + args.runtime_include]
                else:
                    full = cmd + [path]
                rc, err, to = run_one(full, args.timeout, env)
                execs += 1
                why = classify(rc, err, to)
                if why:
                    h = hashlib.sha1(text.encode()).hexdigest()[:12]
                    key = os.path.join(args.out, "crashes", "%s-%s" % (mode, h))
                    with open(key + ".cpp", "w") as fh:
                        fh.write(text)
                    with open(key + ".txt", "w") as fh:
                        fh.write("why: %s\nfrom: %s\nmode: %s\ncmd: %s\n\n%s" %
                                 (why, name, mode, " ".join(full), err))
                    frame = crash_frame(err)
                    crashes[key] = "%s in %s" % (why, frame)
                    bugs.setdefault(frame, key)
                    log.write("CRASH %s %s in %s (%s)\n" % (key, why, frame,
                                                          name))
                    log.flush()
                    if not args.quiet:
                        print("fuzz_plugin: %s: %s -> %s.cpp" % (mode, why, key),
                              flush=True)
                    continue
                sig = (mode, signature(err), rc == 0)
                if sig not in seen:
                    seen.add(sig)
                    if len(corpus) < args.max_corpus:
                        cname = "corpus/%06d.cpp" % runs
                        corpus.append((cname, text))
                        with open(os.path.join(args.out, cname), "w") as fh:
                            fh.write(text)
            if runs % 100 == 0:
                log.write("stats: %d inputs, %d executions, %d crashes (%d "
                          "distinct), %.0f s\n" % (runs, execs, len(crashes),
                                                   len(bugs),
                                                   time.time() - start))
                log.flush()
            if not args.quiet and runs % 100 == 0:
                print("fuzz_plugin: %d inputs, %d executions, %d corpus, "
                      "%d crashes, %.0f s" % (runs, execs, len(corpus),
                                              len(crashes),
                                              time.time() - start), flush=True)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    summary = ("fuzz_plugin: done: %d inputs, %d executions, %d corpus, "
               "%d crashes (%d distinct) in %.0f s (seed %d)" %
               (runs, execs, len(corpus), len(crashes), len(bugs),
                time.time() - start, args.seed))
    log.write(summary + "\n")
    log.close()
    print(summary)
    for frame, key in sorted(bugs.items()):
        print("fuzz_plugin: CRASH %s: %s" % (key, crashes[key]))
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
