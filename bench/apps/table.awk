#===- bench/apps/table.awk - the table of bench/apps/run.sh ---------------===#
#
# Part of the offload project's benchmark suite.
#
# Reads result lines (round=R measure=app_X impl=I median_us=T ...; or
# round=R program=P status=FAIL|MISSING ...) and prints per app: ours and
# CUDA in ms (the mean over rounds of each program's median), ours / CUDA
# against the app's goal (issue 13's six: <= 1.05; issue 29's real
# applications cfd, bfs, xsbench, btree and issue 27's xsstruct, domain:
# <= 1.00), the spread over rounds,
# then the reference columns: CUDA timed by events (kernel time only) and
# the reference builds of ours (bench/apps/README.md) divided by CUDA; last,
# for the measures with an ours_spans line (issue 27), ours / ours_spans
# against <= 1.02 (<= 1.10 for the launch overhead, app_domain_launch).
# Variables: gpu (a title), rounds.
#===----------------------------------------------------------------------===#

function field(name,   i, kv) {
  for (i = 1; i <= NF; i++) {
    split($i, kv, "=")
    if (kv[1] == name)
      return substr($i, length(name) + 2)
  }
  return ""
}
function have(m, i) { return ((m SUBSEP i) in sum) }
function ms(m, i) { return have(m, i) ? sum[m, i] / cnt[m, i] / 1e3 : "" }
function spread(m, i) {
  return have(m, i) && cnt[m, i] > 1 ? (hi[m, i] - lo[m, i]) / (sum[m, i] / cnt[m, i]) : 0
}
function fmt(v) { return v == "" ? "-" : sprintf("%.3f", v) }
function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "" : a / b }
function fmtr(r) { return r == "" ? "-" : sprintf("%.3f", r) }
function goal(m) { return m ~ /^app_(cfd|bfs|xsbench|btree|xsstruct|domain)$/ ? 1.00 : 1.05 }
# Issue 27: the struct of spans against the same kernels with separate span
# parameters (impl=ours_spans): the whole step, and a launch's own cost.
function struct_goal(m) { return m ~ /_launch$/ ? 1.10 : 1.02 }

/status=(FAIL|MISSING)/ { failed[++nfailed] = $0; next }

/measure=/ && /median_us=/ {
  m = field("measure"); i = field("impl"); t = field("median_us") + 0
  if (!(m in seen)) { seen[m] = 1; order[++napps] = m; size[m] = field("size") }
  sum[m, i] += t; cnt[m, i]++
  if (!((m, i) in lo) || t < lo[m, i]) lo[m, i] = t
  if (!((m, i) in hi) || t > hi[m, i]) hi[m, i] = t
}

END {
  printf "offload() application benchmarks: %s\n", gpu
  printf "ms: mean over %s round(s) of each program's median; ours = offload() call, cuda = launch(es) + cudaDeviceSynchronize, both host clock\n", rounds
  printf "spread: largest (max-min)/mean over rounds of ours and cuda\n"
  printf "reference: cuda_ev = CUDA events around the same launches (ms); unroll/4 = ours built with LLVM's NVPTX partial unrolling (-mllvm -unroll-partial-threshold=75), / cuda\n\n"
  printf "%-17s %-12s %8s %8s %9s  %-7s %-7s %6s  %8s %9s\n", "app", "size", "ours_ms",
         "cuda_ms", "ours/cuda", "goal", "verdict", "spread", "cuda_ev", "unroll/4"
  for (k = 1; k <= napps; k++) {
    m = order[k]
    r = ratio(ms(m, "ours"), ms(m, "cuda"))
    sp = spread(m, "ours") > spread(m, "cuda") ? spread(m, "ours") : spread(m, "cuda")
    g = goal(m)
    verdict = r == "" ? "n/a" : (r <= g ? "PASS" : "MISS")
    if (r != "") { goals++; if (r > g) misses++ }
    printf "%-17s %-12s %8s %8s %9s  %-7s %-7s %5.1f%%  %8s %9s\n", m, size[m],
           fmt(ms(m, "ours")), fmt(ms(m, "cuda")), fmtr(r), sprintf("<= %.2f", g), verdict,
           100 * sp, fmt(ms(m, "cuda_ev")),
           fmtr(ratio(ms(m, "ours_unroll4"), ms(m, "cuda")))
  }
  for (k = 1; k <= napps; k++) {
    m = order[k]
    if (!have(m, "ours_spans"))
      continue
    if (!heading++) {
      printf "\nissue 27: through a struct of spans (ours) against the spans as separate parameters (ours_spans)\n"
      printf "%-17s %-12s %8s %10s %12s  %-7s %-7s\n", "measure", "size", "ours_ms",
             "spans_ms", "ours/spans", "goal", "verdict"
    }
    r = ratio(ms(m, "ours"), ms(m, "ours_spans"))
    g = struct_goal(m)
    verdict = r == "" ? "n/a" : (r <= g ? "PASS" : "MISS")
    if (r != "") { goals++; if (r > g) misses++ }
    printf "%-17s %-12s %8s %10s %12s  %-7s %-7s\n", m, size[m], fmt(ms(m, "ours")),
           fmt(ms(m, "ours_spans")), fmtr(r), sprintf("<= %.2f", g), verdict
  }
  if (nfailed) {
    print ""
    print "FAILED or missing programs (see raw/*.err):"
    for (k = 1; k <= nfailed; k++) print "  " failed[k]
  }
  print ""
  printf "goals met: %d of %d%s\n", goals - misses, goals, nfailed ? " (with failures above)" : ""
}
