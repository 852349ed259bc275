#include "core/numeric/mean_advice.h"

#include <algorithm>
#include <cmath>

#include "core/frequency/frequency_estimator.h"

namespace deniable {
namespace {

constexpr int kAdvicePoints = 2000;

// The noise's variance at kAdvicePoints evenly spaced answers (cell centres), or at the grid's ends too.
template <typename Fold>
std::optional<double> OverRange(const NumericMechanism& mechanism, bool ends, double start, Fold fold) {
  const NumericRange range = mechanism.input_range();
  double total = start;
  for (int i = 0; i <= kAdvicePoints; ++i) {
    if (i == kAdvicePoints && !ends) break;
    const double x = ends ? range.low + range.width() * i / kAdvicePoints
                          : range.low + range.width() * (i + 0.5) / kAdvicePoints;
    const auto variance = mechanism.MeanEstimateVariance(std::min(x, range.high));
    if (!variance) return std::nullopt;
    total = fold(total, *variance);
  }
  return total;
}

}  // namespace

std::optional<double> UniformMeanVariance(const NumericMechanism& mechanism) {
  const auto total = OverRange(mechanism, false, 0.0, [](double sum, double v) { return sum + v; });
  if (!total) return std::nullopt;
  return *total / kAdvicePoints;
}

std::optional<double> WorstMeanVariance(const NumericMechanism& mechanism) {
  return OverRange(mechanism, true, 0.0, [](double most, double v) { return std::max(most, v); });
}

std::optional<double> LeastMeanVariance(const NumericMechanism& mechanism) {
  return OverRange(mechanism, true, INFINITY, [](double least, double v) { return std::min(least, v); });
}

nlohmann::json MeanAdviceRow(const std::string& name, const std::string& description,
                             const NumericMechanism* mechanism, std::int64_t respondents) {
  nlohmann::json row = {{"mechanism", name},      {"description", description},
                        {"epsilon", nullptr},     {"std_error", nullptr},
                        {"ci_half_width", nullptr}, {"respondents_for_5_percent", nullptr},
                        {"ci_half_width_worst", nullptr}};
  if (mechanism == nullptr) return row;
  if (const auto epsilon = mechanism->epsilon()) row["epsilon"] = *epsilon;
  const auto noise = UniformMeanVariance(*mechanism);
  const auto worst_noise = WorstMeanVariance(*mechanism);
  if (!noise || !worst_noise) return row;
  const double width = mechanism->input_range().width();
  const double n = static_cast<double>(respondents);
  const double variance = *noise + width * width / 12.0;
  const double se = std::sqrt(variance / n);
  row["std_error"] = se;
  row["ci_half_width"] = kZ95 * se;
  const double target = 0.05 * width / kZ95;  // the standard error of a half-width of 5% of the range
  row["respondents_for_5_percent"] = std::ceil(variance / (target * target));
  row["ci_half_width_worst"] = kZ95 * std::sqrt((*worst_noise + width * width / 4.0) / n);
  return row;
}

std::string BestMeanRow(const nlohmann::json& rows) {
  std::string best;
  double best_se = INFINITY;
  for (const auto& row : rows) {
    if (row["std_error"].is_number() && row["std_error"].get<double>() < best_se) {
      best_se = row["std_error"].get<double>();
      best = row["mechanism"].get<std::string>();
    }
  }
  return best;
}

}  // namespace deniable
