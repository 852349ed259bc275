#include "server/simulate_command.h"

#include <algorithm>

#include <cstdio>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/survey/interval_target.h"
#include "core/survey/simulation.h"
#include "core/survey/survey.h"
#include "server/cli_args.h"
#include "server/file_util.h"
#include "server/simulation_output.h"
#include "core/survey/kind_registry.h"
#include "core/survey/results.h"
#include "server/report_poster.h"
#include "server/truth_csv.h"

namespace deniable::server {

const char* const kSimulateUsage =
    "Usage: deniable simulate --survey FILE --truth FILE --respondents N [--seed S] [--estimator E]\n"
    "                         [--curvature-penalty L] [--options Q] [--post URL] [--json]\n"
    "\n"
    "Simulates N respondents whose true answers follow the truth file, through the\n"
    "same perturbation, validation and estimation as real ones, and prints per\n"
    "question the estimates with 95% intervals, the errors against the truth, and\n"
    "the advisor's recommendation.\n"
    "\n"
    "Options:\n"
    "  --survey FILE      survey definition (JSON, deniable.survey/v1)\n"
    "  --truth FILE       one entry per question, {\"<question id>\": ..., ...}:\n"
    "                       categorical: {\"frequencies\": [w0, w1, ...]}\n"
    "                       numeric (truncated to the question's range):\n"
    "                         {\"distribution\": \"uniform\"}\n"
    "                         {\"distribution\": \"normal\", \"mean\": M, \"sd\": S}\n"
    "                         {\"distribution\": \"chi_square\", \"df\": K[, \"location\": L, \"scale\": C]}\n"
    "                         {\"distribution\": \"mixture\", \"components\": [{\"weight\": W, ...}, ...]}\n"
    "                         {\"csv\": FILE, \"column\": NAME or 0-based INDEX} (path relative to\n"
    "                           the truth file; first row is the header; each respondent is a row drawn\n"
    "                           at random, the same row for every question reading that file)\n"
    "                         {\"values\": [x1, x2, ...]}\n"
    "                       model: {\"coefficients\": [b0, ...], \"noise_sd\": S} or {\"csv\": FILE}\n"
    "                         (its variables' rows; truth: least squares on the whole file)\n"
    "                       answered in confidence: {\"frequencies\": [...]}, {\"values\": [...]} or\n"
    "                         {\"csv\": FILE, \"column\": C}, with \"releases\": [{\"method\", \"epsilon\",\n"
    "                         \"rho\"...}, ...] to compare (default: sreb_gca, dp_base, ahp at the budget)\n"
    "  --respondents N    number of simulated respondents, 1 to 100000000\n"
    "  --post URL         also send each simulated (perturbed) report to the running server at URL\n"
    "                     (http://127.0.0.1:8080), as the survey page would: the survey must exist\n"
    "                     there, open to anyone, with no reports of a model yet; stops at a refusal\n"
    "  --seed S           random seed, 0 to 2^64-1 (default 1); same seed, same output\n"
    "  --estimator E      numeric questions' distribution estimator: pml (default:\n"
    "                     penalised maximum likelihood), ems, em, or kde_sqp (the\n"
    "                     RVNS paper's; rvns questions only)\n"
    "  --curvature-penalty L  PML's smoothing lambda, 0 to 1e6 (default 1e-5 sqrt(N)\n"
    "                     for N reported values, lowered by the marginal likelihood\n"
    "                     for one-value mechanisms)\n"
    "  --options Q        other estimation options, as the results' query string:\n"
    "                     'profile.mode=paper&profile.crosstab=age,income' (see README,\n"
    "                     HTTP API); e.g. a block's paper mode shows its bias\n"
    "  --json             print the result document as JSON (2-space indent)\n"
    "  --help             this help\n";

namespace {

constexpr long long kMaxRespondents = 100000000;
constexpr std::int64_t kProgressEvery = 100000;

struct SimulateOptions {
  std::string survey_file;
  std::string truth_file;
  std::int64_t respondents = 0;
  std::uint64_t seed = 1;
  bool json = false;
  std::string estimator = "pml";
  std::optional<double> curvature_penalty;
  nlohmann::json extra = nlohmann::json::object();  // --options
  std::string post_url;                              // --post: "" to keep the reports here
};

// "a=b&c.d=e" as the results' query string; names must be options some kind offers (maybe "<question id>.name").
Result<nlohmann::json> ParseOptionsFlag(const std::string& text) {
  nlohmann::json options = nlohmann::json::object();
  std::vector<std::string> known = {kIntervalOption};  // interval=respondents: the intervals' target (population)
  for (const auto& kind : RegisteredKinds()) {
    for (const auto& name : kind.public_estimate_options) known.push_back(name);
  }
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('&', start), text.size());
    const std::string pair = text.substr(start, end - start);
    const std::size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      return MakeError("--options: \"" + pair + "\" is not name=value");
    }
    const std::string name = pair.substr(0, equals);
    const std::size_t dot = name.find('.');
    const std::string bare = dot == std::string::npos ? name : name.substr(dot + 1);
    if (std::find(known.begin(), known.end(), bare) == known.end()) {
      return MakeError("--options: unknown option \"" + name + "\"");
    }
    options[name] = pair.substr(equals + 1);
    start = end + 1;
  }
  return options;
}

Result<SimulateOptions> ParseSimulateOptions(const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"--survey", true}, {"--truth", true}, {"--respondents", true}, {"--seed", true},
                                 {"--estimator", true}, {"--curvature-penalty", true}, {"--options", true},
                                 {"--json", false}, {"--post", true}});
  if (!flags) return MakeError(flags.error());
  SimulateOptions options;
  auto survey = RequiredFlag(*flags, "--survey");
  if (!survey) return MakeError(survey.error());
  auto truth = RequiredFlag(*flags, "--truth");
  if (!truth) return MakeError(truth.error());
  if (!flags->Has("--respondents")) return MakeError("--respondents is required");
  auto respondents = IntegerFlag(*flags, "--respondents", 1, kMaxRespondents, 0);
  if (!respondents) return MakeError(respondents.error());
  auto seed = UnsignedFlag(*flags, "--seed", 1);
  if (!seed) return MakeError(seed.error());
  const std::string estimator = flags->ValueOr("--estimator", "pml");
  if (estimator != "pml" && estimator != "ems" && estimator != "em" && estimator != "kde_sqp") {
    return MakeError("--estimator must be pml, ems, em or kde_sqp, but is \"" + estimator + "\"");
  }
  std::optional<double> curvature_penalty;
  if (flags->Has("--curvature-penalty")) {
    auto penalty = NumberFlag(*flags, "--curvature-penalty");
    if (!penalty) return MakeError(penalty.error());
    curvature_penalty = *penalty;
  }
  nlohmann::json extra = nlohmann::json::object();
  if (flags->Has("--options")) {
    auto parsed = ParseOptionsFlag(flags->ValueOr("--options", ""));
    if (!parsed) return MakeError(parsed.error());
    extra = std::move(parsed).value();
  }
  if (flags->Has("--post") && flags->ValueOr("--post", "").empty()) return MakeError("--post must not be empty");
  return SimulateOptions{*survey,    *truth,           *respondents, *seed, flags->Has("--json"),
                         estimator,  curvature_penalty, extra,        flags->ValueOr("--post", "")};
}

Result<nlohmann::json> ReadJsonFile(const std::string& path) {
  auto text = ReadFileText(path);
  if (!text) return MakeError(text.error());
  try {
    return nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& error) {
    return MakeError(path + ": not valid JSON (syntax error at byte " + std::to_string(error.byte) + ")");
  } catch (const nlohmann::json::exception&) {
    return MakeError(path + ": not valid JSON (a number is out of range)");
  }
}

struct Simulation {
  Survey survey;
  nlohmann::json document;
};

Result<Simulation> RunSimulation(const SimulateOptions& options) {
  auto survey_json = ReadJsonFile(options.survey_file);
  if (!survey_json) return MakeError(survey_json.error());
  auto survey = ParseSurvey(*survey_json);
  if (!survey) return MakeError(options.survey_file + ": invalid survey: " + survey.error());
  auto truth_json = ReadJsonFile(options.truth_file);
  if (!truth_json) return MakeError(truth_json.error());
  auto truth = ResolveCsvTruths(*survey, std::move(truth_json).value(), options.truth_file);
  if (!truth) return MakeError(options.truth_file + ": " + truth.error());
  SimulationOptions simulation{options.respondents, options.seed, nullptr, kProgressEvery};
  simulation.estimate["estimator"] = options.estimator;
  if (options.curvature_penalty) simulation.estimate["curvature_penalty"] = *options.curvature_penalty;
  for (const auto& [name, value] : options.extra.items()) simulation.estimate[name] = value;
  const std::string flag = options.extra.empty() ? (options.curvature_penalty ? "--estimator/--curvature-penalty" : "--estimator")
                                                 : "--options";
  for (const auto& [name, value] : options.extra.items()) {
    const auto dot = name.find('.');
    if (dot != std::string::npos && !survey->QuestionIndex(name.substr(0, dot))) {
      return MakeError("--options: " + name + ": the survey has no question \"" + name.substr(0, dot) + "\"");
    }
  }
  for (const auto& question : survey->questions) {
    const Status valid = question.kind->ValidateEstimateOptions(OptionsForQuestion(simulation.estimate, question.id));
    if (!valid.ok()) return MakeError(flag + ": question " + question.id + ": " + valid.error());
  }
  if (options.respondents > kProgressEvery) {
    simulation.progress = [total = options.respondents](std::int64_t done) {
      std::fprintf(stderr, "simulate: %lld/%lld respondents\n", static_cast<long long>(done),
                   static_cast<long long>(total));
    };
  }
  std::unique_ptr<ReportPoster> poster;
  if (!options.post_url.empty()) {
    auto opened = ReportPoster::Open(options.post_url, survey->id);
    if (!opened) return MakeError(opened.error());
    poster = std::move(opened).value();
    simulation.on_report = [&poster, total = options.respondents](const nlohmann::json& report) -> Status {
      DENIABLE_TRY(poster->Post(report));
      if (poster->posted() % 10000 == 0 || poster->posted() == total) {
        std::fprintf(stderr, "simulate: posted %lld/%lld reports\n", static_cast<long long>(poster->posted()),
                     static_cast<long long>(total));
      }
      return OkStatus();
    };
  }
  auto document = Simulate(*survey, *truth, simulation);
  if (!document) return MakeError(options.truth_file + ": " + document.error());
  return Simulation{std::move(survey).value(), std::move(document).value()};
}

}  // namespace

int RunSimulateCommand(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kSimulateUsage;
    return 0;
  }
  auto options = ParseSimulateOptions(args);
  if (!options) {
    std::cerr << "deniable simulate: " << options.error() << "\nRun 'deniable simulate --help' for usage." << std::endl;
    return kExitUsage;
  }
  auto document = RunSimulation(*options);
  if (!document) {
    std::cerr << "deniable simulate: " << document.error() << std::endl;
    return 1;
  }
  std::cout << (options->json ? document->document.dump(2) + "\n"
                              : FormatSimulationText(document->survey, document->document));
  return 0;
}

}  // namespace deniable::server
