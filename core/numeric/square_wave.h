// The Square Wave mechanism (SW): Li, Wang, Lopuhaä-Zwakenberg, Li and Škorić,
// "Estimating Numerical Distributions under Local Differential Privacy",
// SIGMOD 2020, §4 (the RVNS paper's "EMS" competitor; digest §8.4).
//
// An answer x in the question's range [low, high] is mapped to
// v = (x - low)/(high - low) in [0, 1]. With the wave's half-width b (the
// paper's b, a fraction of the range width), the report
// v~ in [-b, 1 + b] has density
//   p = e^eps / (2 b e^eps + 1)   where |v~ - v| <= b,
//   q = 1 / (2 b e^eps + 1)       elsewhere,
// so 2bp + q = 1 and p/q = e^eps: epsilon-LDP for every b > 0.
//
// Default b (the paper's choice):
//   b = (eps e^eps - e^eps + 1) / (2 e^eps (e^eps - 1 - eps)),
// the maximiser of the paper's upper bound on the mutual information between
// v and v~,  ln(1 + 2b) + 2b p ln p + q ln q  (entropy of a uniform output
// minus h(v~ | v)); the tests maximise that bound numerically and find this b.
// It decreases from 1/2 (eps -> 0) to ~1.4e-12 (eps = 30); b = 0.2561 at eps = 1.
// Computed from the series  eps e^eps - e^eps + 1 = sum_{n>=2} (n-1) eps^n/n!,
// e^eps - 1 - eps = sum_{n>=2} eps^n/n!:  all terms positive, so small eps loses
// nothing; with PortableExp, b (which every report depends on) is bit-identical in wasm.
//
// Reports are in data units, y = low + v~ (high - low) in output_range(). They
// are not unbiased for x: SW is for distribution estimation (EMS).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// The largest half-width accepted: beyond the whole range the wave only adds noise.
inline constexpr double kMaxSquareWaveHalfWidth = 1.0;

// The paper's b for this epsilon (> 0).
double SquareWaveOptimalHalfWidth(double epsilon);

class SquareWaveMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "square_wave"; }
  std::optional<double> epsilon() const override { return epsilon_; }
  // {"name","epsilon"} plus "b" only when it was given explicitly.
  nlohmann::json ParamsToJson() const override;
  // [low - b (high - low), low + (1 + b)(high - low)]; reports never leave it.
  NumericRange output_range() const override;
  // P(y in [y0, y1) | x): the exact integral of the two-level density.
  double OutputProbability(double x, double y0, double y1) const override;
  // On the [0, 1] scale, with the two levels p (|t - v| <= b) and q:
  //   E[v~ | v]   = q (1 + 2b)/2 + 2b (p - q) v,
  //   E[v~^2 | v] = q ((1 + b)^3 + b^3)/3 + (p - q)(2b v^2 + 2b^3/3),
  // then in data units (y = low + W v~).
  std::optional<ReportMoments> report_moments() const override;

  // The half-width b in use, as a fraction of the range width.
  double half_width() const { return half_width_; }
  // The densities on the [0, 1] scale: p within the wave, q outside it.
  double inner_density() const { return inner_density_; }
  double outer_density() const { return outer_density_; }

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const SquareWaveMechanism>> CreateSquareWave(NumericRange range, double epsilon,
                                                                             std::optional<double> half_width);
  SquareWaveMechanism(NumericRange range, double epsilon, std::optional<double> requested_half_width);

  // v in [0, 1] (clamped: the mapping's rounding must not push a valid answer out).
  double Normalised(double x) const;

  double epsilon_;
  std::optional<double> requested_half_width_;  // as given; nullopt = the paper's default
  double half_width_;                           // b
  double top_;                                  // 1 + b, the upper end of v~
  double inner_density_;                        // p
  double outer_density_;                        // q
};

// Validates the range, epsilon and b (finite, in (0, 1]; default: the paper's
// optimum), then builds the mechanism.
Result<std::unique_ptr<const SquareWaveMechanism>> CreateSquareWave(NumericRange range, double epsilon,
                                                                    std::optional<double> half_width = std::nullopt);

// Reads {"name":"square_wave","epsilon":e} or {..., "b": half_width} strictly
// (unknown fields rejected); errors start with `where`.
Result<std::unique_ptr<const SquareWaveMechanism>> ParseSquareWaveParams(const nlohmann::json& mechanism_object,
                                                                        NumericRange range, const std::string& where);

}  // namespace deniable
