#include "core/kinds/multiple/multiple_results.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"
#include "core/kinds/open/open_intervals.h"
#include "core/kinds/multiple/number_chosen.h"

namespace deniable {
namespace {

// A share's expected 95% half-width beyond this (at a share near 0) earns a warning: +-10 points.
constexpr double kUsefulHalfWidth = 0.10;

nlohmann::json NumberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

nlohmann::json SampleSizeWarning(std::int64_t n, double half_width, std::int64_t needed) {
  if (n == 0) return "no reports yet";
  if (half_width <= kUsefulHalfWidth) return nullptr;
  return "n = " + std::to_string(n) + " is too small for useful estimates: a 95% interval of a share is about ±" +
         FormatSignificant(half_width * 100, 2) + " percentage points wide; about " + std::to_string(needed) +
         " respondents give ±5 points";
}

nlohmann::json NumberChosenToJson(const NumberChosen& chosen, std::int64_t n, int max_choices, int padding) {
  if (n == 0) return nullptr;
  auto distribution = nlohmann::json::array();
  for (const auto& row : chosen.distribution) {
    nlohmann::json item = {{"chosen", row.chosen},
                           {"share", NumberOrNull(row.share)},
                           {"std_error", NumberOrNull(row.std_error)},
                           {"ci_low", NumberOrNull(row.ci_low)},
                           {"ci_high", NumberOrNull(row.ci_high)},
                           {"consistent_share", NumberOrNull(row.consistent_share)}};
    // Padding shorter than m: its last row lumps every set of l options or more.
    if (padding > 0 && padding < max_choices && row.chosen == padding) item["or_more"] = true;
    distribution.push_back(item);
  }
  return {{"mean", NumberOrNull(chosen.mean)},
          {"std_error", NumberOrNull(chosen.std_error)},
          {"ci_low", NumberOrNull(chosen.ci_low)},
          {"ci_high", NumberOrNull(chosen.ci_high)},
          {"distribution", chosen.distribution.empty() ? nlohmann::json() : distribution},
          {"note", chosen.note}};
}

// These respondents' score interval of a share: the f whose randomisation alone puts the observed report share
// within 1.96 sd, the variance taken at f itself, Var(C/n | f) = (f p(1-p) + (1-f) q(1-q)) / n, not at the
// estimate. Given the respondents C is a sum of Binomial(n f, p_eff) and Binomial(n (1 - f), q): with a few reports
// per option, estimate +- 1.96 SE covered 0.84-0.95 (padding at epsilon 4, n = 100; multiple_share_interval_test).
// The f solve n (b - gap f)^2 <= z^2 (q(1-q) + f d), b = C/n - q, d = p(1-p) - q(1-q): between a quadratic's roots.
void UseScoreInterval(OptionEstimate& option, double count, double n, SupportProbabilities pq) {
  const double gap = pq.p - pq.q, b = count / n - pq.q, d = pq.p * (1.0 - pq.p) - pq.q * (1.0 - pq.q);
  const double a2 = n * gap * gap, a1 = -(2.0 * n * gap * b + kZ95 * kZ95 * d);
  const double a0 = n * b * b - kZ95 * kZ95 * pq.q * (1.0 - pq.q);
  const double discriminant = a1 * a1 - 4.0 * a2 * a0;
  if (!(discriminant >= 0.0)) return;  // no share fits (only far outside [0, 1]): the normal interval stays
  const double root = std::sqrt(discriminant);
  option.ci_low = std::min((-a1 - root) / (2.0 * a2), option.frequency);
  option.ci_high = std::max((-a1 + root) / (2.0 * a2), option.frequency);
}

}  // namespace

FrequencyEstimate EstimateShares(const MultipleQuestionKind& kind, const MultipleAggregate& aggregate,
                                 IntervalTarget target) {
  const auto pq = kind.mechanism().probabilities();
  FrequencyEstimate estimate = EstimateFrequencies(aggregate.support_counts(), aggregate.n(), pq, target);
  if (target == IntervalTarget::kPopulation && aggregate.n() > 0) {
    // Each respondent's report supports value i independently with probability lambda_i = q + (p_eff - q) f_i, so
    // its count is Binomial(n, lambda_i), and f_i is lambda_i's increasing linear image: the exact interval of
    // lambda_i, mapped, covers at least 95% at every n. The normal one covered 0.89-0.92 for checklist options
    // with a few reports each (padding at epsilon 4, n = 200; build/kinds_real_data --respondents 200).
    const double gap = pq.p - pq.q;
    for (std::size_t i = 0; i < estimate.options.size(); ++i) {
      const OpenInterval lambda = ShareInterval(aggregate.support_counts()[i], aggregate.n());
      OptionEstimate& option = estimate.options[i];
      // The estimate is (C/n - q) / gap, inside by construction; min and max keep it inside through rounding.
      option.ci_low = std::min((lambda.low - pq.q) / gap, option.frequency);
      option.ci_high = std::max((lambda.high - pq.q) / gap, option.frequency);
    }
  } else if (aggregate.n() > 0) {
    for (std::size_t i = 0; i < estimate.options.size(); ++i) {
      UseScoreInterval(estimate.options[i], static_cast<double>(aggregate.support_counts()[i]),
                       static_cast<double>(aggregate.n()), pq);
    }
  }
  return estimate;
}

nlohmann::json MultipleResultToJson(const MultipleQuestionKind& kind, const MultipleAggregate& aggregate,
                                    IntervalTarget target) {
  const SetMechanism& mechanism = kind.mechanism();
  const auto estimate = EstimateShares(kind, aggregate, target);
  auto options = nlohmann::json::array();
  for (std::size_t i = 0; i < kind.options().size(); ++i) {
    const auto& option = estimate.options[i];
    // Each share lies in [0, 1]: clipping is the consistent estimate, and the clipped interval still covers.
    const double consistent = std::clamp(option.frequency, 0.0, 1.0);
    options.push_back({{"label", kind.options()[i]},
                       {"count", NumberOrNull(option.count)},
                       {"share", NumberOrNull(option.frequency)},
                       {"std_error", NumberOrNull(option.std_error)},
                       {"ci_low", NumberOrNull(option.ci_low)},
                       {"ci_high", NumberOrNull(option.ci_high)},
                       {"consistent_share", NumberOrNull(consistent)},
                       {"consistent_ci_low", NumberOrNull(std::clamp(option.ci_low, 0.0, 1.0))},
                       {"consistent_ci_high", NumberOrNull(std::clamp(option.ci_high, 0.0, 1.0))}});
  }
  const auto pq = mechanism.probabilities();
  const std::int64_t n = aggregate.n();
  const NumberChosen chosen =
      mechanism.is_bits()
          ? NumberChosenFromOnes(aggregate.reported_ones(), kind.max_choices(), pq, target)
          : NumberChosenFromDummies(aggregate.support_counts(), static_cast<int>(kind.options().size()),
                                    mechanism.padding(), pq);
  const double half_width = n > 0 ? kZ95 * std::sqrt(PlanningFrequencyVariance(pq, static_cast<double>(n))) : NAN;
  const auto needed = RequiredSampleSize(pq, 0.05);
  nlohmann::json result = {{"mechanism", kind.MechanismToJson()},
                           {"privacy", kind.PrivacyToJson()},
                           {"n", n},
                           {"max_choices", kind.max_choices()},
                           {"interval_for", IntervalForJson(target)},
                           {"options", options},
                           {"number_chosen", NumberChosenToJson(chosen, n, kind.max_choices(), mechanism.padding())},
                           {"expected_ci_half_width", NumberOrNull(half_width)},
                           {"respondents_for_5_points", needed},
                           {"warning", SampleSizeWarning(n, half_width, needed)}};
  if (!mechanism.is_bits() && mechanism.padding() < kind.max_choices()) {
    result["truncation"] = "sets of more than " + std::to_string(mechanism.padding()) +
                           " options are sampled from without padding: their options' shares are under-estimated";
  }
  return result;
}

std::vector<CsvRow> MultipleCsvRows(const nlohmann::json& result) {
  std::vector<CsvRow> rows;
  for (const auto& option : result.at("options")) {
    rows.push_back({option.at("label").get<std::string>(), "share", option.at("share"), option.at("std_error"),
                    option.at("ci_low"), option.at("ci_high"), option.at("consistent_share"), option.at("count")});
  }
  const auto& chosen = result.at("number_chosen");
  if (chosen.is_null()) return rows;
  rows.push_back({"", "mean_chosen", chosen.at("mean"), chosen.at("std_error"), chosen.at("ci_low"),
                  chosen.at("ci_high"), nullptr, nullptr});
  if (chosen.at("distribution").is_null()) return rows;
  for (const auto& row : chosen.at("distribution")) {
    rows.push_back({std::to_string(row.at("chosen").get<int>()) + (row.value("or_more", false) ? "+" : ""),
                    "share_choosing", row.at("share"), row.at("std_error"), row.at("ci_low"), row.at("ci_high"),
                    row.at("consistent_share"), nullptr});
  }
  return rows;
}

}  // namespace deniable
