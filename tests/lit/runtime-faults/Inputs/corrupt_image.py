#!/usr/bin/env python3
#===- corrupt_image.py - damage the device image embedded in a program ----===#
#
# Part of the offload project's tests.
#   corrupt_image.py IN OUT magic   the embedded ELF no longer says "\x7fELF"
#   corrupt_image.py IN OUT remove  the .llvm.offloading section is dropped
#
#===----------------------------------------------------------------------===#
import os
import subprocess
import sys
import tempfile

src, dst, how = sys.argv[1:4]
if how == "remove":
    subprocess.run(["llvm-objcopy", "--remove-section=.llvm.offloading", src, dst],
                   check=True)
else:
    with tempfile.TemporaryDirectory() as d:
        img = os.path.join(d, "image.bin")
        subprocess.run(["llvm-objcopy", "--dump-section=.llvm.offloading=" + img,
                        src, os.path.join(d, "unused")], check=True)
        data = bytearray(open(img, "rb").read())
        at = data.find(b"\x7fELF")
        if at < 0:
            sys.exit("corrupt_image: no ELF image in .llvm.offloading")
        data[at:at + 4] = b"XXXX"
        open(img, "wb").write(data)
        subprocess.run(["llvm-objcopy", "--update-section=.llvm.offloading=" + img,
                        src, dst], check=True)
os.chmod(dst, 0o755)
