#include "core/numeric/square_wave.h"

#include <algorithm>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

// The length of [low0, high0) ∩ [low1, high1) (infinite ends allowed).
double OverlapLength(double low0, double high0, double low1, double high1) {
  return std::max(0.0, std::min(high0, high1) - std::max(low0, low1));
}

Status ValidateHalfWidth(double half_width) {
  if (!std::isfinite(half_width) || half_width <= 0.0 || half_width > kMaxSquareWaveHalfWidth) {
    return MakeError("b must be finite and in (0, " + FormatNumber(kMaxSquareWaveHalfWidth) + "], but is " +
                     FormatNumber(half_width));
  }
  return OkStatus();
}

}  // namespace

double SquareWaveOptimalHalfWidth(double epsilon) {
  // Both series divided by eps^2, so tiny epsilons cannot underflow:
  // term_n = eps^(n-2) / n!, numerator = sum (n-1) term_n, denominator = sum term_n.
  double term = 0.5;
  double numerator = 0.0;
  double denominator = 0.0;
  for (int n = 2; n < 1000; ++n) {
    numerator += (n - 1) * term;
    denominator += term;
    if (n > epsilon && n * term <= 1e-17 * numerator) break;
    term *= epsilon / (n + 1);
  }
  return numerator / (2.0 * PortableExp(epsilon) * denominator);
}

SquareWaveMechanism::SquareWaveMechanism(NumericRange range, double epsilon,
                                         std::optional<double> requested_half_width)
    : NumericMechanism(range),
      epsilon_(epsilon),
      requested_half_width_(requested_half_width),
      half_width_(requested_half_width ? *requested_half_width : SquareWaveOptimalHalfWidth(epsilon)),
      top_(1.0 + half_width_) {
  const double e = PortableExp(epsilon);
  outer_density_ = 1.0 / (2.0 * half_width_ * e + 1.0);
  inner_density_ = e * outer_density_;
}

nlohmann::json SquareWaveMechanism::ParamsToJson() const {
  nlohmann::json object = {{"name", name()}, {"epsilon", epsilon_}};
  if (requested_half_width_) object["b"] = *requested_half_width_;
  return object;
}

NumericRange SquareWaveMechanism::output_range() const {
  const NumericRange input = input_range();
  return {input.low + (-half_width_) * input.width(), input.low + top_ * input.width()};
}

double SquareWaveMechanism::Normalised(double x) const {
  return std::clamp((x - input_range().low) / input_range().width(), 0.0, 1.0);
}

double SquareWaveMechanism::OutputProbability(double x, double y0, double y1) const {
  const double v0 = (y0 - input_range().low) / input_range().width();
  const double v1 = (y1 - input_range().low) / input_range().width();
  const double v = Normalised(x);
  return outer_density_ * OverlapLength(v0, v1, -half_width_, top_) +
         (inner_density_ - outer_density_) * OverlapLength(v0, v1, v - half_width_, v + half_width_);
}

std::optional<NumericMechanism::ReportMoments> SquareWaveMechanism::report_moments() const {
  const double b = half_width_, p = inner_density_, q = outer_density_;
  const double low = input_range().low, width = input_range().width();
  auto normalised_mean = [=](double v) { return q * (1.0 + 2.0 * b) / 2.0 + 2.0 * b * (p - q) * v; };
  auto normalised_square = [=](double v) {
    return q * (std::pow(1.0 + b, 3) + std::pow(b, 3)) / 3.0 + (p - q) * (2.0 * b * v * v + 2.0 * std::pow(b, 3) / 3.0);
  };
  return ReportMoments{
      [=](double x) { return low + width * normalised_mean((x - low) / width); },
      [=](double x) {
        const double v = (x - low) / width;
        return low * low + 2.0 * low * width * normalised_mean(v) + width * width * normalised_square(v);
      }};
}

std::vector<double> SquareWaveMechanism::PerturbValid(double answer, RandomSource& random) const {
  const double v = Normalised(answer);
  double reported;
  if (Bernoulli(random, 2.0 * half_width_ * inner_density_)) {
    reported = v - half_width_ + 2.0 * half_width_ * UniformUnit(random);
  } else {
    // Uniform on [-b, v - b) ∪ (v + b, 1 + b], of total length 1: a draw
    // u in [0, 1) below v lands on the left part, the rest on the right.
    const double u = UniformUnit(random);
    reported = u < v ? u - half_width_ : u + half_width_;
  }
  // The clamp only absorbs last-bit rounding; with it the data-unit report
  // stays inside output_range() (same expression, monotone rounding).
  reported = std::clamp(reported, -half_width_, top_);
  return {input_range().low + reported * input_range().width()};
}

Result<std::unique_ptr<const SquareWaveMechanism>> CreateSquareWave(NumericRange range, double epsilon,
                                                                    std::optional<double> half_width) {
  DENIABLE_TRY(ValidateNumericRange(range));
  DENIABLE_TRY(ValidateEpsilon(epsilon));
  if (half_width) DENIABLE_TRY(ValidateHalfWidth(*half_width));
  std::unique_ptr<const SquareWaveMechanism> mechanism(new SquareWaveMechanism(range, epsilon, half_width));
  DENIABLE_TRY(RequireFiniteOutputRange(*mechanism));
  return mechanism;
}

Result<std::unique_ptr<const SquareWaveMechanism>> ParseSquareWaveParams(const nlohmann::json& mechanism_object,
                                                                        NumericRange range, const std::string& where) {
  const auto& object = mechanism_object;
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon", "b"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  if (name != "square_wave") {
    return MakeError(JoinPath(where, "name") + ": must be \"square_wave\", but is \"" + name + "\"");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto epsilon, ReadFiniteNumber(object, "epsilon", where));
  if (auto status = ValidateEpsilon(epsilon); !status) return InContext(JoinPath(where, "epsilon"), status.error());
  std::optional<double> half_width;
  if (object.contains("b")) {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadFiniteNumber(object, "b", where));
    if (auto status = ValidateHalfWidth(read); !status) return InContext(JoinPath(where, "b"), status.error());
    half_width = read;
  }
  auto mechanism = CreateSquareWave(range, epsilon, half_width);
  if (!mechanism) return InContext(where, mechanism.error());
  return mechanism;
}

}  // namespace deniable
