#!/usr/bin/env bash
#===- stage-mpi.sh - stage Open MPI for the GPU machine -------------------===#
#
# The GPU machine has no MPI and no package registry. This downloads Debian's
# Open MPI and what it loads (about 6 MiB of packages) into DIR, next to
# mpi-env.sh, which unpacks them there. From the project root:
#   tests/gpu/stage-mpi.sh [DIR]          (DIR defaults to .gpu-runtime/mpi)
#   (device tool) carry [DIR, ...], command: source DIR/mpi-env.sh; mpirun ...
# DIR must be a folder git ignores (.gpu-runtime/ and build*/ are).
#===----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:-.gpu-runtime/mpi}
mkdir -p "$DIR"
PKGS="libopenmpi3 openmpi-bin openmpi-common libpmix2 libhwloc15
  libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libucx0 libibverbs1
  librdmacm1 libpsm2-2 libpsm-infinipath1 libnuma1 libnl-3-200
  libnl-route-3-200 libmunge2 libatomic1"
if ! ls "$DIR"/libopenmpi3_*.deb >/dev/null 2>&1; then
  (cd "$DIR" && apt-get download $PKGS 2>&1 | grep -vE '^(Get:|Fetched)|unsandboxed' || true)
fi
cp tests/gpu/mpi-env.sh "$DIR/mpi-env.sh"
echo "staged $(ls "$DIR"/*.deb | wc -l) packages in $DIR ($(du -sh "$DIR" | cut -f1))"
