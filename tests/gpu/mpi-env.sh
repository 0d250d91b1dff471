# Source this on the GPU machine (bash), from the project root, after
# staging with tests/gpu/stage-mpi.sh:   source <DIR>/mpi-env.sh
# Unpacks the staged Open MPI (Debian's, with what it loads) into
# /tmp/offload-mpi and points PATH, LD_LIBRARY_PATH and Open MPI there.
_ofl_mpi="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ ! -e /tmp/offload-mpi/.done ]; then
  mkdir -p /tmp/offload-mpi
  for _f in "$_ofl_mpi"/*.deb; do dpkg -x "$_f" /tmp/offload-mpi; done
  # mpirun is a Debian alternative, made when the package is installed.
  ln -sf orterun /tmp/offload-mpi/usr/bin/mpirun
  touch /tmp/offload-mpi/.done
fi
_r=/tmp/offload-mpi
# Open MPI finds its plugins and help files under OPAL_PREFIX.
export OPAL_PREFIX=$_r/usr OPAL_SYSCONFDIR=$_r/etc/openmpi
# PMIx (Open MPI's process manager interface) looks for its plugins at its
# install path, where another PMIx may live.
export PMIX_MCA_mca_base_component_path=$_r/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
export PMIX_MCA_pcompress_base_silence_warning=1
export PATH="$_r/usr/bin${PATH:+:$PATH}"
export LD_LIBRARY_PATH="$_r/usr/lib/x86_64-linux-gnu/openmpi/lib:$_r/usr/lib/x86_64-linux-gnu/pmix2/lib:$_r/usr/lib/x86_64-linux-gnu:$_r/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# One node, no ssh, shared memory between ranks, as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_base_warn_component_unused=0
echo "Open MPI ready: $("$_r/usr/bin/orterun" --version 2>&1 | head -1)"
unset _f _r _ofl_mpi
