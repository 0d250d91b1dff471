# What may differ between builds of one program: timings, bandwidths and
# the number of offload devices (a host-only build has none).
s/[0-9]+(\.[0-9]+)? ms\b/<t> ms/g
s/[0-9]+ offload device\(s\)/<n> offload device(s)/g
s/^(Copy|Mul|Add|Triad|Dot)( +[0-9.]+)+$/\1 <rates>/
