// Which release method serves which data consumer of a question answered in
// confidence, measured before collection (the kind's DesignAdvice, and
// `deniable simulate`'s advice). No single method wins everywhere: on
// DPBench-style histograms (bench/publication_bench) DP_BASE with the free
// consistent post-processing matched SReB_GCA's per-bin relative error in
// most cases and was several times better on ranges, and AHP beat SReB_GCA's
// per-bin error; grouping methods average bins, which helps a per-bin reader
// of a sparse histogram but blurs the sums a consumer of wider bins reads,
// and leaves those sums without a noise interval where they cut a group.
//
// So the advisor measures, for this question's own bins, consumers' views,
// budget and expected respondents: answers are drawn from three public shapes
// (no data: "skewed" — Zipf(1.1) popularity in a random order; "sparse" — a
// twentieth of the bins hold the answers; "smooth" — two bumps over thin
// tails, in order, as a numeric answer's histogram), each
// method releases them at the whole budget (SReB_GCA rho 0.5, DP_BASE, AHP;
// the consistent post-processing (Norm-Sub) of DP_BASE and AHP as
// alternatives), and per consumer the error is averaged over shapes and runs:
//   "bins":        MRE, mean over bins of |H - H~| / max(H, 1) (the paper's);
//   each view:     the mean absolute error of a view bin's count, divided by
//                  the respondents (a share), and the mean half-width of the
//                  intervals the release publishes for those bins.
// The shape is unknown before collection, so the recommendation per consumer
// is the alternative whose worst ratio to the best over the shapes is
// smallest ("worst_ratio"; "best_by_shape" says what wins on each). On
// bench/publication_bench --advisor's DPBench-style histograms the pick was
// within 1.0-2.0x of the measured best (5 of 12 the best), where the default
// SReB_GCA was 1.2-7.4x. Fixed seed: the same question gives the same advice.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/central/release_document.h"

namespace deniable {

// {"kind": "central_release", "n", "budget", "bins", "shapes", "runs", "methods": [...],
//  "consumers": [{"name": "bins" | view name, "measure", "errors": {method: mean e}, "worst_ratio": {method: r},
//                 "best_by_shape": {shape: method}, "half_widths"?: {method: h}, "recommended", "reason"}], "note"}
nlohmann::json ReleaseAdvice(const ReleaseLayout& layout, double budget, std::int64_t sensitivity,
                             std::int64_t respondents);

}  // namespace deniable
