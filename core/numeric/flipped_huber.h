// The flipped-Huber noise mechanism: the RVNS paper's "Flipped Huber" baseline
// (its ref. [37], Muthukrishnan and Kalyani, "Grafting Laplace and Gaussian
// distributions: a new noise mechanism for differential privacy", IEEE TIFS
// 2023). y = x + e with e drawn from
//   f(e) = exp(-g(e)) / Z,  g(e) = |e|/s for |e| <= alpha,  (e^2 + alpha^2)/(2 alpha s) beyond,
// Laplace in the centre, Gaussian (variance alpha s) in the tails, g convex and
// C^1 at |e| = alpha. This form is the digest's reconstruction (§8.3), not
// transcribed from [37]; neither is the calibration below.
//
// GUARANTEE: (epsilon, delta)-DP, NOT pure epsilon-LDP, so epsilon() returns
// nullopt: g grows quadratically, so the privacy loss is unbounded in the tails.
// Calibration: s = D/epsilon with D = b - a (in the centre the loss is at most
// D/s = epsilon, as for Laplace), and alpha the smallest value (bisection over
// alpha/s in [2^-60, 700]) whose exact hockey-stick divergence at the worst
// pair is at most the requested delta. Exactness: f is log-concave, so
// L(y) = g(y - D) - g(y) = ln(f(y)/f(y - D)) is nonincreasing in y and the
// divergence for inputs 0 and D is
//   delta(epsilon) = integral of max(0, f(y) - e^epsilon f(y - D)) = F(y*) - e^epsilon F(y* - D)
// with y* where L crosses epsilon (bisection); F is the noise CDF in closed
// form (Laplace pieces and Phi). Log-concavity also makes the divergence grow
// with |x - x'|, so |x - x'| = D is the worst pair, and the mechanism is
// symmetric, so both directions give the same delta. achieved_delta() is that
// value (<= delta()). As alpha -> infinity it becomes the Laplace mechanism.
//
// Outputs are unbounded and NOT clamped: output_range() = [a - t, b + t] with
// the smallest t (bisection) with 2 P(e > t) <= 1e-9, end cells reaching to
// infinity in OutputProbability, as for Laplace. Each report is an unbiased
// estimate of x (symmetric noise) with the closed-form variance below.
//
// Sampling (all UniformUnit, PortableExp/Expm1/Log, sqrt and IEEE arithmetic,
// so bit-identical natively and in WebAssembly): centre or tail by their mass,
// a sign, then the magnitude: centre by the inverse CDF of the truncated
// exponential, tail by Marsaglia's normal-tail method beyond c = sqrt(alpha/s)
// (c >= 1) or by polar normals rejected below c (c < 1). Hard bound:
// |e| <= sqrt(alpha s) max(12.01, sqrt(c^2 + 75)).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

inline constexpr double kFlippedHuberTailMass = 1e-9;

// The noise law for given s and alpha (exposed for calibration and tests).
class FlippedHuberNoise {
 public:
  FlippedHuberNoise(double scale, double alpha);
  double scale() const { return scale_; }
  double alpha() const { return alpha_; }
  // g(e) = -ln f(e) - ln Z.
  double Loss(double e) const;
  // P(e > t); 1 - Survival(-t) for t < 0. Portable (PortableNormalCdf,
  // PortableExp): used for the calibration, which shapes every report.
  double Survival(double t) const;
  // The same from std::erfc and std::exp (fast, last bits platform-dependent):
  // for server-side probabilities only.
  double FastSurvival(double t) const;
  // P(e in [z0, z1]) from FastSurvival; infinite ends allowed.
  double Mass(double z0, double z1) const;
  double Variance() const;
  // The hockey-stick divergence sup over |x - x'| = shift of P(y in S | x) - e^epsilon P(y in S | x').
  double Delta(double epsilon, double shift) const;
  // P(|e| <= alpha).
  double CentreProbability() const { return 2.0 * centre_half_ / normaliser_; }

 private:
  double scale_;
  double alpha_;
  double centre_half_;  // integral of e^{-e/s} over [0, alpha]
  double tail_factor_;  // e^{-alpha/(2s)} sqrt(2 pi alpha s)
  double tail_mass_;    // integral of f Z beyond alpha: tail_factor_ Phi(-sqrt(alpha/s))
  double normaliser_;   // Z
};

class FlippedHuberMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "flipped_huber"; }
  // nullopt: only (epsilon, delta)-DP; see dp_epsilon(), delta(), achieved_delta().
  std::optional<double> epsilon() const override { return std::nullopt; }
  nlohmann::json ParamsToJson() const override;
  NumericRange output_range() const override;
  NumericRange possible_values() const override;
  double OutputProbability(double x, double y0, double y1) const override;
  std::optional<double> UnbiasedValueVariance(double x) const override;

  double dp_epsilon() const { return epsilon_; }
  double delta() const { return delta_; }
  // The exact delta at dp_epsilon() of the calibrated noise (<= delta()).
  double achieved_delta() const { return achieved_delta_; }
  const FlippedHuberNoise& noise() const { return noise_; }

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const FlippedHuberMechanism>> CreateFlippedHuber(NumericRange range, double epsilon,
                                                                                 double delta);
  FlippedHuberMechanism(NumericRange range, double epsilon, double delta, FlippedHuberNoise noise,
                        double achieved_delta);
  double SampleTailMagnitude(RandomSource& random) const;

  double epsilon_;
  double delta_;
  FlippedHuberNoise noise_;
  double achieved_delta_;
  double margin_;
};

// Validates range, epsilon ([0.01, 30]) and delta ([1e-100, 1)), calibrates alpha, builds the mechanism.
Result<std::unique_ptr<const FlippedHuberMechanism>> CreateFlippedHuber(NumericRange range, double epsilon,
                                                                        double delta);

}  // namespace deniable
