#include "core/kinds/open/open_numeric_kind.h"

#include <algorithm>
#include <cmath>

#include "core/common/student_t.h"
#include "core/common/validation.h"
#include "core/kinds/open/open_intervals.h"
#include "core/kinds/open/open_privacy.h"
#include "core/kinds/open/open_truth.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

constexpr std::size_t kShownBins = 20;  // kOpenValueBins / kShownBins fine bins each

nlohmann::json Statistic(double value, OpenInterval interval, const char* note = nullptr) {
  return {{"value", value}, {"low", interval.low}, {"high", interval.high},
          {"note", note ? nlohmann::json(note) : nlohmann::json()}};
}

nlohmann::json MeanStatistic(const OpenValueAggregate& aggregate, IntervalTarget target) {
  const double mean = aggregate.mean();
  if (target == IntervalTarget::kRespondents) return Statistic(mean, {mean, mean}, "exact: the answers' own mean");
  const auto n = aggregate.n();
  const double sd = std::sqrt(aggregate.squared_deviations() / static_cast<double>(n - 1));
  const double half = StudentTTwoSidedQuantile(0.95, static_cast<int>(std::min<std::int64_t>(n - 1, 1'000'000))) *
                      sd / std::sqrt(static_cast<double>(n));
  auto statistic = Statistic(mean, {mean - half, mean + half}, "t interval: sampling alone varies");
  statistic["std_error"] = sd / std::sqrt(static_cast<double>(n));
  return statistic;
}

nlohmann::json QuantileStatistic(const OpenValueAggregate& aggregate, double low, double p, IntervalTarget target) {
  const OpenInterval bin = QuantileOfCounts(aggregate.counts(), low, aggregate.bin_width(), p);
  const double value = (bin.low + bin.high) / 2;
  if (target == IntervalTarget::kRespondents) return Statistic(value, bin, "exact to the width of a 1/1000 bin of the range");
  return Statistic(value, QuantileInterval(aggregate.counts(), low, aggregate.bin_width(), p),
                   "order-statistic interval, exact to the width of a 1/1000 bin of the range");
}

// Twenty bins of the range with each one's share, hidden as HiddenCounts says.
nlohmann::json Histogram(const OpenValueAggregate& aggregate, NumericRange range, IntervalTarget target) {
  const std::size_t fine = kOpenValueBins / kShownBins;
  auto edges = nlohmann::json::array(), values = nlohmann::json::array(), lows = nlohmann::json::array(),
       highs = nlohmann::json::array();
  const double width = (range.high - range.low) / static_cast<double>(kShownBins);
  for (std::size_t b = 0; b <= kShownBins; ++b) edges.push_back(range.low + width * static_cast<double>(b));
  std::vector<std::int64_t> counts(kShownBins, 0);
  for (std::size_t b = 0; b < kShownBins; ++b) {
    for (std::size_t f = 0; f < fine; ++f) counts[b] += aggregate.counts()[b * fine + f];
  }
  const std::vector<bool> hidden = HiddenCounts(counts);
  for (std::size_t b = 0; b < kShownBins; ++b) {
    if (hidden[b]) {
      values.push_back(nullptr), lows.push_back(nullptr), highs.push_back(nullptr);
      continue;
    }
    const double share = static_cast<double>(counts[b]) / static_cast<double>(aggregate.n());
    const OpenInterval interval =
        target == IntervalTarget::kPopulation ? ShareInterval(counts[b], aggregate.n()) : OpenInterval{share, share};
    values.push_back(share), lows.push_back(interval.low), highs.push_back(interval.high);
  }
  return {{"bin_width", width}, {"edges", edges}, {"value", values}, {"low", lows}, {"high", highs}};
}

}  // namespace

void OpenValueAggregate::Add(const KindResponse& response) {
  const double value = static_cast<const OpenValueResponse&>(response).value;
  ++n_;
  const double delta = value - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (value - mean_);
  const auto bin = static_cast<std::size_t>((value - range_.low) / bin_width());
  ++counts_[std::min(bin, kOpenValueBins - 1)];
}

Status OpenValueAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const OpenValueAggregate&>(other);
  if (theirs.range_.low != range_.low || theirs.range_.high != range_.high) return MakeError("a different range");
  if (theirs.n_ == 0) return OkStatus();
  const double n = static_cast<double>(n_ + theirs.n_), delta = theirs.mean_ - mean_;
  m2_ += theirs.m2_ + delta * delta * static_cast<double>(n_) * static_cast<double>(theirs.n_) / n;
  mean_ += delta * static_cast<double>(theirs.n_) / n;
  n_ += theirs.n_;
  for (std::size_t b = 0; b < counts_.size(); ++b) counts_[b] += theirs.counts_[b];
  return OkStatus();
}

std::shared_ptr<const QuestionKind> OpenNumericKind::Create(const OpenNumericClient& client) {
  return std::shared_ptr<const QuestionKind>(new OpenNumericKind(client));
}

Result<std::unique_ptr<const KindResponse>> OpenNumericKind::Decode(const nlohmann::json& wire) const {
  DENIABLE_ASSIGN_OR_RETURN(auto value, ReadAnswer(wire));
  return std::unique_ptr<const KindResponse>(new OpenValueResponse(value));
}

Status OpenNumericKind::ValidateEstimateOptions(const nlohmann::json& options) const {
  auto target = ReadIntervalTarget(options);
  return target ? OkStatus() : MakeError(target.error());
}

Result<nlohmann::json> OpenNumericKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                 const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  const auto& values = static_cast<const OpenValueAggregate&>(aggregate);
  nlohmann::json result = {{"mechanism", MechanismToJson()}, {"privacy", PrivacyToJson()}, {"trust", kOpenPrivacy},
                           {"range", {range_.low, range_.high}}, {"unit", unit_},
                           {"step", step_ ? nlohmann::json(step_->step()) : nlohmann::json()},
                           {"n", values.n()}, {"interval_for", IntervalForJson(target)},
                           {"statistics", nullptr}, {"histogram", nullptr}, {"warning", nullptr}};
  if (values.n() < kSmallCellLimit) {
    result["warning"] = values.n() == 0 ? "no answers yet" : "fewer than 5 answers: not shown";
    return result;
  }
  const double sd = std::sqrt(values.squared_deviations() / static_cast<double>(values.n() - 1));
  result["statistics"] = {
      {"mean", MeanStatistic(values, target)},
      {"std_dev", {{"value", sd}, {"low", nullptr}, {"high", nullptr}, {"note", "no interval"}}},
      {"median", QuantileStatistic(values, range_.low, 0.5, target)},
      {"lower_quartile", QuantileStatistic(values, range_.low, 0.25, target)},
      {"upper_quartile", QuantileStatistic(values, range_.low, 0.75, target)}};
  result["histogram"] = Histogram(values, range_, target);
  return result;
}

std::vector<CsvRow> OpenNumericKind::CsvRows(const nlohmann::json& result) const {
  std::vector<CsvRow> rows;
  if (!result.at("statistics").is_object()) return rows;
  for (const char* name : {"mean", "std_dev", "median", "lower_quartile", "upper_quartile"}) {
    const auto& statistic = result.at("statistics").at(name);
    CsvRow row;
    row.measure = name;
    row.estimate = statistic.at("value");
    row.ci_low = statistic.at("low");
    row.ci_high = statistic.at("high");
    row.std_error = statistic.value("std_error", nlohmann::json());
    row.consistent = statistic.at("value");
    row.count = result.at("n");
    rows.push_back(std::move(row));
  }
  return rows;
}

Result<std::unique_ptr<TruthSampler>> OpenNumericKind::ParseTruth(const nlohmann::json& entry,
                                                                  const std::string& where) const {
  return ParseOpenValueTruth(range_, entry, where);
}

std::string OpenNumericKind::SimulationText(const nlohmann::json& result) const { return OpenSimulationText(result); }

double OpenNumericKind::UnbiasedValue(const KindResponse& response) const {
  return static_cast<const OpenValueResponse&>(response).value;
}

}  // namespace deniable
