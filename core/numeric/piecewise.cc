#include "core/numeric/piecewise.h"

#include <algorithm>
#include <cmath>

#include "core/numeric/epsilon_mechanism.h"
#include "core/common/json_fields.h"
#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

// The length of [low0, high0) ∩ [low1, high1) (infinite ends allowed).
double Overlap(double low0, double high0, double low1, double high1) {
  return std::max(0.0, std::min(high0, high1) - std::max(low0, low1));
}

}  // namespace

PiecewiseMechanism::PiecewiseMechanism(NumericRange range, double epsilon)
    : NumericMechanism(range), epsilon_(epsilon), root_(PortableExpm1(epsilon / 2.0)) {
  const double s = root_ + 1.0;
  bound_ = 1.0 + 2.0 / root_;
  inner_density_ = s * root_ / (2.0 * (s + 1.0));
  outer_density_ = root_ / (2.0 * s * (s + 1.0));
}

nlohmann::json PiecewiseMechanism::ParamsToJson() const { return {{"name", name()}, {"epsilon", epsilon_}}; }

NumericRange PiecewiseMechanism::output_range() const {
  return {Centre() - bound_ * HalfWidth(), Centre() + bound_ * HalfWidth()};
}

double PiecewiseMechanism::Normalised(double x) const {
  return std::clamp((x - Centre()) / HalfWidth(), -1.0, 1.0);
}

PiecewiseMechanism::Window PiecewiseMechanism::WindowOf(double t) const {
  const double s = root_ + 1.0;
  return {(s * t - 1.0) / root_, (s * t + 1.0) / root_};
}

double PiecewiseMechanism::OutputProbability(double x, double y0, double y1) const {
  const double t0 = (y0 - Centre()) / HalfWidth();
  const double t1 = (y1 - Centre()) / HalfWidth();
  const Window window = WindowOf(Normalised(x));
  return outer_density_ * Overlap(t0, t1, -bound_, bound_) +
         (inner_density_ - outer_density_) * Overlap(t0, t1, window.low, window.high);
}

std::optional<double> PiecewiseMechanism::UnbiasedValueVariance(double x) const {
  const double t = Normalised(x);
  const double s = root_ + 1.0;
  const double normalised_variance = t * t / root_ + (s + 3.0) / (3.0 * root_ * root_);
  return HalfWidth() * HalfWidth() * normalised_variance;
}

std::vector<double> PiecewiseMechanism::PerturbValid(double answer, RandomSource& random) const {
  const Window window = WindowOf(Normalised(answer));
  const double s = root_ + 1.0;
  double reported;
  if (Bernoulli(random, s / (s + 1.0))) {
    reported = window.low + (window.high - window.low) * UniformUnit(random);
  } else {
    // Uniform on [-C, l) ∪ (r, C], of total length C + 1: one draw over the
    // length, mapped onto the left part first.
    const double offset = (bound_ + 1.0) * UniformUnit(random);
    const double left_length = window.low + bound_;
    reported = offset < left_length ? -bound_ + offset : window.high + (offset - left_length);
  }
  // The clamp only absorbs last-bit rounding; with it the data-unit report
  // stays inside output_range() (same expression, monotone rounding).
  reported = std::clamp(reported, -bound_, bound_);
  return {Centre() + reported * HalfWidth()};
}

Result<std::unique_ptr<const PiecewiseMechanism>> CreatePiecewise(NumericRange range, double epsilon) {
  return CreateEpsilonMechanism<PiecewiseMechanism>(range, epsilon,
                                       [](NumericRange r, double e) { return new PiecewiseMechanism(r, e); });
}

Result<std::unique_ptr<const PiecewiseMechanism>> ParsePiecewiseParams(const nlohmann::json& mechanism_object,
                                                                       NumericRange range, const std::string& where) {
  return ParseEpsilonMechanism<PiecewiseMechanism>(mechanism_object, range, where, "piecewise", CreatePiecewise);
}

}  // namespace deniable
