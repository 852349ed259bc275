// What a reader may know about a release's noise, which is public (its law
// depends on the method, epsilon and sensitivity, never on the data): the
// per-group draws' distribution and exact intervals built from it.
//
// A group of m bins publishes (S + N)/m for every member, S the group's true
// sum and N one discrete Laplace draw, so [value - h/m, value + h/m] covers
// the group's mean true count with probability >= the confidence, h the
// exact quantile of |N| (P(|N| <= h) = 1 - 2a^(h+1)/(1+a), a = e^(-eps/sens)).
// It says nothing about one bin of a group of several: the grouping's
// averaging error is data-dependent and unknown, so no honest per-bin
// interval exists there. A sum of k whole groups has error N_1 + ... + N_k:
// its half-width is a Chernoff bound on that sum (exact for k = 1), so the
// coverage is at least the confidence, never less.
#pragma once

#include <cstdint>

#include "core/central/release_request.h"
#include "core/common/result.h"

namespace deniable {

// a = e^(-epsilon/sensitivity) of the draws every group of a release gets
// (sreb_gca: epsilon_2 = (1 - rho) epsilon; ahp: (1 - ratio) epsilon; dp_base: epsilon).
double PublishedNoiseDecay(const ReleaseRequest& request, std::int64_t sensitivity);

// The smallest integer h with P(|N| <= h) >= confidence for one draw.
std::int64_t DiscreteLaplaceHalfWidth(double decay, double confidence);

// A half-width h with P(|N_1 + ... + N_k| <= h) >= confidence (k >= 1 iid
// draws): exact for k = 1, a Chernoff bound otherwise.
double NoiseSumHalfWidth(double decay, std::int64_t k, double confidence);

}  // namespace deniable
