// The Laplace mechanism for one bounded answer (the RVNS paper's "Laplace-DP"
// baseline, its ref. [35]; Dwork et al. 2006): y = x + Lap(s), s = (b - a)/epsilon.
// The sensitivity of one answer in [a, b] is b - a, so for any two answers the
// densities of y differ by at most a factor e^{|x - x'|/s} <= e^epsilon.
// Each report is an unbiased estimate of x with variance 2 s^2.
//
// Outputs are unbounded and NOT clamped. output_range() = [a - t, b + t] with
// t = s ln(1e9): for any x in [a, b] the mass outside it is
//   0.5 e^{-t/s} (e^{-(x-a)/s} + e^{-(b-x)/s}) <= 0.5e-9 (1 + e^{-epsilon}) < 1e-9.
// That mass is not lost: OutputProbability puts everything below a - t into a
// cell starting at or below a - t, and everything above b + t into a cell
// ending at or above b + t (an aggregate clamps outlying reports into its end
// cells). The sampler is bounded: |y - x| <= 53 ln(2) s ~ 36.74 s.
//
// Sampling: inverse CDF at the midpoint of one UniformUnit's 2^-53 grid cell,
// so the tail argument is an exact double in (0, 1) and never log(0); the
// logarithm is PortableLog, so one seed gives bit-identical reports natively
// and in WebAssembly (std::log differs between their libms in the last bit).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// Output mass allowed beyond output_range(), for any answer.
inline constexpr double kLaplaceTailMass = 1e-9;

class LaplaceMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "laplace"; }
  std::optional<double> epsilon() const override { return epsilon_; }
  nlohmann::json ParamsToJson() const override;
  NumericRange output_range() const override;
  // The sampler's hard bound: |y - x| <= 53 ln(2) s.
  NumericRange possible_values() const override;
  // P(y in [y0, y1) | x) from the Laplace CDF; y0 <= output_range().low counts
  // as -infinity and y1 >= output_range().high as +infinity (see above).
  double OutputProbability(double x, double y0, double y1) const override;
  std::optional<double> UnbiasedValueVariance(double x) const override;

  // s = (b - a)/epsilon.
  double scale() const { return scale_; }

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const LaplaceMechanism>> CreateLaplace(NumericRange range, double epsilon);
  LaplaceMechanism(NumericRange range, double epsilon);

  double epsilon_;
  double scale_;
};

// Validates the range and epsilon, then builds the mechanism.
Result<std::unique_ptr<const LaplaceMechanism>> CreateLaplace(NumericRange range, double epsilon);

// Reads {"name":"laplace","epsilon":e} strictly (unknown fields rejected); errors start with `where`.
Result<std::unique_ptr<const LaplaceMechanism>> ParseLaplaceParams(const nlohmann::json& mechanism_object,
                                                                  NumericRange range, const std::string& where);

}  // namespace deniable
