// Duchi et al.'s mechanism for one bounded value, as stated by Wang et al.,
// "Collecting and Analyzing Multidimensional Data with Local Differential
// Privacy", ICDE 2019, §III.A (Algorithm 1 for one dimension).
//
// The answer is mapped to t = (2x - a - b)/(b - a) in [-1, 1]. With
// C = (e^eps + 1)/(e^eps - 1) the mechanism reports t* = +C with probability
//   P(+C | t) = 1/2 + t (e^eps - 1)/(2 e^eps + 2)
//             = ((1 + t) e^eps + (1 - t)) / (2 (e^eps + 1))   (the form used: no cancellation),
// and t* = -C otherwise. Then E[t*] = t, Var[t*] = C^2 - t^2, and
// P(+C | t = 1)/P(+C | t = -1) = e^eps: epsilon-LDP.
//
// Reports are in data units, y = (a + b)/2 + t* (b - a)/2: one of the two ends
// of output_range(), unbiased for x with variance ((b - a)/2)^2 (C^2 - t^2).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

class DuchiMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "duchi"; }
  std::optional<double> epsilon() const override { return epsilon_; }
  nlohmann::json ParamsToJson() const override;
  // [(a+b)/2 - C(b-a)/2, (a+b)/2 + C(b-a)/2]: every report is one of its ends.
  NumericRange output_range() const override;
  // P(y in [y0, y1) | x), where y1 >= output_range().high also counts the high
  // report (the last cell of a histogram is closed).
  double OutputProbability(double x, double y0, double y1) const override;
  std::optional<double> UnbiasedValueVariance(double x) const override;

  // P(report = output_range().high | x).
  double HighReportProbability(double x) const;
  // OutputProbability with the end convention of a wider range `ends` (the
  // Hybrid mechanism's): y0 <= ends.low counts as -infinity, y1 >= ends.high as +infinity.
  double CellProbability(double x, double y0, double y1, NumericRange ends) const;

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const DuchiMechanism>> CreateDuchi(NumericRange range, double epsilon);
  DuchiMechanism(NumericRange range, double epsilon);

  // t in [-1, 1] (clamped: the mapping's rounding must not push a valid answer out).
  double Normalised(double x) const;

  double epsilon_;
  double bound_;  // C = (e^eps + 1)/(e^eps - 1)
};

// Validates the range and epsilon, then builds the mechanism.
Result<std::unique_ptr<const DuchiMechanism>> CreateDuchi(NumericRange range, double epsilon);

// Reads {"name":"duchi","epsilon":e} strictly (unknown fields rejected); errors start with `where`.
Result<std::unique_ptr<const DuchiMechanism>> ParseDuchiParams(const nlohmann::json& mechanism_object,
                                                              NumericRange range, const std::string& where);

}  // namespace deniable
