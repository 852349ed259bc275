// A report: one JSON document per respondent holding each question's perturbed
// output and nothing else:
//   {"survey": "demo", "version": 1, "responses": {"q1": 2, "q2": [0, 1, 1, 0], "bmi": [31.2, 18.9]}}
// (a numeric question's response is the array of its mechanism's reported values).
// PerturbAnswers (client side) makes one from true answers; ParseReport (server
// side) validates one against its survey.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/random_source.h"
#include "core/result.h"
#include "core/survey.h"

namespace deniable {

// Validated report, in the survey's question order: per question a Support
// (categorical; empty for numeric) and the reported values (numeric; empty
// for categorical).
struct Report {
  std::vector<Support> supports;
  std::vector<std::vector<double>> values;
};

// answers: {"<question id>": <option index> or <number in [a, b]>, ...}, every question answered.
// Returns the report's JSON, ready to send. The true answers are not in it.
Result<nlohmann::json> PerturbAnswers(const Survey& survey, const nlohmann::json& answers, RandomSource& random);

Result<Report> ParseReport(const Survey& survey, const nlohmann::json& document);

}  // namespace deniable
