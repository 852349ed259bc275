// A report: one JSON document per respondent holding each question's perturbed
// output and nothing else:
//   {"survey": "demo", "version": 1, "responses": {"q1": 2, "q2": [0, 1, 1, 0], "bmi": [31.2, 18.9]}}
// (a numeric question's response is the array of its mechanism's reported values).
// PerturbAnswers (client side) makes one from true answers; ParseReport (server
// side) validates one against its survey. A skipped optional question has no
// entry in "responses".
#pragma once

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/survey/survey.h"

namespace deniable {

// Validated report, in the survey's question order: per question its kind's
// decoded response, or null for an optional question the respondent skipped.
struct Report {
  std::vector<std::shared_ptr<const KindResponse>> responses;
};

// answers: {"<question id>": <the kind's answer, e.g. an option index or a
// number in [a, b]>, ...}: every required question answered; an optional one
// may be left out (or null), and its response is then left out of the report.
// Returns the report's JSON, ready to send. The true answers are not in it.
// Uses only the questions' client halves (either parse of the survey).
Result<nlohmann::json> PerturbAnswers(const Survey& survey, const nlohmann::json& answers, RandomSource& random);

Result<Report> ParseReport(const Survey& survey, const nlohmann::json& document);

}  // namespace deniable
