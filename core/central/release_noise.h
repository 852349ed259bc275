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
//
// Those intervals are for these respondents' counts (the sample held fixed).
// For the population the respondents were drawn from, a count of a share F
// also varies with the sample: its target is n F (the count expected among n
// respondents), and the sample adds Var = n F (1 - F) (binomial), estimated
// with F = the released count / n clipped to [0, 1]. The two errors are
// independent; the half-width is sqrt((h + 1/2)^2 + (z sd)^2), h the noise's
// half-width above (on the counts' scale) and z sd the sampling's normal one.
// The half count is the noise's continuity correction: h is an integer whose
// own mass at +-h is what brings P(|N| <= h) to the confidence, and any
// spread of the sample pushes half of it out (plain sqrt(h^2 + (z sd)^2)
// covered 87% at epsilon/sensitivity 2 and sd 0.01). By exact convolution of
// the discrete Laplace with the normal it covers >= 95% for epsilon /
// sensitivity in [0.01, 40] and sd in [0.02, 10^5] (worst 0.95000001, where
// the sample dominates); tests/cpp/core/survey/interval_target_test.cpp checks a grid.
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

// The sampling variance of a count of `value` (released) among `respondents`
// drawn from a population: n F (1 - F), F = value / n clipped to [0, 1]
// (0 without respondents).
double CountSamplingVariance(double value, std::int64_t respondents);

// The 95% half-width of integer noise of half-width h (on the counts' scale)
// plus an independent, normal sampling error of `sampling_variance`:
// sqrt((h + 1/2)^2 + (1.96 sd)^2), or h without sampling error.
double WithSamplingHalfWidth(double noise_half_width, double sampling_variance);

}  // namespace deniable
