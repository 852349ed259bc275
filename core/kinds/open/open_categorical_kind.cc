#include "core/kinds/open/open_categorical_kind.h"

#include <cmath>

#include "core/kinds/categorical/categorical_results.h"
#include "core/central/confidential_simulation.h"
#include "core/kinds/open/open_intervals.h"
#include "core/kinds/open/open_privacy.h"
#include "core/kinds/open/open_truth.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

// One option's row of the results, hidden as HiddenCounts says.
nlohmann::json OptionResult(const std::string& label, std::int64_t count, bool hidden, std::int64_t n,
                            IntervalTarget target) {
  if (hidden) {
    return {{"label", label}, {"count", nullptr}, {"frequency", nullptr}, {"std_error", nullptr},
            {"ci_low", nullptr}, {"ci_high", nullptr}, {"consistent_frequency", nullptr},
            {"consistent_ci_low", nullptr}, {"consistent_ci_high", nullptr},
            {"hidden", count > 0 && count < kSmallCellLimit ? "fewer than 5 respondents" : "hidden so that a smaller count cannot be worked out"}};
  }
  const double share = static_cast<double>(count) / static_cast<double>(n);
  const bool population = target == IntervalTarget::kPopulation;
  const OpenInterval interval = population ? ShareInterval(count, n) : OpenInterval{share, share};
  const double std_error = population ? std::sqrt(share * (1 - share) / static_cast<double>(n)) : 0.0;
  return {{"label", label}, {"count", count}, {"frequency", share}, {"std_error", std_error},
          {"ci_low", interval.low}, {"ci_high", interval.high}, {"consistent_frequency", share},
          {"consistent_ci_low", interval.low}, {"consistent_ci_high", interval.high}};
}

}  // namespace

void OpenCategoryAggregate::Add(const KindResponse& response) {
  ++counts_[static_cast<const OpenCategoryResponse&>(response).category];
  ++n_;
}

Status OpenCategoryAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const OpenCategoryAggregate&>(other);
  if (theirs.counts_.size() != counts_.size()) return MakeError("a different number of options");
  for (std::size_t c = 0; c < counts_.size(); ++c) counts_[c] += theirs.counts_[c];
  n_ += theirs.n_;
  return OkStatus();
}

std::shared_ptr<const QuestionKind> OpenCategoricalKind::Create(const OpenCategoricalClient& client) {
  return std::shared_ptr<const QuestionKind>(new OpenCategoricalKind(client));
}

Result<std::unique_ptr<const KindResponse>> OpenCategoricalKind::Decode(const nlohmann::json& wire) const {
  DENIABLE_ASSIGN_OR_RETURN(auto category, bins_.BinOf(wire));
  return std::unique_ptr<const KindResponse>(new OpenCategoryResponse(category));
}

Status OpenCategoricalKind::ValidateEstimateOptions(const nlohmann::json& options) const {
  return ReadIntervalTarget(options).ok() ? OkStatus() : MakeError(ReadIntervalTarget(options).error());
}

Result<nlohmann::json> OpenCategoricalKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                     const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  const auto& counts = static_cast<const OpenCategoryAggregate&>(aggregate).counts();
  auto rows = nlohmann::json::array();
  const std::vector<bool> hidden = HiddenCounts(counts);
  for (std::size_t c = 0; c < options_.size() && aggregate.n() > 0; ++c) {
    rows.push_back(OptionResult(options_[c], counts[c], hidden[c], aggregate.n(), target));
  }
  return nlohmann::json{{"mechanism", MechanismToJson()},
                        {"privacy", PrivacyToJson()},
                        {"trust", kOpenPrivacy},
                        {"n", aggregate.n()},
                        {"interval_for", IntervalForJson(target)},
                        {"options", rows},
                        {"expected_ci_half_width", nullptr},
                        {"respondents_for_5_points", nullptr},
                        {"warning", aggregate.n() == 0 ? nlohmann::json("no answers yet") : nlohmann::json()}};
}

std::vector<CsvRow> OpenCategoricalKind::CsvRows(const nlohmann::json& result) const {
  return CategoricalCsvRows(result);
}

Result<std::unique_ptr<TruthSampler>> OpenCategoricalKind::ParseTruth(const nlohmann::json& entry,
                                                                      const std::string& where) const {
  return ParseOpenCategoryTruth(options_.size(), entry, where);
}

Result<nlohmann::json> OpenCategoricalKind::TruthFromTable(const std::vector<std::vector<std::string>>& table,
                                                           const nlohmann::json& entry, const std::string& where) const {
  return ConfidentialTruthFromTable(bins_, table, entry, where);
}

std::string OpenCategoricalKind::SimulationText(const nlohmann::json& result) const {
  return OpenSimulationText(result);
}

std::vector<double> OpenCategoricalKind::Likelihood(const KindResponse& response) const {
  std::vector<double> indicator(options_.size(), 0.0);
  indicator[static_cast<const OpenCategoryResponse&>(response).category] = 1.0;
  return indicator;
}

std::optional<std::size_t> OpenCategoricalKind::ExactCategory(const KindResponse& response) const {
  return static_cast<const OpenCategoryResponse&>(response).category;
}

}  // namespace deniable
