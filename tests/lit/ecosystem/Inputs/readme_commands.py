#!/usr/bin/env python3
#===- readme_commands.py - run the README's compile lines as written -------===#
#
# Usage: readme_commands.py README.md WORKDIR
#
# A documented command line that builds a program that does not start is a
# defect the reader finds first. This takes the README's first C++ block as
# app.cpp and every `clang++-22` line of its sh blocks (continuations joined),
# runs each as written in WORKDIR (where `build` names the build tree), then
# the program it made. Lines whose comment names a replacement ("no GPU: A
# instead of B") run a second time with it. Prints one line per command.
#===----------------------------------------------------------------------===#
import re
import subprocess
import sys


def blocks(text, lang):
    return re.findall(r"```%s\n(.*?)```" % lang, text, re.S)


def commands(block):
    """Logical lines starting with clang++-22, and their `# no GPU:` variant."""
    lines, current = [], ""
    for raw in block.splitlines():
        current += raw.rstrip("\\").rstrip() + " " if raw.endswith("\\") else raw
        if not raw.endswith("\\"):
            lines.append(current.strip())
            current = ""
    out = []
    for i, line in enumerate(lines):
        if not line.startswith("clang++-22"):
            continue
        out.append(line.split(" #")[0])
        note = lines[i + 1] if i + 1 < len(lines) else ""
        m = re.match(r"# no GPU: (\S+) instead of (.+)", note)
        if m:
            new, old = m.group(1), m.group(2).split("/")
            variant = out[-1]
            # "--offload-arch/--cuda-path": drop each named option, add the new one.
            for opt in old:
                variant = re.sub(r"\s%s=\S+" % re.escape(opt), "", variant)
            out.append(variant.replace("clang++-22", "clang++-22 " + new, 1))
    return out


def main():
    readme, work = sys.argv[1], sys.argv[2]
    text = open(readme).read()
    with open(f"{work}/app.cpp", "w") as f:
        f.write(blocks(text, "cpp")[0])
    failed = 0
    for block in blocks(text, "sh"):
        for cmd in commands(block):
            build = subprocess.run(cmd, shell=True, cwd=work, capture_output=True,
                                   text=True, executable="/bin/bash")
            run = subprocess.run("./a.out", shell=True, cwd=work, capture_output=True,
                                 text=True, env={"PATH": "/usr/bin:/bin"}) \
                if build.returncode == 0 else None
            ok = run is not None and run.returncode == 0
            failed += not ok
            print(f"{'ok' if ok else 'FAILED'}: {cmd}")
            if not ok:
                print(build.stderr + (run.stderr if run else ""), file=sys.stderr)
            subprocess.run("rm -f a.out", shell=True, cwd=work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
