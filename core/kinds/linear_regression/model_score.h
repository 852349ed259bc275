// The held-out rounds' reports (model_definition.h, "holdout"): each
// respondent of a scoring round sends the squared error of the final
// coefficients' prediction at their own answers, perturbed, and the server
// averages them into an unbiased estimate of the prediction's mean squared
// error on respondents the model never trained on.
//
// Why this and not the gradients: a training report is one component of
// 2 r x~ (r = b . x~ - y~), clipped; its mean is the gradient, which says
// which way the coefficients should move, never how far the predictions are
// (the intercept's component averages 2 r, whose square is not r^2's mean).
//
// The prediction is clamped to the target's range ([-1, 1] on the normalised
// scale), as anyone predicting the target would clamp it, so the error
// s = (clamp(b . x~) - y~)^2 lies in [0, 4] with no clipping: the report
// v = s / 2 - 1 in [-1, 1] is perturbed unbiasedly (Piecewise or Duchi at
// the model's epsilon), and 2 (mean v^ + 1) is unbiased for E[s].
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/kinds/linear_regression/model_definition.h"
#include "core/kinds/linear_regression/model_gradient.h"

namespace deniable {

inline constexpr double kScoreBound = 4.0;  // the largest squared error on the normalised scale

// (clamp(b . x~, -1, 1) - y~)^2 in [0, 4], normalised scale.
double ClampedSquaredError(const ModelDefinition& model, const ModelRecord& record, const std::vector<double>& coefficients);

// The mechanism's input for a squared error s: s / 2 - 1, in [-1, 1].
inline double ScoreToUnit(double squared_error) { return squared_error / (kScoreBound / 2.0) - 1.0; }

// The mean squared error from the scoring reports' count, sum and sum of
// squares (reported values, on [-1, 1]'s output range): 2 (mean + 1), its
// standard error from the reports' own spread (they are independent and
// identically distributed given the final coefficients, so this counts the
// sampling and the randomisation), and a 95% interval (Student's t, m - 1
// degrees of freedom). Empty below 2 reports.
struct ScoreEstimate {
  std::int64_t reports = 0;
  double mse = 0.0, standard_error = 0.0, low = 0.0, high = 0.0;
};
std::optional<ScoreEstimate> EstimateScore(std::int64_t reports, double sum, double squares);

}  // namespace deniable
