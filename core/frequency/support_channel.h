// The channel of a categorical report, per report (what analysis across
// questions needs: answer_channel.h), for every categorical mechanism.
//
// Unbiased indicators: whatever the mechanism, option c is supported with
// probability p when it is the answer and q otherwise (categorical_mechanism.h),
// so (support_c - q) / (p - q) has expectation 1 when c is the answer and 0
// otherwise: the per-report form of frequency_estimator.h's estimator.
//
// Likelihood: P(report | answer c) takes one of two values, whether c is
// supported or not (the report's other entries do not depend on c):
//   GRR (one option reported):     p if supported, q otherwise;
//   OUE, SUE (independent bits):   P(S | c) = prod_{i != c} q^s_i (1-q)^(1-s_i) * p^s_c (1-p)^(1-s_c),
//                                  so up to the factor common to all c: p(1-q) supported, q(1-p) not;
//   negative survey (an s-subset): the answer is in the subset with probability p, and the subset
//                                  is otherwise uniform, so P(S | c) = p / C(k-1, s-1) if c is in S,
//                                  (1-p) / C(k-1, s) if not: times C(k-1, s), p (k-s)/s and 1 - p.
//                                  The pure version (p = 0) rules the reported options out.
#pragma once

#include <vector>

#include "core/frequency/categorical_mechanism.h"

namespace deniable {

// P(report | answer) up to a factor common to all answers, by whether the answer is supported.
struct SupportLikelihood {
  double supported;
  double unsupported;
};

SupportLikelihood SupportLikelihoodOf(const CategoricalMechanism& mechanism);

// Per option: the likelihood of `support` given that option (up to a common factor).
std::vector<double> SupportLikelihoodVector(const Support& support, SupportLikelihood weights);

// Per option: (support_c - q) / (p - q).
std::vector<double> UnbiasedSupportIndicators(const Support& support, SupportProbabilities pq);

}  // namespace deniable
