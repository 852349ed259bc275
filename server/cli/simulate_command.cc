#include "server/cli/simulate_command.h"

#include <algorithm>

#include <cstdio>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/survey/interval_target.h"
#include "core/survey/simulation.h"
#include "core/survey/survey.h"
#include "server/cli/cli_args.h"
#include "server/base/file_util.h"
#include "server/cli/simulation_output.h"
#include "core/survey/kind_registry.h"
#include "core/survey/results.h"
#include "server/cli/report_poster.h"
#include "server/cli/truth_csv.h"

#include <filesystem>
#include <sstream>

#include "core/analysis/analysis_simulation.h"

namespace deniable::server {

const char* const kSimulateUsage =
    "Usage: deniable simulate --survey FILE (--truth FILE | --truth-csv FILE) --respondents N [--seed S]\n"
    "                         [--estimator E] [--curvature-penalty L] [--options Q] [--analysis SPEC]...\n"
    "                         [--post URL] [--json]\n"
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
    "  --truth-csv FILE   a joint truth: a CSV file whose header names the survey's question ids, one\n"
    "                     row per person (categorical cells: option labels or 0-based indices); each\n"
    "                     simulated respondent is one row, so answers stay together (entries of\n"
    "                     --truth, if given too, replace a question's column)\n"
    "  --analysis SPEC    an analysis across questions to check against the truth (repeatable), as\n"
    "                     JSON: {\"by\": Q, \"question\": Q}, {\"cross\": [Q, Q]} or {\"regress\": Q, \"on\": [Q]};\n"
    "                     prints its errors against the respondents' true answers and how often its\n"
    "                     95% intervals (for these respondents unless --options says interval=...) hold them\n"
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
constexpr std::int64_t kSimulationProgressEvery = 100000;

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
  std::string truth_csv;                             // --truth-csv: "" for none
  std::vector<nlohmann::json> analyses;              // --analysis
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
  DENIABLE_ASSIGN_OR_RETURN(auto flags,
                            ParseFlags(args, {{"--survey", true}, {"--truth", true}, {"--respondents", true}, {"--seed", true},
                                              {"--estimator", true}, {"--curvature-penalty", true}, {"--options", true},
                                              {"--json", false}, {"--post", true}, {"--truth-csv", true}, {"--analysis", true, true}}));
  SimulateOptions options;
  DENIABLE_ASSIGN_OR_RETURN(auto survey, RequiredFlag(flags, "--survey"));
  if (!flags.Has("--truth") && !flags.Has("--truth-csv")) return MakeError("--truth or --truth-csv is required");
  const std::string truth = flags.ValueOr("--truth", "");
  std::vector<nlohmann::json> analyses;
  for (const auto& text : flags.Values("--analysis")) {
    auto spec = nlohmann::json::parse(text, nullptr, false);
    if (spec.is_discarded() || !spec.is_object()) return MakeError("--analysis: not a JSON object: " + text);
    analyses.push_back(std::move(spec));
  }
  if (!flags.Has("--respondents")) return MakeError("--respondents is required");
  DENIABLE_ASSIGN_OR_RETURN(auto respondents, IntegerFlag(flags, "--respondents", 1, kMaxRespondents, 0));
  DENIABLE_ASSIGN_OR_RETURN(auto seed, UnsignedFlag(flags, "--seed", 1));
  const std::string estimator = flags.ValueOr("--estimator", "pml");
  if (estimator != "pml" && estimator != "ems" && estimator != "em" && estimator != "kde_sqp") {
    return MakeError("--estimator must be pml, ems, em or kde_sqp, but is \"" + estimator + "\"");
  }
  std::optional<double> curvature_penalty;
  if (flags.Has("--curvature-penalty")) {
    DENIABLE_ASSIGN_OR_RETURN(auto penalty, NumberFlag(flags, "--curvature-penalty"));
    curvature_penalty = penalty;
  }
  nlohmann::json extra = nlohmann::json::object();
  if (flags.Has("--options")) {
    DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseOptionsFlag(flags.ValueOr("--options", "")));
    extra = std::move(parsed);
  }
  if (flags.Has("--post") && flags.ValueOr("--post", "").empty()) return MakeError("--post must not be empty");
  return SimulateOptions{survey,   truth,  respondents, seed, flags.Has("--json"), estimator, curvature_penalty,
                         extra,     flags.ValueOr("--post", ""), flags.ValueOr("--truth-csv", ""), analyses};
}

Result<nlohmann::json> ReadJsonFile(const std::string& path) {
  DENIABLE_ASSIGN_OR_RETURN(auto text, ReadFileText(path));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    return MakeError(path + ": not valid JSON (syntax error at byte " + std::to_string(error.byte) + ")");
  } catch (const nlohmann::json::exception&) {
    return MakeError(path + ": not valid JSON (a number is out of range)");
  }
}

// The estimation options of the analyses: --options's interval (the
// respondents' by default: the truth a simulation knows is theirs).
nlohmann::json simulation_options_for_checks(const SimulateOptions& options) {
  nlohmann::json check = nlohmann::json::object();
  if (options.extra.contains(kIntervalOption)) check[kIntervalOption] = options.extra.at(kIntervalOption);
  return check;
}

// The header's names (quotes and spaces trimmed).
std::vector<std::string> HeaderNames(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> names;
  std::stringstream stream(line);
  for (std::string name; std::getline(stream, name, ',');) {
    const auto first = name.find_first_not_of(" \t\""), last = name.find_last_not_of(" \t\"");
    names.push_back(first == std::string::npos ? "" : name.substr(first, last - first + 1));
  }
  return names;
}

// The truth file, with --truth-csv's columns for the questions it leaves out:
// a question named in the header reads that column; any other reads the
// records it needs itself (a block its attributes' columns, a model its
// variables'), or says what is missing.
Result<nlohmann::json> ReadTruth(const Survey& survey, const SimulateOptions& options) {
  nlohmann::json truth = nlohmann::json::object();
  if (!options.truth_file.empty()) {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadJsonFile(options.truth_file));
    truth = std::move(read);
  }
  if (options.truth_csv.empty() || !truth.is_object()) return truth;
  auto text = ReadFileText(options.truth_csv);
  if (!text) return MakeError("--truth-csv: " + text.error());
  const auto names = HeaderNames(*text);
  const std::string csv = std::filesystem::absolute(options.truth_csv).string();
  for (const auto& question : survey.questions) {
    if (truth.contains(question.id)) continue;
    truth[question.id] = {{"csv", csv}};
    if (std::find(names.begin(), names.end(), question.id) != names.end()) truth[question.id]["column"] = question.id;
  }
  return truth;
}

struct Simulation {
  Survey survey;
  nlohmann::json document;
};

Result<Simulation> RunSimulation(const SimulateOptions& options) {
  DENIABLE_ASSIGN_OR_RETURN(auto survey_json, ReadJsonFile(options.survey_file));
  auto survey = ParseSurvey(survey_json);
  if (!survey) return MakeError(options.survey_file + ": invalid survey: " + survey.error());
  DENIABLE_ASSIGN_OR_RETURN(auto truth_json, ReadTruth(*survey, options));
  const std::string truth_name = options.truth_file.empty() ? options.truth_csv : options.truth_file;
  auto truth = ResolveCsvTruths(*survey, std::move(truth_json),
                                options.truth_file.empty() ? "./truth.json" : options.truth_file);
  if (!truth) return MakeError(truth_name + ": " + truth.error());
  std::vector<std::unique_ptr<AnalysisCheck>> checks;
  for (const auto& spec : options.analyses) {
    auto check = AnalysisCheck::Create(*survey, spec, simulation_options_for_checks(options));
    if (!check) return MakeError("--analysis: " + check.error());
    checks.push_back(std::move(check).value());
  }
  SimulationOptions simulation;
  simulation.respondents = options.respondents;
  simulation.seed = options.seed;
  simulation.progress_every = kSimulationProgressEvery;
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
  if (options.respondents > kSimulationProgressEvery) {
    simulation.progress = [total = options.respondents](std::int64_t done) {
      std::fprintf(stderr, "simulate: %lld/%lld respondents\n", static_cast<long long>(done),
                   static_cast<long long>(total));
    };
  }
  std::unique_ptr<ReportPoster> poster;
  if (!options.post_url.empty()) {
    DENIABLE_ASSIGN_OR_RETURN(auto opened, ReportPoster::Open(options.post_url, survey->id));
    poster = std::move(opened);
    simulation.on_report = [&poster, total = options.respondents](const nlohmann::json& report) -> Status {
      DENIABLE_TRY(poster->Post(report));
      if (poster->posted() % 10000 == 0 || poster->posted() == total) {
        std::fprintf(stderr, "simulate: posted %lld/%lld reports\n", static_cast<long long>(poster->posted()),
                     static_cast<long long>(total));
      }
      return OkStatus();
    };
  }
  if (!checks.empty()) {
    simulation.on_respondent = [&checks](const nlohmann::json& answers, const Report& report) {
      for (auto& check : checks) check->Add(answers, report);
    };
  }
  auto document = Simulate(*survey, *truth, simulation);
  if (!document) return MakeError(truth_name + ": " + document.error());
  nlohmann::json result = std::move(document).value();
  if (!checks.empty()) {
    result["analyses"] = nlohmann::json::array();
    for (const auto& check : checks) result["analyses"].push_back(check->Compare());
  }
  return Simulation{std::move(survey).value(), std::move(result)};
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
