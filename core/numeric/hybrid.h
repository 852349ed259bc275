// The Hybrid Mechanism (HM) for one bounded value: Wang et al., "Collecting
// and Analyzing Multidimensional Data with Local Differential Privacy",
// ICDE 2019, §III.C. With probability alpha it runs the Piecewise Mechanism
// (piecewise.h), otherwise Duchi et al.'s (duchi.h), both at the full epsilon:
//   alpha = 1 - e^(-eps/2)  if eps > 0.61,   alpha = 0 otherwise.
// A mixture of two epsilon-LDP mechanisms is epsilon-LDP. Both parts are
// unbiased, so the report is unbiased for x with variance
//   alpha Var_PM(x) + (1 - alpha) Var_Duchi(x);
// this alpha makes that variance the same for every x, and 0.61 is the paper's
// rounding of the epsilon (0.6094) below which pure Duchi has the smaller
// worst-case variance (checked in the tests). We use the paper's 0.61.
//
// Reports are in data units. output_range() is PM's (the wider) when alpha > 0,
// else Duchi's. Duchi's two reports then lie INSIDE the range (atoms of the
// output distribution at interior points); OutputProbability counts them with
// half-open cells [y0, y1).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/duchi.h"
#include "core/numeric/numeric_mechanism.h"
#include "core/numeric/piecewise.h"

namespace deniable {

// The paper's epsilon* (§III.C): at or below it the Hybrid Mechanism is Duchi's.
inline constexpr double kHybridThresholdEpsilon = 0.61;

class HybridMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "hybrid"; }
  std::optional<double> epsilon() const override { return epsilon_; }
  nlohmann::json ParamsToJson() const override;
  NumericRange output_range() const override;
  // alpha P_PM(y in [y0, y1) | x) + (1 - alpha) P_Duchi(y in [y0, y1) | x),
  // with the last cell (y1 >= output_range().high) closed.
  double OutputProbability(double x, double y0, double y1) const override;
  std::optional<double> UnbiasedValueVariance(double x) const override;

  // alpha: the probability of using the Piecewise Mechanism.
  double piecewise_probability() const { return piecewise_probability_; }

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const HybridMechanism>> CreateHybrid(NumericRange range, double epsilon);
  HybridMechanism(NumericRange range, double epsilon, std::unique_ptr<const PiecewiseMechanism> piecewise,
                  std::unique_ptr<const DuchiMechanism> duchi);

  double epsilon_;
  double piecewise_probability_;
  std::unique_ptr<const PiecewiseMechanism> piecewise_;
  std::unique_ptr<const DuchiMechanism> duchi_;
};

// Validates the range and epsilon, then builds the mechanism.
Result<std::unique_ptr<const HybridMechanism>> CreateHybrid(NumericRange range, double epsilon);

// Reads {"name":"hybrid","epsilon":e} strictly (unknown fields rejected); errors start with `where`.
Result<std::unique_ptr<const HybridMechanism>> ParseHybridParams(const nlohmann::json& mechanism_object,
                                                                NumericRange range, const std::string& where);

}  // namespace deniable
