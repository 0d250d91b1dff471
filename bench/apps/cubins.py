#!/usr/bin/env python3
#===- bench/apps/cubins.py - the sm_90 images inside offload() programs ---===#
#
# Part of the offload project's benchmark suite.
#
# An offload() program carries its device image, an ELF file for EM_CUDA,
# inside its .llvm.offloading section; cuobjdump does not look there. This
# writes each program's image to OUTDIR/<program>.cubin, for
# `nvdisasm -c` or `cuobjdump -sass` (bench/apps/run.sh does that with
# APPS_SASS=1).
#
# Usage: bench/apps/cubins.py OUTDIR PROGRAM...
#===----------------------------------------------------------------------===#
import os
import struct
import sys

EM_CUDA = 190


def elf_size(data, at):
    """The end of the furthest of the ELF's headers and sections."""
    phoff, shoff = struct.unpack_from("<QQ", data, at + 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from(
        "<HHHH", data, at + 0x36)
    end = max(phoff + phentsize * phnum, shoff + shentsize * shnum)
    for i in range(shnum):
        sh = at + shoff + i * shentsize
        kind, = struct.unpack_from("<I", data, sh + 4)
        offset, size = struct.unpack_from("<QQ", data, sh + 0x18)
        if kind != 8:  # SHT_NOBITS takes no room in the file
            end = max(end, offset + size)
    return end


def cubins(data):
    """Yields each 64-bit little-endian ELF for EM_CUDA found in data."""
    at = data.find(b"\x7fELF", 1)
    while at >= 0:
        if data[at + 4] == 2 and data[at + 5] == 1 and \
                struct.unpack_from("<H", data, at + 18)[0] == EM_CUDA:
            yield data[at:at + elf_size(data, at)]
        at = data.find(b"\x7fELF", at + 1)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: cubins.py OUTDIR PROGRAM...")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for prog in sys.argv[2:]:
        with open(prog, "rb") as f:
            found = list(cubins(f.read()))
        if not found:
            sys.exit(f"cubins.py: no sm_* image in {prog}")
        for n, image in enumerate(found):
            name = os.path.basename(prog) + (f".{n}" if n else "") + ".cubin"
            with open(os.path.join(out, name), "wb") as f:
                f.write(image)


if __name__ == "__main__":
    main()
