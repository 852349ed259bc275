#include "core/kinds/histogram/histogram_results.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"
#include "core/kinds/histogram/consumer_bins.h"
#include "core/kinds/histogram/custom_bins.h"

namespace deniable {
namespace {

constexpr double kUsefulHalfWidth = 0.05;  // a bin's 95% interval within +-5 points

nlohmann::json NumberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

std::string BinLabel(double low, double high, bool last) {
  return "[" + FormatNumber(low) + ", " + FormatNumber(high) + (last ? "]" : ")");
}

// A consumer's bins: unbiased with the exact variance, and consistent (sums of Norm-Sub fine cells) with the
// unbiased interval clipped to [0, 1] and stretched to hold it.
nlohmann::json ConsumerJson(const HistogramQuestionKind& kind, const ConsumerRequest& consumer,
                            const FrequencyEstimate& cells, SupportProbabilities pq) {
  const FinePartition& partition = kind.partition();
  const std::vector<int> starts = partition.BinStarts(consumer.boundaries);
  const std::vector<BinEstimate> bins = EstimateBins(cells, starts, pq);
  auto list = nlohmann::json::array();
  std::vector<double> edges;
  for (std::size_t b = 0; b < bins.size(); ++b) {
    const BinEstimate& bin = bins[b];
    double consistent = 0.0;
    for (int k = bin.first_cell; k < bin.end_cell; ++k) consistent += cells.options[static_cast<std::size_t>(k)].consistent_frequency;
    const double low = partition.BoundaryValue(bin.first_cell), high = partition.BoundaryValue(bin.end_cell);
    edges.push_back(low);
    const bool any = cells.n > 0;
    list.push_back({{"low", low},
                    {"high", high},
                    {"fine_cells", bin.end_cell - bin.first_cell},
                    {"count", any ? NumberOrNull(bin.count) : nlohmann::json()},
                    {"frequency", any ? NumberOrNull(bin.frequency) : nlohmann::json()},
                    {"std_error", any ? NumberOrNull(bin.std_error) : nlohmann::json()},
                    {"ci_low", any ? NumberOrNull(bin.ci_low) : nlohmann::json()},
                    {"ci_high", any ? NumberOrNull(bin.ci_high) : nlohmann::json()},
                    {"consistent_frequency", any ? NumberOrNull(consistent) : nlohmann::json()},
                    {"consistent_ci_low", any ? NumberOrNull(std::min(std::clamp(bin.ci_low, 0.0, 1.0), consistent))
                                              : nlohmann::json()},
                    {"consistent_ci_high", any ? NumberOrNull(std::max(std::clamp(bin.ci_high, 0.0, 1.0), consistent))
                                               : nlohmann::json()}});
  }
  edges.push_back(kind.range().high);
  int widest = 0;
  for (const BinEstimate& bin : bins) widest = std::max(widest, bin.end_cell - bin.first_cell);
  return {{"name", consumer.name},
          {"edges", edges},
          {"bins", list},
          {"expected_ci_half_width", cells.n > 0 ? NumberOrNull(PlanningBinHalfWidth(pq, widest, static_cast<double>(cells.n)))
                                                 : nlohmann::json()}};
}

nlohmann::json CustomJson(const HistogramQuestionKind& kind, const FrequencyEstimate& cells, SupportProbabilities pq,
                          const std::vector<double>& edges) {
  if (edges.empty()) return nullptr;
  auto list = nlohmann::json::array();
  bool exact = true;
  for (const CustomBin& bin : EstimateCustomBins(kind.partition(), cells, pq, edges)) {
    exact = exact && bin.exact;
    const bool any = cells.n > 0;
    list.push_back({{"low", bin.low_edge},
                    {"high", bin.high_edge},
                    {"frequency", any ? NumberOrNull(bin.frequency) : nlohmann::json()},
                    {"std_error", any ? NumberOrNull(bin.std_error) : nlohmann::json()},
                    {"ci_low", any ? NumberOrNull(bin.ci_low) : nlohmann::json()},
                    {"ci_high", any ? NumberOrNull(bin.ci_high) : nlohmann::json()},
                    {"consistent_frequency", any ? NumberOrNull(bin.consistent_frequency) : nlohmann::json()},
                    {"exact", bin.exact},
                    {"bias_bound", bin.bias_bound}});
  }
  return {{"edges", edges},
          {"exact", exact},
          {"note", exact ? nlohmann::json()
                         : nlohmann::json("approximate: some edges cut fine cells, whose answers the reports cannot "
                                          "place within the cell; those cells are shared by overlap, bias_bound is "
                                          "the most that can be off, and the interval holds whatever the answers "
                                          "do inside them")},
          {"bins", list}};
}

struct CdfCurve {
  std::vector<double> points, value, low, high;
};

// At every fine boundary: 0 at a, 1 at b, between them the cells below.
CdfCurve FineCdf(const FinePartition& partition, const FrequencyEstimate& cells, SupportProbabilities pq) {
  CdfCurve cdf;
  const auto n = static_cast<double>(cells.n);
  double below = 0.0;
  for (int h = 0; h <= partition.cells(); ++h) {
    if (h > 0) below += cells.options[static_cast<std::size_t>(h - 1)].count;
    double value = h == partition.cells() ? 1.0 : below / n, low = value, high = value;
    if (h > 0 && h < partition.cells()) {
      const double sd = std::sqrt(BinCountVariance(pq, below, h, n)) / n;
      value = std::clamp(value, 0.0, 1.0);
      low = std::clamp(below / n - kZ95 * sd, 0.0, value);
      high = std::clamp(below / n + kZ95 * sd, value, 1.0);
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
    const double half_width = histogram.at("expected_ci_half_width").get<double>();
    if (half_width > widest) widest = half_width, name = histogram.at("name").get<std::string>();
  }
  if (widest <= kUsefulHalfWidth) return nullptr;
  return "n = " + std::to_string(n) + " is too small for useful estimates: a bin of \"" + name +
         "\" has a 95% interval about +-" + FormatNumber(std::round(widest * 1000) / 10) + " percentage points wide";
}

}  // namespace

FrequencyEstimate EstimateFineCells(const HistogramQuestionKind& kind, const HistogramAggregate& aggregate) {
  return EstimateFrequencies(aggregate.bit_counts(), aggregate.n(), kind.mechanism().probabilities());
}

double PlanningBinHalfWidth(SupportProbabilities pq, int cells, double n) {
  return kZ95 * std::sqrt(BinCountVariance(pq, 0.0, cells, n)) / n;
}

nlohmann::json HistogramResultToJson(const HistogramQuestionKind& kind, const HistogramAggregate& aggregate,
                                     const HistogramEstimateOptions& options) {
  const FrequencyEstimate cells = EstimateFineCells(kind, aggregate);
  const SupportProbabilities pq = kind.mechanism().probabilities();
  const FinePartition& partition = kind.partition();
  nlohmann::json fine = {{"edges", nlohmann::json::array()}, {"frequency", nlohmann::json::array()},
                         {"std_error", nlohmann::json::array()}, {"consistent_frequency", nlohmann::json::array()}};
  for (int h = 0; h <= partition.cells(); ++h) fine["edges"].push_back(partition.BoundaryValue(h));
  for (const OptionEstimate& cell : cells.options) {
    fine["frequency"].push_back(NumberOrNull(cell.frequency));
    fine["std_error"].push_back(NumberOrNull(cell.std_error));
    fine["consistent_frequency"].push_back(NumberOrNull(cell.consistent_frequency));
  }
  auto histograms = nlohmann::json::array();
  for (const ConsumerRequest& consumer : kind.consumers()) histograms.push_back(ConsumerJson(kind, consumer, cells, pq));
  nlohmann::json document = {{"range", {kind.range().low, kind.range().high}},
                             {"unit", kind.unit()},
                             {"mechanism", kind.MechanismToJson()},
                             {"privacy", kind.PrivacyToJson()},
                             {"n", aggregate.n()},
                             {"bits_per_report", partition.cells()},
                             {"fine", fine},
                             {"histograms", histograms},
                             {"custom", CustomJson(kind, cells, pq, CustomEdges(kind, options))},
                             {"cdf", nullptr},
                             {"quantiles", nullptr},
                             {"warning", SampleSizeWarning(histograms, aggregate.n())}};
  if (aggregate.n() == 0) return document;
  const CdfCurve cdf = FineCdf(partition, cells, pq);
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
                      bin.value("count", nlohmann::json()), bin.at("frequency"), bin.at("std_error"), bin.at("ci_low"),
                      bin.at("ci_high"), bin.at("consistent_frequency")});
    }
  };
  for (const auto& histogram : result.at("histograms")) add_bins(histogram.at("name").get<std::string>(), histogram.at("bins"));
  if (result.at("custom").is_object()) add_bins("custom", result.at("custom").at("bins"));
  if (result.at("quantiles").is_object()) {
    for (const char* name : {"lower_quartile", "median", "upper_quartile"}) {
      const auto& quantile = result.at("quantiles").at(name);
      rows.push_back({name, nullptr, quantile.at("value"), nullptr, quantile.at("low"), quantile.at("high"), nullptr});
    }
  }
  return rows;
}

}  // namespace deniable
