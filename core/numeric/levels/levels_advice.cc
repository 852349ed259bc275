#include "core/numeric/levels/levels_advice.h"

#include <cmath>
#include <memory>

#include "core/common/validation.h"
#include "core/numeric/duchi.h"
#include "core/numeric/hybrid.h"
#include "core/numeric/mean_advice.h"
#include "core/numeric/piecewise.h"
#include "core/numeric/square_wave.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

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

}  // namespace

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
  rows.push_back(MeanAdviceRow("levels", "this question: levels (" + LevelsVariantName(levels.variant()) +
                                   " variant) at its budgets; exact epsilon " + FormatNumber(std::round(epsilon * 1000) / 1000),
                     &levels, respondents));
  const LevelsVariant other =
      levels.variant() == LevelsVariant::kPaper ? LevelsVariant::kBounded : LevelsVariant::kPaper;
  const auto budgets = BudgetsForExactEpsilon(levels, other, epsilon);
  const auto rescaled = budgets ? WithBudgets(levels, other, *budgets) : nullptr;
  rows.push_back(MeanAdviceRow("levels_" + LevelsVariantName(other),
                     "levels, " + LevelsVariantName(other) + " variant, budgets rescaled to the same exact epsilon",
                     rescaled.get(), respondents));
  const auto piecewise = CreatePiecewise(range, epsilon);
  const auto duchi = CreateDuchi(range, epsilon);
  const auto hybrid = CreateHybrid(range, epsilon);
  const auto square_wave = CreateSquareWave(range, epsilon);
  rows.push_back(MeanAdviceRow("piecewise", "Piecewise at the same epsilon", piecewise ? piecewise->get() : nullptr, respondents));
  rows.push_back(MeanAdviceRow("duchi", "Duchi at the same epsilon", duchi ? duchi->get() : nullptr, respondents));
  rows.push_back(MeanAdviceRow("hybrid", "Hybrid at the same epsilon", hybrid ? hybrid->get() : nullptr, respondents));
  rows.push_back(MeanAdviceRow("square_wave", "Square Wave at the same epsilon (its linear mean estimate)",
                     square_wave ? square_wave->get() : nullptr, respondents));
  const std::string best = BestMeanRow(rows);
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
