#include "core/numeric/rvns.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

double Clamp(double value, double low, double high) { return std::min(std::max(value, low), high); }

// Where the window's lower end L may lie for answer x: [L, L + d] must contain
// x and stay inside [a, b]. With d <= (b - a)/2 the interval is never empty.
struct LowerEndRange {
  double low;
  double high;
};

LowerEndRange LowerEnds(const RvnsParams& params, double x) {
  return {std::max(params.range.low, x - params.window), std::min(x, params.range.high - params.window)};
}

// Narrower windows than this fraction of the range hide nothing a survey
// could notice, and would leave the reports nearly uniform whatever the answer.
constexpr double kMinRelativeWindow = 1e-6;

Status ValidateWindow(const RvnsParams& params) {
  const double half = params.range.width() / 2.0;
  const double smallest = kMinRelativeWindow * params.range.width();
  if (!(params.window >= smallest && params.window <= half)) {
    return MakeError("window must be in [" + FormatNumber(kMinRelativeWindow) + " (b-a), (b-a)/2] = [" +
                     FormatNumber(smallest) + ", " + FormatNumber(half) + "], but is " + FormatNumber(params.window));
  }
  return OkStatus();
}

// k ln(1 + (1-gamma)W / (gamma (W - d))), W = b - a: the log of the largest
// ratio of joint densities (docs/rvns-privacy.md). Infinite for gamma = 0.
double EpsilonOf(const RvnsParams& params) {
  const double gamma = params.uniform_probability;
  const double width = params.range.width();
  return params.values * std::log1p((1.0 - gamma) * width / (gamma * (width - params.window)));
}

Status ValidateUniformProbability(const RvnsParams& params) {
  const double gamma = params.uniform_probability;
  if (!(gamma >= 0.0 && gamma < 1.0)) {
    return MakeError("uniform_probability must be in [0, 1), but is " + FormatNumber(gamma));
  }
  if (gamma == 0.0) return OkStatus();
  const double epsilon = EpsilonOf(params);
  if (!std::isfinite(epsilon)) {
    return MakeError("uniform_probability " + FormatNumber(gamma) +
                     " is too small for a finite epsilon (use 0 for the published RVNS)");
  }
  // The smallest epsilon of every mechanism applies to the derived one too
  // (gamma near 1: the reports are almost pure noise). There is no largest:
  // a small gamma only approaches the published RVNS (gamma = 0), which is allowed.
  if (epsilon < kMinEpsilon) {
    return MakeError("uniform_probability " + FormatNumber(gamma) + " gives epsilon " + FormatNumber(epsilon) +
                     ", below the smallest " + FormatNumber(kMinEpsilon) +
                     ": lower it (the reports would be almost pure noise)");
  }
  return OkStatus();
}

Result<RvnsParams::WindowMode> ReadWindowMode(const nlohmann::json& object, const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "window_mode", 16, true, where));
  for (auto mode : {RvnsParams::WindowMode::kShared, RvnsParams::WindowMode::kFreshPerValue}) {
    if (name == RvnsWindowModeName(mode)) return mode;
  }
  return MakeError(JoinPath(where, "window_mode") + ": must be \"shared\" or \"fresh\", but is \"" + name + "\"");
}

}  // namespace

std::string RvnsWindowModeName(RvnsParams::WindowMode mode) {
  return mode == RvnsParams::WindowMode::kShared ? "shared" : "fresh";
}

RvnsMechanism::RvnsMechanism(const RvnsParams& params)
    : NumericMechanism(params.range),
      params_(params),
      outside_density_(1.0 / (params.range.width() - params.window)) {}

std::optional<double> RvnsMechanism::epsilon() const {
  if (params_.uniform_probability == 0.0) return std::nullopt;
  return EpsilonOf(params_);
}

nlohmann::json RvnsMechanism::ParamsToJson() const {
  nlohmann::json object = {{"name", name()},
                           {"window", params_.window},
                           {"values", params_.values},
                           {"window_mode", RvnsWindowModeName(params_.mode)}};
  if (params_.uniform_probability != 0.0) object["uniform_probability"] = params_.uniform_probability;
  return object;
}

// ---- Perturbation -------------------------------------------------------------------------------

RvnsWindow RvnsMechanism::DrawWindow(double x, RandomSource& random) const {
  const auto [lowest, highest] = LowerEnds(params_, x);
  // The clamps only absorb last-bit rounding: they keep x in [low, high] ⊂ [a, b].
  const double low = std::min(lowest + (highest - lowest) * UniformUnit(random), highest);
  const double high = std::max(std::min(low + params_.window, params_.range.high), x);
  return {low, high};
}

double RvnsMechanism::DrawOutsideWindow(const RvnsWindow& window, RandomSource& random) const {
  // One uniform draw over the allowed length, mapped onto [a, L) then (R, b]
  // (digest §3.3 line 7). No branch per case: x = a (L = a) and x = b (R = b)
  // simply leave one side empty.
  const double a = params_.range.low, b = params_.range.high;
  const double left = window.low - a;
  const double right = b - window.high;
  const double u = UniformUnit(random) * (left + right);
  if (u < left) {
    // left > 0 here, so L > a and the largest double below L is still >= a.
    return std::min(a + u, std::nextafter(window.low, a));
  }
  // right > 0 here (u < left + right), so R < b: the smallest double above R is <= b.
  return std::min(std::max(window.high + (u - left), std::nextafter(window.high, b)), b);
}

double RvnsMechanism::DrawUniform(RandomSource& random) const {
  return std::min(params_.range.low + params_.range.width() * UniformUnit(random), params_.range.high);
}

std::vector<RvnsValue> RvnsMechanism::Explain(double x, RandomSource& random) const {
  const bool shared = params_.mode == RvnsParams::WindowMode::kShared;
  std::vector<RvnsValue> report;
  report.reserve(static_cast<std::size_t>(params_.values));
  RvnsWindow window = shared ? DrawWindow(x, random) : RvnsWindow{0.0, 0.0};
  for (int j = 0; j < params_.values; ++j) {
    if (!shared) window = DrawWindow(x, random);
    // Bernoulli(0) draws nothing, so the published RVNS consumes no randomness here.
    const bool uniform = Bernoulli(random, params_.uniform_probability);
    const double value = uniform ? DrawUniform(random) : DrawOutsideWindow(window, random);
    report.push_back({value, window, uniform});
  }
  return report;
}

std::vector<double> RvnsMechanism::PerturbValid(double answer, RandomSource& random) const {
  std::vector<double> values;
  for (const auto& item : Explain(answer, random)) values.push_back(item.value);
  return values;
}

Result<std::vector<RvnsValue>> RvnsMechanism::PerturbExplained(double answer, RandomSource& random) const {
  const NumericRange range = params_.range;
  if (!std::isfinite(answer) || answer < range.low || answer > range.high) {
    return MakeError("answer must be a number in [" + FormatNumber(range.low) + ", " + FormatNumber(range.high) +
                     "], but is " + FormatNumber(answer));
  }
  return Explain(answer, random);
}

// ---- Densities and probabilities ----------------------------------------------------------------

double RvnsMechanism::WindowDensity(double x, double y) const {
  const double a = params_.range.low, b = params_.range.high, d = params_.window, c = outside_density_;
  if (!(x >= a && x <= b) || !(y >= a && y <= b)) return 0.0;
  if (x - a < d) {  // eq. 2, left boundary. Each ratio's branch implies x > a.
    if (y < x) return c * (x - y) / (x - a);
    if (y <= a + d) return 0.0;
    if (y <= x + d) return c * (y - a - d) / (x - a);
    return c;
  }
  if (b - x < d) {  // eq. 4, right boundary. Each ratio's branch implies x < b.
    if (y < x - d) return c;
    if (y < b - d) return c * (b - d - y) / (b - x);
    if (y <= x) return 0.0;
    return c * (y - x) / (b - x);
  }
  // eq. 3, middle.
  if (y < x - d || y > x + d) return c;
  return c * std::fabs(y - x) / d;
}

double RvnsMechanism::TransitionDensity(double x, double y) const {
  const NumericRange range = params_.range;
  if (!(x >= range.low && x <= range.high) || !(y >= range.low && y <= range.high)) return 0.0;
  const double gamma = params_.uniform_probability;
  return (1.0 - gamma) * WindowDensity(x, y) + gamma / range.width();
}

double RvnsMechanism::MeanWindowOverlap(double x, double y0, double y1) const {
  // overlap(L) = |[y0, y1] ∩ [L, L + d]| is piecewise linear in L with kinks
  // at y0 - d, y0, y1 - d and y1, so its mean over L ~ U[lowest, highest] is
  // the trapezoid rule between those kinks, exactly. Each piece is weighted by
  // its share of the range, which stays accurate when the range is tiny
  // (x next to a or b), where a difference of antiderivatives would cancel.
  const double d = params_.window;
  const auto overlap = [&](double low) { return std::max(0.0, std::min(y1, low + d) - std::max(y0, low)); };
  const auto [lowest, highest] = LowerEnds(params_, x);
  if (!(highest > lowest)) return overlap(lowest);  // x = a or x = b: the window is fixed
  std::array<double, 6> cuts = {lowest, highest, y0 - d, y0, y1 - d, y1};
  for (double& cut : cuts) cut = Clamp(cut, lowest, highest);
  std::sort(cuts.begin(), cuts.end());
  double integral = 0.0, span = 0.0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const double width = cuts[i + 1] - cuts[i];
    if (width <= 0.0) continue;
    integral += width * 0.5 * (overlap(cuts[i]) + overlap(cuts[i + 1]));
    span += width;
  }
  return integral / span;
}

double RvnsMechanism::OutputProbability(double x, double y0, double y1) const {
  // P(value in [y0, y1)) = (1 - gamma) c (|I| - E|I ∩ window|) + gamma |I|/(b - a), I = [y0, y1] ∩ [a, b]:
  // a value avoiding the window is uniform with density c on the rest of [a, b]
  // (the window lies inside [a, b]). This is the exact integral of eqs. 2-4.
  const NumericRange range = params_.range;
  if (!(x >= range.low && x <= range.high)) return 0.0;
  const double low = std::max(y0, range.low), high = std::min(y1, range.high);
  if (!(high > low)) return 0.0;
  const double length = high - low;
  const double avoiding = outside_density_ * (length - MeanWindowOverlap(x, low, high));
  const double gamma = params_.uniform_probability;
  return Clamp((1.0 - gamma) * avoiding + gamma * length / range.width(), 0.0, 1.0);
}

// ---- Construction -------------------------------------------------------------------------------

Result<std::unique_ptr<const RvnsMechanism>> CreateRvns(const RvnsParams& params) {
  DENIABLE_TRY(ValidateNumericRange(params.range));
  DENIABLE_TRY(ValidateWindow(params));
  DENIABLE_TRY(ValidateIntInRange(params.values, 1, kMaxRvnsValues, "values"));
  DENIABLE_TRY(ValidateUniformProbability(params));
  return std::unique_ptr<const RvnsMechanism>(new RvnsMechanism(params));
}

Result<std::unique_ptr<const RvnsMechanism>> ParseRvnsParams(const nlohmann::json& mechanism_object,
                                                            NumericRange range, const std::string& where) {
  const auto& object = mechanism_object;
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "window", "values", "window_mode", "uniform_probability"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  if (name != "rvns") return MakeError(JoinPath(where, "name") + ": must be \"rvns\", but is \"" + name + "\"");
  DENIABLE_ASSIGN_OR_RETURN(auto window, ReadFiniteNumber(object, "window", where));
  DENIABLE_ASSIGN_OR_RETURN(auto values, ReadInteger(object, "values", 1, kMaxRvnsValues, where));
  DENIABLE_ASSIGN_OR_RETURN(auto mode, ReadWindowMode(object, where));
  double gamma = 0.0;
  if (object.contains("uniform_probability")) {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadFiniteNumber(object, "uniform_probability", where));
    gamma = read;
  }
  const RvnsParams params{range, window, static_cast<int>(values), mode, gamma};
  // Each field checked where the message can name it (CreateRvns checks again).
  if (auto status = ValidateNumericRange(range); !status) return InContext(where, status.error());
  if (auto status = ValidateWindow(params); !status) return InContext(JoinPath(where, "window"), status.error());
  if (auto status = ValidateUniformProbability(params); !status) {
    return InContext(JoinPath(where, "uniform_probability"), status.error());
  }
  auto mechanism = CreateRvns(params);
  if (!mechanism) return InContext(where, mechanism.error());
  return mechanism;
}

double RvnsUniformProbabilityForEpsilon(double epsilon, NumericRange range, double window, int values) {
  const double ratio = range.width() / (range.width() - window);
  return ratio / (std::expm1(epsilon / values) + ratio);
}

}  // namespace deniable
