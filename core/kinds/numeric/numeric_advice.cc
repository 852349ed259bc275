#include "core/kinds/numeric/numeric_advice.h"

#include <string>
#include <vector>

#include "core/numeric/levels/levels_mechanism.h"
#include "core/numeric/mean_advice.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

// The mechanisms compared at the question's epsilon (the builder's choices that take one epsilon), with their rows' text.
struct Compared {
  const char* name;
  const char* description;
};
constexpr Compared kCompared[] = {
    {"square_wave", "Square Wave (its linear mean estimate)"},
    {"laplace", "Laplace"},
    {"duchi", "Duchi et al."},
    {"piecewise", "Piecewise"},
    {"hybrid", "Hybrid"},
};

}  // namespace

std::optional<nlohmann::json> NumericMeanAdvice(const NumericMechanism& mechanism, std::int64_t respondents) {
  if (auto own = MechanismAdvice(mechanism, respondents)) return own;
  const auto epsilon = mechanism.epsilon();
  if (!epsilon) return std::nullopt;
  const NumericRange range = mechanism.input_range();
  nlohmann::json rows = nlohmann::json::array();
  bool current_compared = false;
  for (const Compared& compared : kCompared) current_compared = current_compared || mechanism.name() == compared.name;
  if (!current_compared) {
    // The question's own mechanism first (RVNS: its mean has no closed-form variance, so no numbers).
    rows.push_back(MeanAdviceRow(mechanism.name(), "this question's mechanism", &mechanism, respondents));
  }
  for (const Compared& compared : kCompared) {
    auto made = ParseNumericMechanism({{"name", compared.name}, {"epsilon", *epsilon}}, range, "mechanism");
    rows.push_back(MeanAdviceRow(compared.name, compared.description, made ? made->get() : nullptr, respondents));
  }
  return nlohmann::json{
      {"kind", "numeric_mean"},
      {"respondents", respondents},
      {"epsilon", *epsilon},
      {"range", {range.low, range.high}},
      {"assumption", "answers spread evenly over the range (the worst case for the range, half the answers at each "
                     "end, is given beside it)"},
      {"interval_for", IntervalForJson(IntervalTarget::kPopulation)},
      {"rows", rows},
      {"current", mechanism.name()},
      {"best", BestMeanRow(rows)},
      {"note", "the mean's precision only: Square Wave estimates the whole distribution (quantiles, histogram) best at "
               "equal epsilon, which these numbers do not measure"}};
}

}  // namespace deniable
