#include "core/kinds/grid/grid_advice.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/validation.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/grid/grid_estimator.h"

namespace deniable {
namespace {

std::vector<double> Uniform(int levels) { return std::vector<double>(static_cast<std::size_t>(levels), 1.0 / levels); }

std::string Quoted(GridMechanismKind kind) { return "\"" + GridMechanismName(kind) + "\""; }

std::string HalfWidth(double std_error) { return "±" + FormatSignificant(kZ95 * std_error, 2); }

struct Precision {
  double mean = NAN;
  double share = NAN;
};

Precision PrecisionOf(GridMechanismKind kind, int levels, double row_epsilon, double n) {
  return {PlanningMeanStdError(kind, levels, row_epsilon, n), PlanningShareStdError(kind, levels, row_epsilon, n)};
}

// The sentence comparing ordinal and grr for the mean and for the shares.
std::string Comparison(GridMechanismKind for_mean, GridMechanismKind for_distribution, const Precision& ordinal,
                       const Precision& grr) {
  const auto other = [](GridMechanismKind kind) {
    return kind == GridMechanismKind::kOrdinal ? GridMechanismKind::kGrr : GridMechanismKind::kOrdinal;
  };
  const auto of = [&](GridMechanismKind kind) { return kind == GridMechanismKind::kOrdinal ? ordinal : grr; };
  const Precision best = of(for_mean), rival = of(other(for_mean));
  const std::string mean = "(" + HalfWidth(best.mean) + " vs " + HalfWidth(rival.mean) + " positions)";
  if (for_mean == for_distribution) {
    return Quoted(for_mean) + " gives both the more precise mean " + mean +
           " and the more precise distribution over the levels (each level's share within " + HalfWidth(best.share) +
           " vs " + HalfWidth(rival.share) + ")";
  }
  return Quoted(for_mean) + " gives the more precise mean " + mean + " but each level's share is " +
         FormatSignificant(best.share / rival.share, 2) + " times less precise (" + HalfWidth(best.share) + " vs " +
         HalfWidth(rival.share) + "); choose " + Quoted(for_distribution) + " if the spread over the scale matters";
}

}  // namespace

double PlanningMeanStdError(GridMechanismKind kind, int levels, double row_epsilon, double n) {
  const auto row = GridRowMechanism::Create(kind, levels, row_epsilon);
  if (!row) return NAN;
  return std::sqrt(MeanPositionVariance((*row)->channel(), Uniform(levels), n));
}

double PlanningShareStdError(GridMechanismKind kind, int levels, double row_epsilon, double n) {
  const auto row = GridRowMechanism::Create(kind, levels, row_epsilon);
  if (!row || !(*row)->estimates_distribution()) return NAN;
  double worst = 0.0;
  for (int level = 0; level < levels; ++level) {
    worst = std::max(worst, LevelShareVariance((*row)->channel(), Uniform(levels), level, n));
  }
  return std::sqrt(worst);
}

nlohmann::json GridAdviceToJson(int items, int levels, double epsilon, std::int64_t respondents,
                                GridMechanismKind chosen) {
  const double row_epsilon = epsilon / items;
  const double n = static_cast<double>(respondents > 0 ? respondents : 1);
  const Precision ordinal = PrecisionOf(GridMechanismKind::kOrdinal, levels, row_epsilon, n);
  const Precision grr = PrecisionOf(GridMechanismKind::kGrr, levels, row_epsilon, n);
  const Precision duchi = PrecisionOf(GridMechanismKind::kDuchi, levels, row_epsilon, n);
  // Recommended: the better of the two that also give the distribution, once for the mean and once for the shares.
  const GridMechanismKind for_mean = grr.mean < ordinal.mean ? GridMechanismKind::kGrr : GridMechanismKind::kOrdinal;
  const GridMechanismKind for_distribution =
      grr.share < ordinal.share ? GridMechanismKind::kGrr : GridMechanismKind::kOrdinal;
  auto mechanisms = nlohmann::json::array();
  for (const auto& [kind, precision] : {std::pair{GridMechanismKind::kOrdinal, ordinal},
                                        std::pair{GridMechanismKind::kGrr, grr},
                                        std::pair{GridMechanismKind::kDuchi, duchi}}) {
    const bool distribution = kind != GridMechanismKind::kDuchi;
    mechanisms.push_back({{"name", GridMechanismName(kind)},
                          {"epsilon_per_item", row_epsilon},
                          {"mean_std_error", precision.mean},
                          {"distribution", distribution},
                          {"mean_ci_half_width", kZ95 * precision.mean},
                          {"share_std_error", distribution ? nlohmann::json(precision.share) : nlohmann::json()},
                          {"share_ci_half_width", distribution ? nlohmann::json(kZ95 * precision.share) : nlohmann::json()}});
  }
  std::string note = "for " + std::to_string(respondents) + " respondents, each item at epsilon " +
                     FormatNumber(row_epsilon) + " (" + FormatNumber(epsilon) + " over " + std::to_string(items) +
                     (items == 1 ? " item" : " items") + ", 95% half-widths): " + Comparison(for_mean, for_distribution, ordinal, grr) +
                     "; \"duchi\" gives the mean alone, within " + HalfWidth(duchi.mean);
  if (for_mean != chosen) note += "; the question uses " + Quoted(chosen);
  return {{"planning", "answers spread evenly over the " + std::to_string(levels) +
                           " levels; intervals for the population"},
          {"respondents", respondents},
          {"mechanisms", mechanisms},
          {"recommended", GridMechanismName(for_mean)},
          {"recommended_for_distribution", GridMechanismName(for_distribution)},
          {"chosen", GridMechanismName(chosen)},
          {"note", note}};
}

}  // namespace deniable
