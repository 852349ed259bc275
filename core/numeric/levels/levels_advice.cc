#include "core/numeric/levels/levels_advice.h"

#include <cmath>
#include <memory>

#include "core/common/validation.h"
#include "core/numeric/duchi.h"
#include "core/numeric/hybrid.h"
#include "core/numeric/piecewise.h"
#include "core/numeric/square_wave.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

constexpr int kAdvicePoints = 2000;
constexpr double kZ95 = 1.959963984540054;

std::unique_ptr<const LevelsMechanism> WithBudgets(const LevelsMechanism& levels, LevelsVariant variant,
                                                   std::vector<double> epsilons) {
  auto made = CreateLevels(levels.partition().range(), levels.partition().boundaries(), std::move(epsilons), variant);
  return made ? std::move(made).value() : nullptr;
}

std::vector<double> Scaled(const std::vector<double>& epsilons, double factor) {
  std::vector<double> scaled;
  for (double epsilon : epsilons) scaled.push_back(epsilon * factor);
  return scaled;
}

nlohmann::json Row(const std::string& name, const std::string& description, const NumericMechanism* mechanism,
                   std::int64_t respondents) {
  nlohmann::json row = {{"mechanism", name}, {"description", description}, {"epsilon", nullptr},
                        {"std_error", nullptr}, {"ci_half_width", nullptr}, {"respondents_for_5_percent", nullptr}};
  if (mechanism == nullptr) return row;
  row["epsilon"] = *mechanism->epsilon();
  const auto noise = UniformMeanVariance(*mechanism);
  if (!noise) return row;
  // For the population (as the results' intervals): the randomisation's
  // variance plus the answers' own, (b - a)^2 / 12 when spread evenly.
  const double width = mechanism->input_range().width();
  const double variance = *noise + width * width / 12.0;
  const double se = std::sqrt(variance / static_cast<double>(respondents));
  row["std_error"] = se;
  row["ci_half_width"] = kZ95 * se;
  // n for a 95% half-width of 5% of the range.
  const double target = 0.05 * mechanism->input_range().width() / kZ95;
  row["respondents_for_5_percent"] = std::ceil(variance / (target * target));
  return row;
}

}  // namespace

std::optional<double> UniformMeanVariance(const NumericMechanism& mechanism) {
  const NumericRange range = mechanism.input_range();
  double total = 0.0;
  for (int i = 0; i < kAdvicePoints; ++i) {
    const double x = range.low + range.width() * (i + 0.5) / kAdvicePoints;
    const auto variance = mechanism.MeanEstimateVariance(x);
    if (!variance) return std::nullopt;
    total += *variance;
  }
  return total / kAdvicePoints;
}

std::optional<std::vector<double>> BudgetsForExactEpsilon(const LevelsMechanism& levels, LevelsVariant variant,
                                                          double target) {
  const std::vector<double>& epsilons = levels.partition().interval_epsilons();
  auto exact = [&](double factor) -> std::optional<double> {
    const auto made = WithBudgets(levels, variant, Scaled(epsilons, factor));
    if (!made) return std::nullopt;
    return *made->epsilon();
  };
  double low = 0.0, high = 1.0;
  // Grow until the exact epsilon reaches the target (or a budget leaves the accepted range).
  for (int i = 0; i < 60; ++i) {
    const auto at = exact(high);
    if (!at) return std::nullopt;
    if (*at >= target) break;
    low = high;
    high *= 2.0;
  }
  for (int i = 0; i < 60; ++i) {
    const double middle = (low + high) / 2.0;
    const auto at = exact(middle);
    if (!at || *at > target) {
      high = middle;
    } else {
      low = middle;
    }
  }
  const auto at = exact(low);
  if (!at || std::fabs(*at - target) > 1e-6 * target) return std::nullopt;
  return Scaled(epsilons, low);
}

nlohmann::json LevelsAdvice(const LevelsMechanism& levels, std::int64_t respondents) {
  const double epsilon = *levels.epsilon();
  const NumericRange range = levels.input_range();
  nlohmann::json rows = nlohmann::json::array();
  rows.push_back(Row("levels", "this question: levels (" + LevelsVariantName(levels.variant()) +
                                   " variant) at its budgets; exact epsilon " + FormatNumber(std::round(epsilon * 1000) / 1000),
                     &levels, respondents));
  const LevelsVariant other =
      levels.variant() == LevelsVariant::kPaper ? LevelsVariant::kBounded : LevelsVariant::kPaper;
  const auto budgets = BudgetsForExactEpsilon(levels, other, epsilon);
  const auto rescaled = budgets ? WithBudgets(levels, other, *budgets) : nullptr;
  rows.push_back(Row("levels_" + LevelsVariantName(other),
                     "levels, " + LevelsVariantName(other) + " variant, budgets rescaled to the same exact epsilon",
                     rescaled.get(), respondents));
  const auto piecewise = CreatePiecewise(range, epsilon);
  const auto duchi = CreateDuchi(range, epsilon);
  const auto hybrid = CreateHybrid(range, epsilon);
  const auto square_wave = CreateSquareWave(range, epsilon);
  rows.push_back(Row("piecewise", "Piecewise at the same epsilon", piecewise ? piecewise->get() : nullptr, respondents));
  rows.push_back(Row("duchi", "Duchi at the same epsilon", duchi ? duchi->get() : nullptr, respondents));
  rows.push_back(Row("hybrid", "Hybrid at the same epsilon", hybrid ? hybrid->get() : nullptr, respondents));
  rows.push_back(Row("square_wave", "Square Wave at the same epsilon (its linear mean estimate)",
                     square_wave ? square_wave->get() : nullptr, respondents));
  std::string best;
  double best_se = INFINITY;
  for (const auto& row : rows) {
    if (row["std_error"].is_number() && row["std_error"].get<double>() < best_se) {
      best_se = row["std_error"].get<double>();
      best = row["mechanism"].get<std::string>();
    }
  }
  return {{"kind", "numeric_mean"},
          {"respondents", respondents},
          {"epsilon", epsilon},
          {"assumption", "answers spread evenly over the range; the levels mechanisms' error depends on how answers "
                         "fall into the levels"},
          {"interval_for", IntervalForJson(IntervalTarget::kPopulation)},
          {"rows", rows},
          {"best", best}};
}

}  // namespace deniable
