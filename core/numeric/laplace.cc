#include "core/numeric/laplace.h"

#include <cmath>

#include "core/numeric/epsilon_mechanism.h"
#include "core/common/json_fields.h"
#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {

LaplaceMechanism::LaplaceMechanism(NumericRange range, double epsilon)
    : NumericMechanism(range), epsilon_(epsilon), scale_(range.width() / epsilon) {}

nlohmann::json LaplaceMechanism::ParamsToJson() const { return {{"name", name()}, {"epsilon", epsilon_}}; }

NumericRange LaplaceMechanism::output_range() const {
  const double margin = scale_ * PortableLog(1.0 / kLaplaceTailMass);
  return {input_range().low - margin, input_range().high + margin};
}

double LaplaceMechanism::OutputProbability(double x, double y0, double y1) const {
  // Interval ends in units of s relative to x; the end cells reach to infinity.
  const auto [z0, z1] = CellAsNoiseOffsets(x, y0, y1, output_range(), scale_);
  if (!(z0 < z1)) return 0.0;
  // Within one side of x the mass is a difference of exponentials; expm1 keeps
  // narrow cells far in the tails accurate instead of cancelling to 0.
  if (z0 >= 0.0) return -0.5 * std::exp(-z0) * std::expm1(z0 - z1);
  if (z1 <= 0.0) return -0.5 * std::exp(z1) * std::expm1(z0 - z1);
  return 1.0 - 0.5 * (std::exp(z0) + std::exp(-z1));
}

std::optional<double> LaplaceMechanism::UnbiasedValueVariance(double /*x*/) const {
  return 2.0 * scale_ * scale_;
}

std::vector<double> LaplaceMechanism::PerturbValid(double answer, RandomSource& random) const {
  // unit = k 2^-53. Its cell midpoint u = (k + 1/2) 2^-53 is never 0 or 1, and
  // the tail probability 2 min(u, 1 - u) is an odd multiple of 2^-53 below 1:
  // an exact double. The inverse CDF is x -/+ s ln(1 / tail); PortableLog makes
  // the report bit-identical natively and in WebAssembly.
  const double unit = UniformUnit(random);
  const bool below = unit < 0.5;
  const double tail = below ? 2.0 * unit + 0x1p-53 : 2.0 * (1.0 - unit) - 0x1p-53;
  const double distance = -scale_ * PortableLog(tail);
  return {below ? answer - distance : answer + distance};
}

Result<std::unique_ptr<const LaplaceMechanism>> CreateLaplace(NumericRange range, double epsilon) {
  return CreateEpsilonMechanism<LaplaceMechanism>(range, epsilon,
                                       [](NumericRange r, double e) { return new LaplaceMechanism(r, e); });
}

Result<std::unique_ptr<const LaplaceMechanism>> ParseLaplaceParams(const nlohmann::json& mechanism_object,
                                                                   NumericRange range, const std::string& where) {
  return ParseEpsilonMechanism<LaplaceMechanism>(mechanism_object, range, where, "laplace", CreateLaplace);
}

NumericRange LaplaceMechanism::possible_values() const {
  const double bound = 53.0 * 0.6931471805599453 * scale_;  // 53 ln 2 s: the largest |noise| the sampler draws
  return {input_range().low - bound, input_range().high + bound};
}

}  // namespace deniable
