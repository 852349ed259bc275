#include "core/kinds/linear_regression/model_score.h"

#include <algorithm>
#include <cmath>

#include "core/common/student_t.h"

namespace deniable {

double ClampedSquaredError(const ModelDefinition& model, const ModelRecord& record, const std::vector<double>& coefficients) {
  const std::vector<double> x = NormalisedFeatures(model, record);
  double prediction = 0.0;
  for (std::size_t j = 0; j < x.size(); ++j) prediction += coefficients[j] * x[j];
  const double error = std::clamp(prediction, -1.0, 1.0) - NormalisedTarget(model, record);
  return error * error;
}

std::optional<ScoreEstimate> EstimateScore(std::int64_t reports, double sum, double squares) {
  if (reports < 2) return std::nullopt;
  const double m = static_cast<double>(reports);
  const double mean = sum / m;
  const double variance = std::max(0.0, (squares - sum * mean) / (m - 1.0));
  const double half = kScoreBound / 2.0;  // s = half (v + 1)
  ScoreEstimate estimate;
  estimate.reports = reports;
  estimate.mse = half * (mean + 1.0);
  estimate.standard_error = half * std::sqrt(variance / m);
  // Beyond 1,000 degrees of freedom t is 1.962 at most (the closed form costs O(df)).
  const double t = StudentTTwoSidedQuantile(0.95, static_cast<int>(std::min<std::int64_t>(reports - 1, 1000)));
  estimate.low = estimate.mse - t * estimate.standard_error;
  estimate.high = estimate.mse + t * estimate.standard_error;
  return estimate;
}

}  // namespace deniable
