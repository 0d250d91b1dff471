#!/usr/bin/env bash
# bench/staging/run.sh - the staging benchmark on the GPU machine (copied
# into .gpu-runtime/staging by build.sh); writes $OUT/log.txt.
# KMP_BLOCKTIME=0: the bench's parallel fills would otherwise leave 16
# OpenMP threads spinning for 200 ms, competing with the copy workers.
export KMP_BLOCKTIME=0
B=.gpu-runtime/staging/staging_bench
{
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
echo "cores: $(nproc); $(lscpu | grep -E 'Model name|NUMA node\(s\)' | tr -s ' ' | tr '\n' ';')"
echo "== default settings, all sizes"
OFFLOAD_STAGING_DEBUG=1 timeout 120 $B 2>&1
echo "== small sizes (threshold)"
timeout 60 $B --sizes 512K,1M,2M,3M,4M,6M,8M --reps 30 2>&1 | grep -v '^# host\|^# triad\|^# 4 conc'
echo "== default settings, second round (triad)"
timeout 60 $B --staged-only --sizes 256M,1G --reps 9 2>&1
} 2>&1 | tee $OUT/log.txt
