#include "core/numeric/duchi.h"

#include <algorithm>
#include <cmath>

#include "core/numeric/epsilon_mechanism.h"
#include "core/common/json_fields.h"
#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

// Whether the cell [y0, y1) holds the point y, the cells at the ends of
// `ends` reaching to infinity (so the last cell also holds y = ends.high).
bool CellHolds(double y0, double y1, double y, NumericRange ends) {
  return (y0 <= y || y0 <= ends.low) && (y < y1 || y1 >= ends.high);
}

}  // namespace

DuchiMechanism::DuchiMechanism(NumericRange range, double epsilon)
    // C = (e^eps + 1)/(e^eps - 1) = 1 + 2/(e^eps - 1); portable because reports are +-C.
    : NumericMechanism(range), epsilon_(epsilon), bound_(1.0 + 2.0 / PortableExpm1(epsilon)) {}

nlohmann::json DuchiMechanism::ParamsToJson() const { return {{"name", name()}, {"epsilon", epsilon_}}; }

NumericRange DuchiMechanism::output_range() const {
  const double half = input_range().width() / 2.0;
  const double centre = input_range().low + half;
  return {centre - bound_ * half, centre + bound_ * half};
}

double DuchiMechanism::Normalised(double x) const {
  const double half = input_range().width() / 2.0;
  return std::clamp((x - (input_range().low + half)) / half, -1.0, 1.0);
}

double DuchiMechanism::HighReportProbability(double x) const {
  const double t = Normalised(x);
  const double e = PortableExp(epsilon_);
  return ((1.0 + t) * e + (1.0 - t)) / (2.0 * (e + 1.0));
}

double DuchiMechanism::CellProbability(double x, double y0, double y1, NumericRange ends) const {
  const NumericRange reports = output_range();
  const double high = HighReportProbability(x);
  double probability = 0.0;
  if (CellHolds(y0, y1, reports.high, ends)) probability += high;
  if (CellHolds(y0, y1, reports.low, ends)) probability += 1.0 - high;
  return probability;
}

double DuchiMechanism::OutputProbability(double x, double y0, double y1) const {
  return CellProbability(x, y0, y1, output_range());
}

std::optional<double> DuchiMechanism::UnbiasedValueVariance(double x) const {
  const double half = input_range().width() / 2.0;
  const double t = Normalised(x);
  return half * half * (bound_ * bound_ - t * t);
}

std::vector<double> DuchiMechanism::PerturbValid(double answer, RandomSource& random) const {
  const NumericRange reports = output_range();
  return {Bernoulli(random, HighReportProbability(answer)) ? reports.high : reports.low};
}

Result<std::unique_ptr<const DuchiMechanism>> CreateDuchi(NumericRange range, double epsilon) {
  return CreateEpsilonMechanism<DuchiMechanism>(range, epsilon,
                                       [](NumericRange r, double e) { return new DuchiMechanism(r, e); });
}

Result<std::unique_ptr<const DuchiMechanism>> ParseDuchiParams(const nlohmann::json& mechanism_object,
                                                               NumericRange range, const std::string& where) {
  return ParseEpsilonMechanism<DuchiMechanism>(mechanism_object, range, where, "duchi", CreateDuchi);
}

}  // namespace deniable
