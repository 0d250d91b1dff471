//===- bench/apps/domain/ours.cpp - a LULESH-style step through a struct --===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Issue 27: ref.hpp's step with the twenty arrays in one struct of spans
// (`domain`, as LULESH's Domain), every kernel taking `const domain &`, its
// fields resident in an ofld::region. The same step with each kernel taking
// only the spans it reads as separate parameters (13 and 7: what a port
// that unpacks the struct writes) runs on a second copy (impl=ours_spans).
// One repetition is one step: both launches, then a wait.
//
// app_domain_launch: the launch overhead of a struct of 20 resident spans
// (impl=ours) against one resident span parameter (impl=ours_spans): a
// kernel of one block that touches one element, launched and waited for.
//
//   apps_domain_ours [--n=ELEMENTS (2097152)] [--reps=R (200)] [--warmup=W (5)]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <span>
#include <vector>

using field = std::span<double>;
using cfield = std::span<const double>;

struct domain {
  field x, y, z, xd, yd, zd, xdd, ydd, zdd;
  cfield fx, fy, fz, mass;
  field e, p, q, v, delv;
  cfield vdov;
  field ss;
};

[[offload::kernel]] void nodes_struct(const domain &d, double dt) {
  const std::size_t i = ofld::global_id();
  if (i < d.x.size())
    dom::update_node(i, d.x.data(), d.y.data(), d.z.data(), d.xd.data(),
                     d.yd.data(), d.zd.data(), d.xdd.data(), d.ydd.data(),
                     d.zdd.data(), d.fx.data(), d.fy.data(), d.fz.data(),
                     d.mass.data(), dt);
}

[[offload::kernel]] void elements_struct(const domain &d, double dt) {
  const std::size_t i = ofld::global_id();
  if (i < d.e.size())
    dom::update_element(i, d.e.data(), d.p.data(), d.q.data(), d.v.data(),
                        d.delv.data(), d.vdov.data(), d.ss.data(), dt);
}

[[offload::kernel]] void nodes_spans(field x, field y, field z, field xd,
                                     field yd, field zd, field xdd, field ydd,
                                     field zdd, cfield fx, cfield fy, cfield fz,
                                     cfield mass, double dt) {
  const std::size_t i = ofld::global_id();
  if (i < x.size())
    dom::update_node(i, x.data(), y.data(), z.data(), xd.data(), yd.data(),
                     zd.data(), xdd.data(), ydd.data(), zdd.data(), fx.data(),
                     fy.data(), fz.data(), mass.data(), dt);
}

[[offload::kernel]] void elements_spans(field e, field p, field q, field v,
                                        field delv, cfield vdov, field ss,
                                        double dt) {
  const std::size_t i = ofld::global_id();
  if (i < e.size())
    dom::update_element(i, e.data(), p.data(), q.data(), v.data(), delv.data(),
                        vdov.data(), ss.data(), dt);
}

[[offload::kernel]] void touch_struct(const domain &d) {
  if (ofld::global_id() == 0)
    d.delv[0] += 1.0;
}

[[offload::kernel]] void touch_span(field delv) {
  if (ofld::global_id() == 0)
    delv[0] += 1.0;
}

static domain view(dom::fields &f) {
  return {f.x,  f.y,  f.z,    f.xd, f.yd, f.zd, f.xdd, f.ydd,  f.zdd,  f.fx,
          f.fy, f.fz, f.mass, f.e,  f.p,  f.q,  f.v,   f.delv, f.vdov, f.ss};
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {200, 5, 2097152, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  dom::fields with_struct = dom::make_fields(n), with_spans = with_struct;
  const domain d = view(with_struct), s = view(with_spans);
  const ofld::launch shape{
      .grid = {unsigned((n + dom::kBlock - 1) / dom::kBlock)},
      .block = {dom::kBlock}};
  const ofld::launch one{.grid = {1}, .block = {32}};
  auto step_struct = [&] {
    offload(shape, nodes_struct, d, dom::kDt);
    offload(shape, elements_struct, d, dom::kDt);
    ofld::wait();
  };
  auto step_spans = [&] {
    offload(shape, nodes_spans, s.x, s.y, s.z, s.xd, s.yd, s.zd, s.xdd, s.ydd,
            s.zdd, s.fx, s.fy, s.fz, s.mass, dom::kDt);
    offload(shape, elements_spans, s.e, s.p, s.q, s.v, s.delv, s.vdov, s.ss,
            dom::kDt);
    ofld::wait();
  };
  bench::Samples by_struct, by_spans, launch_struct, launch_span;
  const int steps = a.warmup + a.reps;
  {
    // Both domains resident, every field by its type (a region holding a
    // struct holds its span fields); what the kernels wrote comes back at
    // the closing brace.
    ofld::region resident{d, s};
    // Interleaved repetitions, so that neither runs on a cooler GPU.
    for (int i = 0; i < steps; ++i) {
      const double t0 = bench::now_us();
      step_struct();
      const double t1 = bench::now_us();
      step_spans();
      const double t2 = bench::now_us();
      if (i >= a.warmup) {
        by_struct.add(t1 - t0);
        by_spans.add(t2 - t1);
      }
    }
    // The launches' own cost: 10 per repetition of the step's count.
    const int launches = 10 * steps;
    for (int i = 0; i < launches; ++i) {
      const double t0 = bench::now_us();
      offload(one, touch_struct, d);
      ofld::wait();
      const double t1 = bench::now_us();
      offload(one, touch_span, s.delv);
      ofld::wait();
      const double t2 = bench::now_us();
      if (i >= 10 * a.warmup) {
        launch_struct.add(t1 - t0);
        launch_span.add(t2 - t1);
      }
    }
  }
  dom::fields want = dom::make_fields(n);
  dom::reference(want, steps);
  // The touches added 1 to delv[0] each; the last step wrote it before.
  const double touched = double(10 * steps);
  with_struct.delv[0] -= touched;
  with_spans.delv[0] -= touched;
  dom::check("ours", with_struct, want, steps);
  dom::check("ours_spans", with_spans, want, steps);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  by_struct.report(dom::kMeasure, "ours", 0, extra);
  by_spans.report(dom::kMeasure, "ours_spans", 0, extra);
  launch_struct.report(dom::kLaunchMeasure, "ours", 0, "size=20spans");
  launch_span.report(dom::kLaunchMeasure, "ours_spans", 0, "size=1span");
  return 0;
}
