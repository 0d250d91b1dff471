# What may differ between builds of one program: timings, bandwidths and
# the number of offload devices (a host-only build has none). Call sites in
# messages are compared: the rewrite's #line directives keep the original's
# file and lines.
s/[0-9]+(\.[0-9]+)? ms\b/<t> ms/g
s/[0-9]+ offload device\(s\)/<n> offload device(s)/g
s/^(Copy|Mul|Add|Triad|Dot)( +[0-9.]+)+$/\1 <rates>/
# g++'s NVPTX builds run kernels that synchronise large blocks on the host
# and say so once per call site (omp_bridge.hpp); the GPU suite counts them.
/^offload: kernel '[^']*' at .*: note: runs on the host: /d
# A device's free memory (device_properties) moves between two runs.
s/, [0-9]+ free, /, <n> free, /
