// Coverage of the numeric results' 95% intervals over a library of answer
// shapes (issue 10): for each shape, n, and mechanism, `seeds` simulated
// surveys go through the real client perturbation and the real results
// (NumericResultToJson, default options unless given); each statistic's
// interval is checked against the simulated respondents' own value (the
// estimand a survey reports on), and against its own estimate.
//
// Prints one row per (shape, n, mechanism): per statistic the coverage of the
// shown intervals in percent (with its Monte-Carlo standard error over the
// seeds in the header), the number of runs whose estimate lay outside its own
// interval, the median interval width as a percentage of the answer range,
// and the runs with a note or with the statistic withheld; then the average
// share of CDF display points and of histogram bins whose pointwise 95% band
// holds the answers' own value, and of density display points whose band
// holds the answers' own density averaged over the window the band is for. Ends with the cells below 90% and a summary line.
//
//   build/coverage [--seeds S] [--n 300,3000,30000] [--shapes a,b] [--mechanisms a,b] [--replicates R] [--quick]
//
// --quick: 3 shapes (normal, concentrated, ratings), n = 3000, two mechanisms,
// 8 seeds: about a minute. The full grid is 10 shapes x 3 n x 12 mechanisms.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/numeric/numeric_truth.h"
#include "core/survey/survey.h"
#include "bench/coverage_bands.h"
#include "bench/coverage_shapes.h"

namespace {

using namespace deniable::coverage;
using deniable::NumericRange;
using deniable::RandomSource;
using deniable::SeededRandom;
using nlohmann::json;

struct Mechanism {
  std::string name;
  json definition;
};

std::vector<Mechanism> Mechanisms() {
  std::vector<Mechanism> list;
  for (const char* name : {"laplace", "duchi", "piecewise", "hybrid", "square_wave"}) {
    for (double epsilon : {1.0, 4.0}) {
      list.push_back({std::string(name) + "_e" + std::to_string(static_cast<int>(epsilon)),
                      {{"name", name}, {"epsilon", epsilon}}});
    }
  }
  // RVNS windows as a share of the range (set per shape below).
  list.push_back({"rvns_w10", {{"name", "rvns"}, {"window_share", 0.1}, {"values", 2}, {"window_mode", "fresh"}}});
  list.push_back({"rvns_w30", {{"name", "rvns"}, {"window_share", 0.3}, {"values", 2}, {"window_mode", "fresh"}}});
  return list;
}

json MechanismFor(const Mechanism& mechanism, NumericRange range) {
  json definition = mechanism.definition;
  if (definition.contains("window_share")) {
    definition["window"] = definition["window_share"].get<double>() * range.width();
    definition.erase("window_share");
  }
  return definition;
}

deniable::Question MakeQuestion(const Shape& shape, const json& mechanism) {
  auto survey = deniable::ParseSurvey(deniable::coverage::SurveyDefinition(shape, mechanism));
  if (!survey) {
    std::fprintf(stderr, "coverage: %s: %s\n", shape.name.c_str(), survey.error().c_str());
    std::exit(1);
  }
  return survey->questions.front();
}

const std::vector<std::string> kStatistics = {"mean",           "std_dev",  "median", "lower_quartile",
                                              "upper_quartile", "skewness", "kurtosis"};

struct Tally {
  int runs = 0;
  int failed = 0;  // estimation errors or no statistics
  std::map<std::string, int> covered, outside, shown, withheld, noted;
  std::vector<double> cdf_shares, histogram_shares;  // per run: share of CDF points / histogram bins whose band covers
  std::vector<double> density_shares;                 // per run: share of density points whose band covers
  std::vector<double> density_widths;                 // per run: mean band width x the range's width (1 = a uniform density)
  std::vector<double> cdf_widths;                     // per run: mean CDF band width
  std::map<std::string, std::vector<double>> widths;
};

// P(X <= k) for X ~ Binomial(n, p): how likely that few covering intervals
// would be if the true coverage were p (at 10 seeds a true 95% shows 80% or
// less 8.6% of the time, so cells below 90% are expected by chance alone).
double BinomialAtMost(int k, int n, double p) {
  double total = 0.0;
  for (int i = 0; i <= k; ++i) {
    total += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + i * std::log(p) +
                      (n - i) * std::log1p(-p));
  }
  return total;
}

double MeanBandWidth(const json& curve) {
  double sum = 0.0;
  for (std::size_t k = 0; k < curve["low"].size(); ++k) sum += curve["high"][k].get<double>() - curve["low"][k].get<double>();
  return curve["low"].empty() ? NAN : sum / static_cast<double>(curve["low"].size());
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) items.push_back(item);
  return items;
}

bool Selected(const std::vector<std::string>& wanted, const std::string& name) {
  return wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
}

double Median(std::vector<double> values) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 20;
  std::vector<int> sizes = {300, 3000, 30000};
  std::vector<std::string> shapes_wanted, mechanisms_wanted;
  deniable::NumericEstimateOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const std::string value = i + 1 < argc ? argv[i + 1] : "";
    if (flag == "--seeds") seeds = std::atoi(value.c_str()), ++i;
    else if (flag == "--n") {
      sizes.clear();
      for (const auto& item : Split(value)) sizes.push_back(std::atoi(item.c_str()));
      ++i;
    } else if (flag == "--shapes") shapes_wanted = Split(value), ++i;
    else if (flag == "--mechanisms") mechanisms_wanted = Split(value), ++i;
    else if (flag == "--replicates") options.replicates = std::atoi(value.c_str()), ++i;
    else if (flag == "--interval") options.interval = value, ++i;
    else if (flag == "--penalty") options.curvature_penalty = std::atof(value.c_str()), ++i;
    else if (flag == "--estimator") options.estimator = value, ++i;
    else if (flag == "--cells") options.estimation_cells = std::atoi(value.c_str()), ++i;
    else if (flag == "--iterations") options.max_iterations = std::atoi(value.c_str()), ++i;
    else if (flag == "--quick") {
      seeds = 8;
      sizes = {3000};
      shapes_wanted = {"normal", "concentrated", "ratings"};
      mechanisms_wanted = {"square_wave_e1", "laplace_e4"};
    } else {
      std::fprintf(stderr, "usage: coverage [--seeds S] [--n a,b] [--shapes a,b] [--mechanisms a,b] "
                           "[--replicates R] [--quick]\n");
      return 2;
    }
  }
  const double mc_error = 100.0 * std::sqrt(0.95 * 0.05 / seeds);
  std::printf("coverage of the 95%% intervals, %d seeds per cell (Monte-Carlo SE at 95%%: %.1f points); "
              "cov%% per statistic = share of the shown intervals that cover, out = runs with the estimate outside its "
              "interval, w%% = median width / range (skewness, kurtosis: / 1), note = runs whose statistic carries a "
              "note (unreliable), none = runs where it was withheld (no value, no interval)\n\n",
              seeds, mc_error);
  std::printf("| shape | n | mechanism | failed |");
  for (const auto& s : kStatistics) std::printf(" %s cov%% / out / w%% / note / none |", s.c_str());
  std::printf(" CDF band: points covered %% / mean width | histogram band: bins covered %% | density band: points covered "
              "%% / mean width (x uniform density) |");
  std::printf("\n|---|---:|---|---:|");
  for (std::size_t s = 0; s < kStatistics.size() + 3; ++s) std::printf("---|");
  std::printf("\n");
  int cells = 0, cells_below = 0, outside_total = 0, runs_total = 0, significant = 0;
  std::vector<std::string> below;
  for (const Shape& shape : Shapes()) {
    if (!Selected(shapes_wanted, shape.name)) continue;
    for (int n : sizes) {
      for (const Mechanism& mechanism : Mechanisms()) {
        if (!Selected(mechanisms_wanted, mechanism.name)) continue;
        const deniable::Question question = MakeQuestion(shape, MechanismFor(mechanism, shape.range));
        const auto& kind = deniable::NumericKindOf(question);
        Tally tally;
        for (int seed = 1; seed <= seeds; ++seed) {
          SeededRandom random(static_cast<std::uint64_t>(seed) * 7919u + static_cast<std::uint64_t>(n));
          const auto answers = DrawAnswers(shape, n, random);
          deniable::NumericAggregate aggregate{0, *deniable::NumericHistogram::ForMechanism(kind.mechanism())};
          for (double answer : answers) (void)aggregate.AddValues(*kind.mechanism().Perturb(answer, random));
          const auto result = deniable::NumericResultToJson(kind, aggregate, options);
          ++tally.runs;
          if (!result || !result->contains("statistics")) {
            ++tally.failed;
            continue;
          }
          const auto truth = Truth(answers);
          if (std::getenv("COVERAGE_DEBUG")) {
            const std::string name = std::getenv("COVERAGE_DEBUG");
            const json& st = (*result)["statistics"][name];
            std::fprintf(stderr, "%s seed %d: truth %.4g estimate %s [%s, %s] note %s penalty %s\n", name.c_str(), seed,
                         truth.at(name), st["value"].dump().c_str(), st["low"].dump().c_str(), st["high"].dump().c_str(),
                         st.value("note", json()).dump().c_str(), (*result)["curvature_penalty"].dump().c_str());
          }
          if ((*result)["cdf"].is_object()) {
            tally.cdf_shares.push_back(CdfBandShare((*result)["cdf"], answers));
            tally.histogram_shares.push_back(HistogramBandShare((*result)["histogram"], answers));
            tally.density_shares.push_back(DensityBandShare((*result)["density"], answers, shape.range));
            tally.density_widths.push_back(MeanBandWidth((*result)["density"]) * shape.range.width());
            tally.cdf_widths.push_back(MeanBandWidth((*result)["cdf"]));
          }
          for (const auto& name : kStatistics) {
            const json& statistic = (*result)["statistics"][name];
            tally.noted[name] += statistic.value("note", json()).is_string() ? 1 : 0;
            if (!statistic["low"].is_number()) {  // withheld (said so): not counted in the coverage
              ++tally.withheld[name];
              continue;
            }
            ++tally.shown[name];
            const double low = statistic["low"].get<double>(), high = statistic["high"].get<double>();
            const double value = statistic["value"].get<double>();
            tally.covered[name] += low <= truth.at(name) && truth.at(name) <= high ? 1 : 0;
            tally.outside[name] += value < low || value > high ? 1 : 0;
            const bool location = name != "skewness" && name != "kurtosis";
            tally.widths[name].push_back(100.0 * (high - low) / (location ? shape.range.width() : 1.0));
          }
        }
        std::printf("| %s | %d | %s | %d |", shape.name.c_str(), n, mechanism.name.c_str(), tally.failed);
        ++cells;
        bool low_cell = false;
        for (const auto& name : kStatistics) {
          const int counted = tally.shown[name];
          const double coverage = counted > 0 ? 100.0 * tally.covered[name] / counted : NAN;
          std::printf(" %.0f / %d / %.2g / %d / %d |", coverage, tally.outside[name],
                      tally.widths[name].empty() ? NAN : Median(tally.widths[name]), tally.noted[name],
                      tally.withheld[name]);
          outside_total += tally.outside[name];
          if (counted > 0 && !(coverage >= 90.0)) {
            low_cell = true;
            const double p = BinomialAtMost(tally.covered[name], counted, 0.9);
            significant += p < 0.01 ? 1 : 0;
            char chance[96];
            std::snprintf(chance, sizeof chance, " (%d of %d; P(that few | 90%%) = %.3g)", tally.covered[name], counted, p);
            below.push_back(shape.name + " n=" + std::to_string(n) + " " + mechanism.name + " " + name + " " +
                            std::to_string(static_cast<int>(std::round(coverage))) + "%" + chance);
          }
        }
        auto average = [](const std::vector<double>& v) {
          double sum = 0.0;
          for (double x : v) sum += x;
          return v.empty() ? NAN : 100.0 * sum / static_cast<double>(v.size());
        };
        std::printf(" %.0f / %.2g | %.0f | %.0f / %.2g |", average(tally.cdf_shares), Median(tally.cdf_widths),
                    average(tally.histogram_shares), average(tally.density_shares), Median(tally.density_widths));
        runs_total += tally.runs;
        cells_below += low_cell ? 1 : 0;
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  }
  std::printf("\nbelow 90%%:\n");
  for (const auto& item : below) std::printf("  %s\n", item.c_str());
  std::printf("\nsummary: %d cells, %d with a statistic below 90%% (%d (cell, statistic) pairs below 90%% beyond chance: "
              "P < 0.01 at a true 90%%), %d (statistic, run) pairs with the estimate outside its interval, %d runs\n",
              cells, cells_below, significant, outside_total, runs_total);
  return 0;
}
