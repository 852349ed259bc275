#include "core/numeric/hybrid.h"

#include <cmath>

#include "core/numeric/epsilon_mechanism.h"
#include "core/common/json_fields.h"
#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {

HybridMechanism::HybridMechanism(NumericRange range, double epsilon,
                                 std::unique_ptr<const PiecewiseMechanism> piecewise,
                                 std::unique_ptr<const DuchiMechanism> duchi)
    : NumericMechanism(range),
      epsilon_(epsilon),
      piecewise_probability_(epsilon > kHybridThresholdEpsilon ? -PortableExpm1(-epsilon / 2.0) : 0.0),
      piecewise_(std::move(piecewise)),
      duchi_(std::move(duchi)) {}

nlohmann::json HybridMechanism::ParamsToJson() const { return {{"name", name()}, {"epsilon", epsilon_}}; }

NumericRange HybridMechanism::output_range() const {
  // PM's bound coth(eps/4) always exceeds Duchi's coth(eps/2).
  return piecewise_probability_ > 0.0 ? piecewise_->output_range() : duchi_->output_range();
}

double HybridMechanism::OutputProbability(double x, double y0, double y1) const {
  const double alpha = piecewise_probability_;
  const double piecewise = alpha > 0.0 ? piecewise_->OutputProbability(x, y0, y1) : 0.0;
  return alpha * piecewise + (1.0 - alpha) * duchi_->CellProbability(x, y0, y1, output_range());
}

std::optional<double> HybridMechanism::UnbiasedValueVariance(double x) const {
  const double alpha = piecewise_probability_;
  return alpha * *piecewise_->UnbiasedValueVariance(x) + (1.0 - alpha) * *duchi_->UnbiasedValueVariance(x);
}

std::vector<double> HybridMechanism::PerturbValid(double answer, RandomSource& random) const {
  // The answer is already valid for both parts (same range), so neither Perturb can fail.
  // Bernoulli(0) draws nothing: below the threshold the report is exactly Duchi's.
  if (Bernoulli(random, piecewise_probability_)) return piecewise_->Perturb(answer, random).value();
  return duchi_->Perturb(answer, random).value();
}

Result<std::unique_ptr<const HybridMechanism>> CreateHybrid(NumericRange range, double epsilon) {
  // Hybrid is built from its two parts, which validate range and epsilon themselves.
  DENIABLE_ASSIGN_OR_RETURN(auto piecewise, CreatePiecewise(range, epsilon));
  DENIABLE_ASSIGN_OR_RETURN(auto duchi, CreateDuchi(range, epsilon));
  return std::unique_ptr<const HybridMechanism>(
      new HybridMechanism(range, epsilon, std::move(piecewise), std::move(duchi)));
}

Result<std::unique_ptr<const HybridMechanism>> ParseHybridParams(const nlohmann::json& mechanism_object,
                                                                 NumericRange range, const std::string& where) {
  return ParseEpsilonMechanism<HybridMechanism>(mechanism_object, range, where, "hybrid", CreateHybrid);
}

}  // namespace deniable
