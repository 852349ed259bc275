#include "core/kinds/numeric/answer_step.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"

namespace deniable {
namespace {

// Grid positions are computed from the origin, not accumulated, so decimal
// steps do not drift; a position within this share of a step of a whole
// number is that number (0.3 / 0.1 = 2.9999999999999996).
constexpr double kTolerance = 1e-6;
constexpr double kDivisionTolerance = 1e-9;
// How far from a grid value an answer may be, in absolute terms: a millionth
// of a step, or the doubles' own spacing where the numbers are large (at 1e8 a
// double is stored to 1.5e-8, so 100000000.001 is 0.99999997 steps of 0.001
// above 1e8).
double OnGridAllowance(double x, double origin, double step) {
  return std::max(kTolerance * step, 1e-12 * std::max(std::fabs(x), std::fabs(origin)));
}

}  // namespace

Result<std::optional<AnswerStep>> AnswerStep::Parse(const nlohmann::json& question, NumericRange range,
                                                    const std::string& where) {
  if (!question.contains("step")) return std::optional<AnswerStep>();
  const std::string path = where + ".step";
  const auto& value = question.at("step");
  if (!value.is_number() || !std::isfinite(value.get<double>()) || !(value.get<double>() > 0.0)) {
    return MakeError(path + ": must be a number > 0 (answers are low + k * step), but is " + value.dump());
  }
  const double step = value.get<double>();
  const double steps = range.width() / step;
  const double whole = std::round(steps);
  const double most = static_cast<double>(kMaxAnswerSteps);
  if (!(steps >= 1.0 - kDivisionTolerance && steps <= most * (1.0 + kDivisionTolerance))) {
    return MakeError(path + ": " + FormatNumber(step) + " must divide the range's width " + FormatNumber(range.width()) +
                     " into 1 to " + std::to_string(kMaxAnswerSteps) + " steps, but gives " + FormatNumber(steps));
  }
  // Only rounding error is forgiven (9 / 0.1 = 90.00000000000001): a relative
  // 1e-9, so 600000.3 steps of 1 are refused, not taken for 600000.
  if (std::fabs(steps - whole) > kDivisionTolerance * whole) {
    return MakeError(path + ": " + FormatNumber(step) + " does not divide the range's width " +
                     FormatNumber(range.width()) + " into whole steps (it gives " + FormatNumber(steps) + ")");
  }
  return std::optional<AnswerStep>(AnswerStep(range.low, range.high, step, static_cast<long long>(whole)));
}

// Held inside the range: the last grid value may exceed the high end by rounding.
double AnswerStep::At(double k) const {
  const double value = origin_ + std::clamp(k, 0.0, static_cast<double>(steps_)) * step_;
  return std::min(value, high_);
}

double AnswerStep::Floor(double x) const { return At(std::floor((x - origin_) / step_ + kTolerance)); }

double AnswerStep::Ceil(double x) const { return At(std::ceil((x - origin_) / step_ - kTolerance)); }

double AnswerStep::Nearest(double x) const { return At(std::round((x - origin_) / step_)); }

bool AnswerStep::OnGrid(double x) const {
  const double nearest = origin_ + std::round((x - origin_) / step_) * step_;
  return std::fabs(x - nearest) <= OnGridAllowance(x, origin_, step_);
}

}  // namespace deniable
