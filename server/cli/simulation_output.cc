#include "server/cli/simulation_output.h"

#include "core/analysis/analysis_simulation.h"
#include "core/common/validation.h"
#include "core/survey/survey.h"

namespace deniable::server {
namespace {

using nlohmann::json;

// A question's block: the header, its kind's text, and its warning.
std::string QuestionText(const Survey& survey, const json& question) {
  const std::string header = "Question \"" + question.at("id").get<std::string>() + "\"";
  if (question.contains("error")) {
    return header + ": estimation failed: " + question.at("error").get<std::string>() + "\n";
  }
  const auto index = survey.QuestionIndex(question.at("id").get<std::string>());
  std::string text = header + ": " + question.at("text").get<std::string>() + "\n";
  if (question.contains("asked_only_when")) {
    text += "  asked only when " + question.at("asked_only_when").get<std::string>() +
            (question.contains("n") ? ": n = " + question.at("n").dump() : std::string()) + "\n";
  }
  text += survey.questions[*index].kind->SimulationText(question);
  if (question.contains("warning") && question.at("warning").is_string()) text += "  warning: " + question.at("warning").get<std::string>() + "\n";
  return text;
}

std::string TotalEpsilonText(const json& document) {
  if (document.at("total_epsilon").is_number()) {
    return "Total epsilon per respondent (sequential composition): " +
           FormatNumber(document.at("total_epsilon").get<double>()) + "\n";
  }
  return "Total epsilon per respondent: none (" + document.value("total_epsilon_note", std::string("no formal epsilon")) +
         ")\n";
}

}  // namespace

std::string FormatSimulationText(const Survey& survey, const json& document) {
  std::string text = "Simulation of survey \"" + document.at("survey").get<std::string>() + "\" version " +
                     std::to_string(document.at("version").get<int>()) + ": " +
                     std::to_string(document.at("respondents").get<long long>()) + " respondents, seed " +
                     std::to_string(document.at("seed").get<std::uint64_t>()) +
                     " (seeded randomness: reproducible, NOT private)\n\n";
  for (const auto& question : document.at("questions")) text += QuestionText(survey, question) + "\n";
  if (document.contains("analyses")) {
    for (const auto& check : document.at("analyses")) text += AnalysisCheckText(check) + "\n";
  }
  return text + TotalEpsilonText(document);
}

}  // namespace deniable::server
