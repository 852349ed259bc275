#include "core/kinds/histogram/histogram_results.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/histogram/custom_bins.h"

namespace deniable {
namespace {

constexpr double kUsefulHalfWidth = 0.05;  // a bin's 95% interval within +-5 points

nlohmann::json NumberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

// An edge as read: 6 significant digits, no trailing zeros (a custom width
// of 1/3 gives "[0.333333, 0.666667)", not twelve digits).
std::string EdgeText(double edge) {
  std::string text = FormatSignificant(edge, 6);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string BinLabel(double low, double high, bool last) {
  return "[" + EdgeText(low) + ", " + EdgeText(high) + (last ? "]" : ")");
}

// A consumer's bins: unbiased with the exact variance (level_estimates.h), and consistent (sums of the
// consistent cells) with the unbiased interval clipped to [0, 1] and stretched to hold it.
nlohmann::json ConsumerJson(const HistogramQuestionKind& kind, const ConsumerRequest& consumer,
                            const LevelEstimates& estimates) {
  const FinePartition& partition = kind.partition();
  const std::vector<int> starts = partition.BinStarts(consumer.boundaries);
  const bool any = estimates.n() > 0;
  const auto shown = [any](double value) { return any ? NumberOrNull(value) : nlohmann::json(); };
  auto list = nlohmann::json::array();
  double widest = 0.0;
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
    const int first = starts[b], end = starts[b + 1];
    const RangeEstimate range = estimates.Range(first, end);
    const double std_error = std::sqrt(range.variance);
    const double low = range.frequency - kZ95 * std_error, high = range.frequency + kZ95 * std_error;
    double consistent = 0.0;
    for (int k = first; k < end; ++k) consistent += estimates.consistent_cells()[static_cast<std::size_t>(k)];
    if (any) widest = std::max(widest, kZ95 * std::sqrt(estimates.PlanningVariance(first, end)));
    list.push_back({{"low", partition.BoundaryValue(first)},
                    {"high", partition.BoundaryValue(end)},
                    {"fine_cells", end - first},
                    {"count", shown(range.frequency * static_cast<double>(estimates.n()))},
                    {"frequency", shown(range.frequency)},
                    {"std_error", shown(std_error)},
                    {"ci_low", shown(low)},
                    {"ci_high", shown(high)},
                    {"consistent_frequency", shown(consistent)},
                    {"consistent_ci_low", shown(std::min(std::clamp(low, 0.0, 1.0), consistent))},
                    {"consistent_ci_high", shown(std::max(std::clamp(high, 0.0, 1.0), consistent))}});
  }
  std::vector<double> edges;
  for (int start : starts) edges.push_back(partition.BoundaryValue(start));
  return {{"name", consumer.name}, {"edges", edges}, {"bins", list}, {"expected_ci_half_width", any ? NumberOrNull(widest) : nlohmann::json()}};
}

nlohmann::json CustomJson(const HistogramQuestionKind& kind, const LevelEstimates& estimates,
                          const std::vector<double>& edges) {
  if (edges.empty()) return nullptr;
  auto list = nlohmann::json::array();
  bool exact = true;
  const bool any = estimates.n() > 0;
  const auto shown = [any](double value) { return any ? NumberOrNull(value) : nlohmann::json(); };
  for (const CustomBin& bin : EstimateCustomBins(kind.partition(), estimates, edges)) {
    exact = exact && bin.exact;
    list.push_back({{"low", bin.low_edge},
                    {"high", bin.high_edge},
                    {"frequency", shown(bin.frequency)},
                    {"std_error", shown(bin.std_error)},
                    {"ci_low", shown(bin.ci_low)},
                    {"ci_high", shown(bin.ci_high)},
                    {"consistent_frequency", shown(bin.consistent_frequency)},
                    {"consistent_ci_low", shown(bin.consistent_ci_low)},
                    {"consistent_ci_high", shown(bin.consistent_ci_high)},
                    {"exact", bin.exact},
                    {"bias_bound", bin.bias_bound},
                    {"worst_case_bias", bin.worst_case_bias}});
  }
  return {{"edges", edges},
          {"exact", exact},
          {"note", exact ? nlohmann::json()
                         : nlohmann::json("approximate: some edges cut fine cells, whose answers the reports cannot "
                                          "place within the cell; those cells are shared by overlap. The bias bound is "
                                          "the most a share can be off if the answers spread smoothly within a cell; "
                                          "the worst-case bias, if they sit anywhere in it (e.g. stacked at whole "
                                          "numbers); the interval holds whatever they do")},
          {"bins", list}};
}

struct CdfCurve {
  std::vector<double> points, value, low, high;
};

// At every fine boundary: 0 at a, 1 at b, between them the cells below.
CdfCurve FineCdf(const FinePartition& partition, const LevelEstimates& estimates) {
  CdfCurve cdf;
  for (int h = 0; h <= partition.cells(); ++h) {
    double value = h == 0 ? 0.0 : 1.0, low = value, high = value;
    if (h > 0 && h < partition.cells()) {
      const RangeEstimate below = estimates.Range(0, h);
      if (!std::isfinite(below.variance)) {
        value = low = high = std::nan("");
        cdf.points.push_back(partition.BoundaryValue(h));
        cdf.value.push_back(value);
        cdf.low.push_back(low);
        cdf.high.push_back(high);
        continue;
      }
      const double sd = std::sqrt(below.variance);
      value = std::clamp(below.frequency, 0.0, 1.0);
      low = std::clamp(below.frequency - kZ95 * sd, 0.0, value);
      high = std::clamp(below.frequency + kZ95 * sd, value, 1.0);
    }
    cdf.points.push_back(partition.BoundaryValue(h));
    cdf.value.push_back(value);
    cdf.low.push_back(low);
    cdf.high.push_back(high);
  }
  return cdf;
}

// The first boundary index where `curve` reaches q (the last when it never does).
std::size_t FirstReaching(const std::vector<double>& curve, double q) {
  for (std::size_t h = 0; h < curve.size(); ++h) {
    if (curve[h] >= q) return h;
  }
  return curve.size() - 1;
}

nlohmann::json QuantileJson(const CdfCurve& cdf, double q) {
  const std::size_t at = std::max<std::size_t>(1, FirstReaching(cdf.value, q));
  const double rise = cdf.value[at] - cdf.value[at - 1];
  const double share = rise > 0.0 ? std::clamp((q - cdf.value[at - 1]) / rise, 0.0, 1.0) : 1.0;
  const double value = cdf.points[at - 1] + share * (cdf.points[at] - cdf.points[at - 1]);
  // Where the band's top first reaches q the CDF may already: the quantile may lie anywhere in the cell before.
  const std::size_t earliest = FirstReaching(cdf.high, q);
  const double low = cdf.points[earliest == 0 ? 0 : earliest - 1];
  const double high = cdf.points[FirstReaching(cdf.low, q)];
  return {{"value", value}, {"low", std::min(low, value)}, {"high", std::max(high, value)}};
}

nlohmann::json SampleSizeWarning(const nlohmann::json& histograms, std::int64_t n) {
  if (n == 0) return "no reports yet";
  double widest = 0.0;
  std::string name;
  for (const auto& histogram : histograms) {
    const auto& given = histogram.at("expected_ci_half_width");
    // Null: some bin needs a level of the tree that no report has chosen yet.
    if (!given.is_number()) {
      return "n = " + std::to_string(n) + " is too small: no report has yet described a level of the tree that \"" +
             histogram.at("name").get<std::string>() + "\" needs, so some of its bins have no estimate";
    }
    const double half_width = given.get<double>();
    if (half_width > widest) widest = half_width, name = histogram.at("name").get<std::string>();
  }
  if (widest <= kUsefulHalfWidth) return nullptr;
  return "n = " + std::to_string(n) + " is too small for useful estimates: a bin of \"" + name +
         "\" has a 95% interval about ±" + FormatSignificant(widest * 100, 2) + " percentage points wide";
}

}  // namespace

nlohmann::json HistogramResultToJson(const HistogramQuestionKind& kind, const HistogramAggregate& aggregate,
                                     const HistogramEstimateOptions& options) {
  const LevelEstimates estimates = kind.Estimates(aggregate, options.interval);
  const FinePartition& partition = kind.partition();
  const bool any = aggregate.n() > 0;
  nlohmann::json fine = {{"edges", nlohmann::json::array()}, {"frequency", nlohmann::json::array()},
                         {"std_error", nlohmann::json::array()}, {"consistent_frequency", nlohmann::json::array()}};
  for (int h = 0; h <= partition.cells(); ++h) fine["edges"].push_back(partition.BoundaryValue(h));
  for (int cell = 0; cell < partition.cells(); ++cell) {
    const RangeEstimate range = estimates.Range(cell, cell + 1);
    fine["frequency"].push_back(any ? NumberOrNull(range.frequency) : nlohmann::json());
    fine["std_error"].push_back(any ? NumberOrNull(std::sqrt(range.variance)) : nlohmann::json());
    fine["consistent_frequency"].push_back(any ? NumberOrNull(estimates.consistent_cells()[static_cast<std::size_t>(cell)])
                                               : nlohmann::json());
  }
  auto histograms = nlohmann::json::array();
  for (const ConsumerRequest& consumer : kind.consumers()) histograms.push_back(ConsumerJson(kind, consumer, estimates));
  const nlohmann::json summary = kind.PageSummary();
  nlohmann::json document = {{"range", {kind.range().low, kind.range().high}},
                             {"unit", kind.unit()},
                             {"mechanism", kind.MechanismToJson()},
                             {"privacy", kind.PrivacyToJson()},
                             {"n", aggregate.n()},
                             {"interval_for", IntervalForJson(options.interval)},
                             {"bits_per_report", kind.shape().Leaves()},
                             {"tree", summary.at("tree")},
                             {"fine", fine},
                             {"histograms", histograms},
                             {"custom", CustomJson(kind, estimates, CustomEdges(kind, options))},
                             {"cdf", nullptr},
                             {"quantiles", nullptr},
                             {"warning", SampleSizeWarning(histograms, aggregate.n())}};
  if (!any) return document;
  const CdfCurve cdf = FineCdf(partition, estimates);
  for (double value : cdf.value) {
    if (!std::isfinite(value)) return document;  // a level the CDF needs has no reports yet
  }
  document["cdf"] = {{"points", cdf.points}, {"value", cdf.value}, {"low", cdf.low}, {"high", cdf.high}};
  document["quantiles"] = {{"lower_quartile", QuantileJson(cdf, 0.25)},
                           {"median", QuantileJson(cdf, 0.5)},
                           {"upper_quartile", QuantileJson(cdf, 0.75)}};
  return document;
}

std::vector<CsvRow> HistogramCsvRows(const nlohmann::json& result) {
  std::vector<CsvRow> rows;
  const auto add_bins = [&rows](const std::string& name, const nlohmann::json& bins) {
    for (std::size_t b = 0; b < bins.size(); ++b) {
      const auto& bin = bins[b];
      rows.push_back({name + " " + BinLabel(bin.at("low").get<double>(), bin.at("high").get<double>(), b + 1 == bins.size()),
                      "frequency", bin.at("frequency"), bin.at("std_error"), bin.at("ci_low"), bin.at("ci_high"),
                      bin.at("consistent_frequency"), bin.value("count", nlohmann::json())});
    }
  };
  for (const auto& histogram : result.at("histograms")) add_bins(histogram.at("name").get<std::string>(), histogram.at("bins"));
  if (result.at("custom").is_object()) add_bins("custom", result.at("custom").at("bins"));
  if (result.at("quantiles").is_object()) {
    for (const char* name : {"lower_quartile", "median", "upper_quartile"}) {
      const auto& quantile = result.at("quantiles").at(name);
      rows.push_back({"", name, quantile.at("value"), nullptr, quantile.at("low"), quantile.at("high"), nullptr, nullptr});
    }
  }
  return rows;
}

}  // namespace deniable
