// Coverage of the numeric results' 95% intervals over a library of answer
// shapes (issue 10): for each shape, n, and mechanism, `seeds` simulated
// surveys go through the real client perturbation and the real results
// (NumericResultToJson, default options unless given); each statistic's
// interval is checked against the statistic's target (the population's value
// by default, as the results' "interval_for" says; --truth respondents: the
// simulated respondents' own value), and against its own estimate.
//
// Width ratio (issue 26): per (cell, statistic) the median half-width of the
// shown intervals over 1.96 x the estimate's RMSE about the target over the
// seeds (the half-width an exact interval would have); 1 is exact, above 1
// wider than needed. The table ends with the median ratio over all (cell,
// statistic) pairs and per statistic.
//
// Real answers: --csv FILE:COLUMN:LOW:HIGH[:STEP] (repeatable) adds a shape
// whose respondents are drawn with replacement from the column's values (the
// population is the table). bench/fetch-numeric-data.sh extracts public
// tables (RAND health insurance experiment, Fair's affairs survey).
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
//                  [--truth population|respondents] [--csv FILE:COLUMN:LOW:HIGH[:STEP]]...
//
// --quick: 3 shapes (normal, concentrated, ratings), n = 3000, two mechanisms,
// 8 seeds: about a minute. The full grid is 10 shapes x 3 n x 12 mechanisms.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/kinds/numeric/numeric_truth.h"
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
  std::map<std::string, std::vector<double>> half_widths, errors;  // in the statistic's units; errors about the target
};

// Median half-width over 1.96 x RMSE of the estimates about their target (NAN without runs).
double WidthRatio(const std::vector<double>& half_widths, const std::vector<double>& errors) {
  if (errors.empty()) return NAN;
  double squares = 0.0;
  for (double e : errors) squares += e * e;
  const double rmse = std::sqrt(squares / static_cast<double>(errors.size()));
  std::vector<double> sorted = half_widths;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  return rmse > 0.0 ? median / (1.96 * rmse) : (median > 0.0 ? INFINITY : NAN);
}

// A column of a CSV table (header first, comma-separated, quotes stripped) as a
// shape: respondents drawn with replacement from its values.
Shape CsvShape(const std::string& spec) {
  std::vector<std::string> parts;
  std::stringstream stream(spec);
  for (std::string item; std::getline(stream, item, ':');) parts.push_back(item);
  if (parts.size() < 4) {
    std::fprintf(stderr, "coverage: --csv wants FILE:COLUMN:LOW:HIGH[:STEP], got %s\n", spec.c_str());
    std::exit(2);
  }
  std::ifstream file(parts[0]);
  auto cells = [](const std::string& line) {
    std::vector<std::string> out;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) {
      cell.erase(std::remove(cell.begin(), cell.end(), '"'), cell.end());
      out.push_back(cell);
    }
    return out;
  };
  std::string line;
  if (!std::getline(file, line)) {
    std::fprintf(stderr, "coverage: cannot read %s\n", parts[0].c_str());
    std::exit(2);
  }
  const auto header = cells(line);
  const auto column = std::find(header.begin(), header.end(), parts[1]) - header.begin();
  if (column == static_cast<long>(header.size())) {
    std::fprintf(stderr, "coverage: %s has no column %s\n", parts[0].c_str(), parts[1].c_str());
    std::exit(2);
  }
  auto values = std::make_shared<std::vector<double>>();
  while (std::getline(file, line)) values->push_back(std::atof(cells(line)[static_cast<std::size_t>(column)].c_str()));
  Shape shape{parts[1], {std::atof(parts[2].c_str()), std::atof(parts[3].c_str())},
              [values](RandomSource& r) {
                return (*values)[std::min(values->size() - 1, static_cast<std::size_t>(Unit(r) * values->size()))];
              },
              parts.size() > 4 ? std::atof(parts[4].c_str()) : 0.0};
  shape.population = values;
  return shape;
}

// The target of the population intervals: the shape's own statistics, from
// its table, or from 400,000 draws (Monte-Carlo error far below any interval here).
std::map<std::string, double> PopulationTruth(const Shape& shape) {
  if (shape.population) return Truth(*shape.population);
  SeededRandom random(0x706f70756c6174ULL);
  return Truth(DrawAnswers(shape, 400000, random));
}

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
  bool population = true;
  std::vector<Shape> shapes = Shapes();
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
    else if (flag == "--interval") options.interval_method = value, ++i;
    else if (flag == "--truth") population = value != "respondents", ++i;
    else if (flag == "--csv") shapes.push_back(CsvShape(value)), ++i;
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
                           "[--replicates R] [--quick] [--truth population|respondents] "
                           "[--csv FILE:COLUMN:LOW:HIGH[:STEP]]\n");
      return 2;
    }
  }
  const double mc_error = 100.0 * std::sqrt(0.95 * 0.05 / seeds);
  std::printf("coverage of the 95%% intervals, %d seeds per cell (Monte-Carlo SE at 95%%: %.1f points); "
              "cov%% per statistic = share of the shown intervals that cover the %s's value, out = runs with the estimate "
              "outside its interval, w%% = median width / range (skewness, kurtosis: / 1), ratio = median half-width / "
              "(1.96 x RMSE about the target), note = runs whose statistic carries a "
              "note (unreliable), none = runs where it was withheld (no value, no interval)\n\n",
              seeds, mc_error, population ? "population" : "respondents");
  std::printf("| shape | n | mechanism | failed |");
  for (const auto& s : kStatistics) std::printf(" %s cov%% / out / w%% / ratio / note / none |", s.c_str());
  std::printf(" CDF band: points covered %% / mean width | histogram band: bins covered %% | density band: points covered "
              "%% / mean width (x uniform density) |");
  std::printf("\n|---|---:|---|---:|");
  for (std::size_t s = 0; s < kStatistics.size() + 3; ++s) std::printf("---|");
  std::printf("\n");
  int cells = 0, cells_below = 0, outside_total = 0, runs_total = 0, significant = 0;
  std::vector<std::string> below;
  std::vector<double> ratios;                              // per (cell, statistic)
  std::map<std::string, std::vector<double>> ratios_of;  // per statistic
  for (const Shape& shape : shapes) {
    if (!Selected(shapes_wanted, shape.name)) continue;
    const auto population_truth = PopulationTruth(shape);
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
          const auto truth = population ? population_truth : Truth(answers);
          if (std::getenv("COVERAGE_DEBUG")) {
            const std::string name = std::getenv("COVERAGE_DEBUG");
            const json& st = (*result)["statistics"][name];
            std::fprintf(stderr, "%s seed %d: truth %.4g estimate %s [%s, %s] note %s penalty %s\n", name.c_str(), seed,
                         truth.at(name), st["value"].dump().c_str(), st["low"].dump().c_str(), st["high"].dump().c_str(),
                         st.value("note", json()).dump().c_str(), (*result)["curvature_penalty"].dump().c_str());
            // COVERAGE_DEBUG_CDF=LOW:HIGH also prints the resolution and the CDF with its band on (LOW, HIGH).
            if (const char* window = std::getenv("COVERAGE_DEBUG_CDF"); window && (*result)["cdf"].is_object()) {
              const double from = std::atof(window), to = std::atof(std::strchr(window, ':') ? std::strchr(window, ':') + 1 : window);
              std::fprintf(stderr, "  resolution %s\n", (*result)["resolution"].dump().c_str());
              const json& cdf = (*result)["cdf"];
              for (std::size_t k = 0; k < cdf["points"].size(); ++k) {
                const double x = cdf["points"][k].get<double>();
                if (x > from && x < to) {
                  std::fprintf(stderr, "  x %.3f cdf %.4f [%.4f, %.4f]\n", x, cdf["value"][k].get<double>(),
                               cdf["low"][k].get<double>(), cdf["high"][k].get<double>());
                }
              }
            }
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
            tally.half_widths[name].push_back(0.5 * (high - low));
            tally.errors[name].push_back(value - truth.at(name));
          }
        }
        std::printf("| %s | %d | %s | %d |", shape.name.c_str(), n, mechanism.name.c_str(), tally.failed);
        ++cells;
        bool low_cell = false;
        for (const auto& name : kStatistics) {
          const int counted = tally.shown[name];
          const double coverage = counted > 0 ? 100.0 * tally.covered[name] / counted : NAN;
          const double ratio = WidthRatio(tally.half_widths[name], tally.errors[name]);
          if (!std::isnan(ratio)) ratios.push_back(ratio), ratios_of[name].push_back(ratio);
          std::printf(" %.0f / %d / %.2g / %.2g / %d / %d |", coverage, tally.outside[name],
                      tally.widths[name].empty() ? NAN : Median(tally.widths[name]), ratio, tally.noted[name],
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
  std::printf("\nwidth ratio (median half-width / (1.96 x RMSE)), median over (cell, statistic) pairs: %.2f (%zu pairs)\n",
              Median(ratios), ratios.size());
  std::printf("| statistic | median ratio | pairs |\n|---|---:|---:|\n");
  for (const auto& name : kStatistics) {
    std::printf("| %s | %.2f | %zu |\n", name.c_str(), Median(ratios_of[name]), ratios_of[name].size());
  }
  std::printf("\nsummary: %d cells, %d with a statistic below 90%% (%d (cell, statistic) pairs below 90%% beyond chance: "
              "P < 0.01 at a true 90%%), %d (statistic, run) pairs with the estimate outside its interval, %d runs\n",
              cells, cells_below, significant, outside_total, runs_total);
  return 0;
}
