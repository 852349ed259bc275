// The value channel of a numeric question (answer_channel.h): an unbiased
// estimate of each respondent's answer from their report alone.
//
// A mechanism with one value per report whose mean given the answer is
// linear, E[y | x] = alpha + beta x (NumericMechanism::report_moments), gives
// (y - alpha) / beta, unbiased for x: Laplace, Duchi, Piecewise, Hybrid,
// Gaussian-pDP and Flipped Huber (alpha = 0, beta = 1: the report itself),
// and Square Wave (whose report is biased towards the middle of the range,
// but linearly, so the affine correction undoes it exactly in expectation).
// None for RVNS (k values per report with no closed-form moments) and levels
// (report_moments: its report's moments depend on the answer's level, not a
// polynomial in the answer; its own HierA mean is not exposed per report).
#pragma once

#include <memory>

#include "core/numeric/numeric_mechanism.h"
#include "core/survey/answer_channel.h"

namespace deniable {

class NumericValueChannel final : public ValueChannel {
 public:
  // Null when the mechanism has no unbiased per-report value (above).
  static std::unique_ptr<NumericValueChannel> Create(const NumericMechanism& mechanism);
  // `response` is a NumericResponse.
  double UnbiasedValue(const KindResponse& response) const override;
  double alpha() const { return alpha_; }
  double beta() const { return beta_; }

 private:
  NumericValueChannel(double alpha, double beta) : alpha_(alpha), beta_(beta) {}
  double alpha_;
  double beta_;
};

}  // namespace deniable
