// Coverage of the categorical results' 95% intervals at small n and near
// frequencies 0 and 1 (issue 10): `seeds` simulated surveys per cell through
// core's Simulate (the real perturbation, validation and estimator). Per
// (mechanism, epsilon, truth, n): the share of options whose unbiased 95% CI
// holds the respondents' own frequency, the same for the rarest option alone,
// how often the Norm-Sub consistent estimate shown beside it lies outside
// that CI, and the coverage of the consistent estimate's own interval.
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

}  // namespace

int main(int argc, char** argv) {
  int seeds = 200;
  if (argc == 3 && std::string(argv[1]) == "--seeds") seeds = std::atoi(argv[2]);
  const std::vector<Truth> truths = {{"k=2 [0.98, 0.02]", {0.98, 0.02}},
                                     {"k=5 [0.90, 0.05, 0.03, 0.02, 0]", {0.90, 0.05, 0.03, 0.02, 0.0}},
                                     {"k=5 uniform", {0.2, 0.2, 0.2, 0.2, 0.2}}};
  std::printf("categorical 95%% intervals, %d surveys per cell: options covered (all options), rarest option covered, "
              "consistent estimate outside the CI (share of option-surveys), consistent interval covered\n\n",
              seeds);
  std::printf("| mechanism | epsilon | truth | n | options covered | rarest covered | consistent outside CI | "
              "consistent interval covered |\n");
  std::printf("|---|---:|---|---:|---:|---:|---:|---:|\n");
  for (const char* name : {"grr", "oue", "sue", "negative"}) {
    for (double epsilon : {1.0, 4.0}) {
      for (const Truth& truth : truths) {
        const json mechanism = {{"name", name}, {"epsilon", epsilon}};
        const auto survey = deniable::ParseSurvey(Definition(static_cast<int>(truth.frequencies.size()), mechanism));
        if (!survey) {
          std::fprintf(stderr, "%s\n", survey.error().c_str());
          return 1;
        }
        for (int n : {50, 300, 3000}) {
          int covered = 0, options = 0, rare_covered = 0, outside = 0, consistent_covered = 0;
          for (int seed = 1; seed <= seeds; ++seed) {
            deniable::SimulationOptions settings{n, static_cast<std::uint64_t>(seed), nullptr, 1000000000};
            auto document = deniable::Simulate(*survey, {{"q", {{"frequencies", truth.frequencies}}}}, settings);
            if (!document) {
              std::fprintf(stderr, "%s\n", document.error().c_str());
              return 1;
            }
            const json& result = (*document)["questions"][0];
            const std::size_t rarest = truth.frequencies.size() - 1;
            for (std::size_t i = 0; i < truth.frequencies.size(); ++i) {
              const json& option = result["options"][i];
              const double f = result["truth"][i].get<double>();
              const double low = option["ci_low"].get<double>(), high = option["ci_high"].get<double>();
              const double consistent = option["consistent_frequency"].get<double>();
              const bool inside = low <= f && f <= high;
              covered += inside ? 1 : 0;
              ++options;
              if (i == rarest) rare_covered += inside ? 1 : 0;
              outside += consistent < low || consistent > high ? 1 : 0;
              consistent_covered += option["consistent_ci_low"].get<double>() <= f &&
                                            f <= option["consistent_ci_high"].get<double>()
                                        ? 1
                                        : 0;
            }
          }
          std::printf("| %s | %g | %s | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", name, epsilon, truth.name.c_str(),
                      n, 100.0 * covered / options, 100.0 * rare_covered / seeds, 100.0 * outside / options,
                      100.0 * consistent_covered / options);
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
