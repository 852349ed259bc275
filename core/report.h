// A report: one JSON document per respondent holding each question's perturbed
// output and nothing else:
//   {"survey": "demo", "version": 1, "responses": {"q1": 2, "q2": [0, 1, 1, 0]}}
// PerturbAnswers (client side) makes one from true answers; ParseReport (server
// side) validates one against its survey.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/random_source.h"
#include "core/result.h"
#include "core/survey.h"

namespace deniable {

// Validated report: one Support per question, in the survey's question order.
struct Report {
  std::vector<Support> supports;
};

// answers: {"<question id>": <option index>, ...}, every question answered.
// Returns the report's JSON, ready to send. The true answers are not in it.
Result<nlohmann::json> PerturbAnswers(const Survey& survey, const nlohmann::json& answers, RandomSource& random);

Result<Report> ParseReport(const Survey& survey, const nlohmann::json& document);

}  // namespace deniable
