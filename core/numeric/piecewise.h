// The Piecewise Mechanism (PM) for one bounded value: Wang et al., "Collecting
// and Analyzing Multidimensional Data with Local Differential Privacy",
// ICDE 2019, §III.B (Algorithm 2).
//
// The answer is mapped to t = (2x - a - b)/(b - a) in [-1, 1]. With s = e^(eps/2):
//   C = (s + 1)/(s - 1),
//   l(t) = (C + 1)/2 t - (C - 1)/2 = (s t - 1)/(s - 1),   r(t) = l(t) + C - 1 = (s t + 1)/(s - 1),
// the report t* in [-C, C] has density
//   p = (e^eps - s)/(2 s + 2)   on [l(t), r(t)]   (probability p (C - 1) = s/(s + 1)),
//   p / e^eps                    elsewhere on [-C, C].
// The ratio of densities is at most e^eps: epsilon-LDP. E[t*] = t and
// Var[t*] = t^2/(s - 1) + (s + 3)/(3 (s - 1)^2) (the paper's Lemma; checked
// against the exact moments of the density in the tests).
//
// Reports are in data units, y = (a + b)/2 + t* (b - a)/2, unbiased for x with
// variance ((b - a)/2)^2 Var[t*].
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

class PiecewiseMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "piecewise"; }
  std::optional<double> epsilon() const override { return epsilon_; }
  nlohmann::json ParamsToJson() const override;
  // [(a+b)/2 - C(b-a)/2, (a+b)/2 + C(b-a)/2]; reports never leave it.
  NumericRange output_range() const override;
  // P(y in [y0, y1) | x): the exact integral of the piecewise-constant density.
  double OutputProbability(double x, double y0, double y1) const override;
  std::optional<double> UnbiasedValueVariance(double x) const override;

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const PiecewiseMechanism>> CreatePiecewise(NumericRange range, double epsilon);
  PiecewiseMechanism(NumericRange range, double epsilon);

  struct Window {
    double low;   // l(t)
    double high;  // r(t)
  };
  double HalfWidth() const { return input_range().width() / 2.0; }
  double Centre() const { return input_range().low + HalfWidth(); }
  // t in [-1, 1] (clamped: the mapping's rounding must not push a valid answer out).
  double Normalised(double x) const;
  Window WindowOf(double t) const;

  double epsilon_;
  double root_;           // s - 1 = e^(eps/2) - 1 (PortableExpm1: accurate for small eps, bit-identical in wasm)
  double bound_;          // C
  double inner_density_;  // p
  double outer_density_;  // p / e^eps
};

// Validates the range and epsilon, then builds the mechanism.
Result<std::unique_ptr<const PiecewiseMechanism>> CreatePiecewise(NumericRange range, double epsilon);

// Reads {"name":"piecewise","epsilon":e} strictly (unknown fields rejected); errors start with `where`.
Result<std::unique_ptr<const PiecewiseMechanism>> ParsePiecewiseParams(const nlohmann::json& mechanism_object,
                                                                      NumericRange range, const std::string& where);

}  // namespace deniable
