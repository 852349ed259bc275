// Coverage of the categorical results' 95% intervals at small n and near
// frequencies 0 and 1 (issue 10), each against its own target (issue 26):
// `seeds` simulated surveys per cell through core's Simulate (the real
// perturbation, validation and estimator), respondents drawn afresh from the
// truth's frequencies (the population) in every survey. Per (mechanism,
// epsilon, truth, n), for the population intervals (the default) against the
// population's frequencies and for the respondents' intervals
// ({"interval": "respondents"}) against the sample's own: the share of options
// covered, the rarest option alone, and the consistent interval's coverage;
// how often the consistent estimate lies outside the default CI; and, as the
// "before" of issue 26, the respondents' interval read as a population one.
// A first table reproduces the real survey of issue 26 (2,435 respondents, a
// yes/no item with 27% yes, GRR at epsilon 1.6: half-width 2.2 points for
// these respondents, 2.8 for the population).
//
//   build/categorical_coverage [--seeds S]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/survey/simulation.h"
#include "core/survey/survey.h"

namespace {

using nlohmann::json;

struct Truth {
  std::string name;
  std::vector<double> frequencies;
};

json Definition(int options, const json& mechanism) {
  json labels = json::array();
  for (int i = 0; i < options; ++i) labels.push_back("option " + std::to_string(i));
  return {{"format", deniable::kSurveyFormat}, {"id", "c"}, {"version", 1}, {"title", "c"},
          {"questions", {{{"id", "q"}, {"text", "q"}, {"options", labels}, {"mechanism", mechanism}}}}};
}

struct Cell {
  int options = 0, population = 0, respondents = 0, respondents_as_population = 0;
  int rare_population = 0, rare_respondents = 0, outside = 0, consistent_population = 0, consistent_respondents = 0;
  double half_population = 0.0, half_respondents = 0.0;  // mean half-width of the rarest option
};

bool Inside(const json& option, const char* low, const char* high, double value) {
  return option[low].get<double>() <= value && value <= option[high].get<double>();
}

// One cell: `seeds` surveys, each estimated for both targets.
deniable::Result<Cell> RunCell(const deniable::Survey& survey, const std::vector<double>& frequencies, int n, int seeds) {
  Cell cell;
  const std::size_t rarest = frequencies.size() - 1;
  double total = 0.0;
  for (double w : frequencies) total += w;
  for (int seed = 1; seed <= seeds; ++seed) {
    deniable::SimulationOptions settings{n, static_cast<std::uint64_t>(seed), nullptr, 1000000000};
    auto wide = deniable::Simulate(survey, {{"q", {{"frequencies", frequencies}}}}, settings);
    settings.estimate = {{"interval", "respondents"}};
    auto tight = deniable::Simulate(survey, {{"q", {{"frequencies", frequencies}}}}, settings);
    if (!wide) return deniable::MakeError(wide.error());
    if (!tight) return deniable::MakeError(tight.error());
    const json& population = (*wide)["questions"][0];
    const json& respondents = (*tight)["questions"][0];
    for (std::size_t i = 0; i < frequencies.size(); ++i) {
      const double share = frequencies[i] / total, own = population["truth"][i].get<double>();
      const json& p = population["options"][i];
      const json& r = respondents["options"][i];
      ++cell.options;
      cell.population += Inside(p, "ci_low", "ci_high", share);
      cell.respondents += Inside(r, "ci_low", "ci_high", own);
      cell.respondents_as_population += Inside(r, "ci_low", "ci_high", share);
      cell.consistent_population += Inside(p, "consistent_ci_low", "consistent_ci_high", share);
      cell.consistent_respondents += Inside(r, "consistent_ci_low", "consistent_ci_high", own);
      const double consistent = p["consistent_frequency"].get<double>();
      cell.outside += consistent < p["ci_low"].get<double>() || consistent > p["ci_high"].get<double>();
      if (i == rarest) {
        cell.rare_population += Inside(p, "ci_low", "ci_high", share);
        cell.rare_respondents += Inside(r, "ci_low", "ci_high", own);
        cell.half_population += (p["ci_high"].get<double>() - p["ci_low"].get<double>()) / 2.0 / seeds;
        cell.half_respondents += (r["ci_high"].get<double>() - r["ci_low"].get<double>()) / 2.0 / seeds;
      }
    }
  }
  return cell;
}

double Percent(int count, int of) { return 100.0 * count / of; }

deniable::Result<deniable::Survey> OneQuestion(int options, const json& mechanism) {
  return deniable::ParseSurvey(Definition(options, mechanism));
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 200;
  if (argc == 3 && std::string(argv[1]) == "--seeds") seeds = std::atoi(argv[2]);

  // The real survey of issue 26: 2,435 respondents, 27% yes, GRR at epsilon 1.6.
  {
    const auto survey = OneQuestion(2, {{"name", "grr"}, {"epsilon", 1.6}});
    auto cell = RunCell(*survey, {0.73, 0.27}, 2435, 4 * seeds);
    if (!cell) {
      std::fprintf(stderr, "%s\n", cell.error().c_str());
      return 1;
    }
    std::printf("issue 26's real-like item (n = 2435, 27%% yes, GRR epsilon 1.6), %d surveys: the yes share's 95%% "
                "interval\n\n", 4 * seeds);
    std::printf("| interval | mean half-width (points) | covers the population's share | covers the respondents' own |\n");
    std::printf("|---|---:|---:|---:|\n");
    std::printf("| before: respondents' (the old default) | %.2f | %.1f%% | %.1f%% |\n", 100.0 * cell->half_respondents,
                Percent(cell->respondents_as_population, cell->options),
                Percent(cell->respondents, cell->options));
    std::printf("| after: population (the default) | %.2f | %.1f%% | |\n\n", 100.0 * cell->half_population,
                Percent(cell->population, cell->options));
  }

  const std::vector<Truth> truths = {{"k=2 [0.98, 0.02]", {0.98, 0.02}},
                                     {"k=5 [0.90, 0.05, 0.03, 0.02, 0]", {0.90, 0.05, 0.03, 0.02, 0.0}},
                                     {"k=5 uniform", {0.2, 0.2, 0.2, 0.2, 0.2}}};
  std::printf("categorical 95%% intervals, %d surveys per cell, respondents drawn from the truth in each: coverage of "
              "the population intervals (default) against the population's frequencies, of the respondents' intervals "
              "against the sample's own, and of the respondents' intervals against the population (before)\n\n",
              seeds);
  std::printf("| mechanism | epsilon | truth | n | population: options | population: rarest | respondents: options | "
              "respondents: rarest | before: respondents' read as population | consistent outside CI | consistent "
              "interval (population / respondents) |\n");
  std::printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const char* name : {"grr", "oue", "sue", "negative"}) {
    for (double epsilon : {1.0, 4.0}) {
      for (const Truth& truth : truths) {
        const json mechanism = {{"name", name}, {"epsilon", epsilon}};
        const auto survey = OneQuestion(static_cast<int>(truth.frequencies.size()), mechanism);
        if (!survey) {
          std::fprintf(stderr, "%s\n", survey.error().c_str());
          return 1;
        }
        for (int n : {50, 300, 3000}) {
          auto cell = RunCell(*survey, truth.frequencies, n, seeds);
          if (!cell) {
            std::fprintf(stderr, "%s\n", cell.error().c_str());
            return 1;
          }
          std::printf("| %s | %g | %s | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% / %.1f%% |\n",
                      name, epsilon, truth.name.c_str(), n, Percent(cell->population, cell->options),
                      Percent(cell->rare_population, seeds), Percent(cell->respondents, cell->options),
                      Percent(cell->rare_respondents, seeds), Percent(cell->respondents_as_population, cell->options),
                      Percent(cell->outside, cell->options), Percent(cell->consistent_population, cell->options),
                      Percent(cell->consistent_respondents, cell->options));
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
