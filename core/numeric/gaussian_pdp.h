// The Gaussian mechanism calibrated for probabilistic DP: the RVNS paper's
// "Gaussian-pDP" baseline (its ref. [36], F. Liu, "Generalized Gaussian
// mechanism for differential privacy", IEEE TKDE 2018; the Gaussian member
// p = 2 of the generalized-Gaussian family). y = x + N(0, sigma^2).
//
// GUARANTEE: (epsilon, delta)-probabilistic DP, NOT pure epsilon-LDP, so
// epsilon() returns nullopt. For answers x, x' in [a, b] (|x - x'| <= D = b - a)
// the privacy loss L = ln(f(y | x) / f(y | x')) with y ~ f(. | x) is normal,
// N(r^2/2, r^2) with r = |x - x'| / sigma, and
//   P(|L| > epsilon) <= delta.
// Gaussian noise has no finite pure epsilon: L is unbounded. pDP implies
// (epsilon, delta)-DP (the converse does not hold).
//
// Calibration (digest §8.2, derived here): with z = Phi^{-1}(delta/2) < 0,
//   sigma = D (sqrt(z^2 + 2 epsilon) - z) / (2 epsilon),
// the smallest sigma with P(L > epsilon) <= delta/2 at r = D / sigma, which is
// the root of r^2/2 - z r - epsilon = 0: then
//   P(L > epsilon) = Phi((r^2/2 - epsilon)/r) = Phi(z) = delta/2, and
//   P(L < -epsilon) = Phi((-epsilon - r^2/2)/r) < P(L > epsilon),
// so P(|L| > epsilon) < delta. Both tails shrink as r falls, so the worst pair
// is |x - x'| = D. I believe this is Liu's bound; the paper gives no epsilon
// or delta, so this is our reading, not a transcription.
//
// Outputs are unbounded and NOT clamped. output_range() = [a - t, b + t] with
// t the smallest multiple of sigma (found by bisection) leaving mass at most
// 1e-9 outside for every x in [a, b]; OutputProbability counts everything
// beyond it in the end cells, as for Laplace. Each report is an unbiased
// estimate of x with variance sigma^2.
//
// Sampling: Marsaglia's polar method from two UniformUnit draws per attempt
// (rejection of the points outside the unit disc and of the origin), using
// only PortableLog, sqrt and IEEE arithmetic, so one seed gives bit-identical
// reports natively and in WebAssembly. sigma itself is computed with
// PortableNormalCdf (below), also bit-identical. Bound: the smallest nonzero
// s = u^2 + v^2 is 2^-104, so |noise| <= sigma sqrt(2 * 104 ln 2) < 12.01 sigma.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// Output mass allowed beyond output_range(), for any answer.
inline constexpr double kGaussianTailMass = 1e-9;
// The sampler's hard bound on |noise| / sigma (see above).
inline constexpr double kGaussianSamplerBound = 12.01;

// Phi(z), the standard normal CDF, from IEEE arithmetic and PortableExp only
// (bit-identical natively and in WebAssembly). Relative error below 1e-12
// for every z: a positive-term series for |z| <= 3 and the Laplace continued
// fraction of the Mills ratio beyond, always evaluating the smaller tail
// directly (no cancellation).
double PortableNormalCdf(double z);
// Phi^{-1}(p) for p in (0, 1) by bisection of PortableNormalCdf (to the last bit).
double PortableNormalQuantile(double p);
// Phi(z) from std::erfc: about 100 times faster than PortableNormalCdf but
// may differ in the last bits between libms. Only for server-side
// probabilities (OutputProbability, transition matrices), never for a value
// that shapes a report.
double FastNormalCdf(double z);
// One standard normal draw by Marsaglia's polar method (see above); |value| < 12.01.
double SampleStandardNormal(RandomSource& random);

class GaussianPdpMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "gaussian_pdp"; }
  // nullopt: no finite pure epsilon; see delta() and pdp_epsilon().
  std::optional<double> epsilon() const override { return std::nullopt; }
  nlohmann::json ParamsToJson() const override;
  NumericRange output_range() const override;
  // The sampler's hard bound: |y - x| <= 12.01 sigma.
  NumericRange possible_values() const override;
  // P(y in [y0, y1) | x) from Phi (FastNormalCdf); the ends of output_range() count as -/+ infinity.
  double OutputProbability(double x, double y0, double y1) const override;
  std::optional<double> UnbiasedValueVariance(double x) const override;

  // The pDP parameters: P(|privacy loss| > pdp_epsilon()) <= delta().
  double pdp_epsilon() const { return epsilon_; }
  double delta() const { return delta_; }
  double sigma() const { return sigma_; }

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const GaussianPdpMechanism>> CreateGaussianPdp(NumericRange range, double epsilon,
                                                                               double delta);
  GaussianPdpMechanism(NumericRange range, double epsilon, double delta);

  double epsilon_;
  double delta_;
  double sigma_;
  double margin_;  // t: output_range() = [a - t, b + t]
};

// Validates range, epsilon ([0.01, 30]) and delta ((0, 1)), then builds the mechanism.
Result<std::unique_ptr<const GaussianPdpMechanism>> CreateGaussianPdp(NumericRange range, double epsilon,
                                                                      double delta);

}  // namespace deniable
