// From aggregates to the results document the dashboard and `simulate` show:
// the survey's respondents and total epsilon, and per question its id, text,
// type and its kind's results (question_kind.h: estimates with 95% intervals,
// n, epsilon, warnings), or {"error": ...} when its estimation failed.
// Optional questions also carry "required": false and "skipped" (the reports
// that left them out); a question with a condition carries "show_if" and
// "asked_only_when" (its n counts only the reports it was asked in).
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "core/central/release_ledger.h"
#include "core/common/parallel_work.h"
#include "core/survey/aggregate.h"
#include "core/survey/survey.h"

namespace deniable {

// Estimation options are survey-wide ("bin_width") or one question's, named
// "<question id>.<option>" ("salary.edges"), which override the survey-wide
// ones for that question (ids cannot hold a dot). The options one question's
// kind reads: the survey-wide ones with its own overrides, without the dot.
nlohmann::json OptionsForQuestion(const nlohmann::json& options, const std::string& question_id);

// Checks the estimation options against every question ("question \"bmi\":
// bin_width must be ..."), and that every "<id>.<option>" names a question.
// `options` is an object; each kind reads its fields.
Status ValidateEstimateOptions(const Survey& survey, const nlohmann::json& options);

// `cancelled` (optional) is polled during long estimations; once it returns
// true the remaining estimation stops at once and the document is incomplete
// (entries with the error kEstimationCancelled): discard it.
// Questions answered in confidence show their releases only: each gets its
// ledger from `ledgers` (release_document.h's LedgerDocument; an empty ledger
// when absent) under "ledger". `parallel` (optional, parallel_work.h) runs
// the estimations' independent pieces; the document does not depend on it.
nlohmann::json SurveyResultsToJson(const Survey& survey, const SurveyAggregate& aggregate,
                                   const nlohmann::json& options = nlohmann::json::object(),
                                   const std::function<bool()>& cancelled = {},
                                   const QuestionLedgers& ledgers = {}, const ParallelFor& parallel = {});

// The state every client fetches before answering (GET .../state): per
// question with one (QuestionKind::PublicState, e.g. a model trained across
// rounds), {"survey", "version", "questions": {<id>: <state>}}; questions
// whose kind has no state are absent.
nlohmann::json PublicStatesToJson(const Survey& survey, const SurveyAggregate& aggregate);

// `answers` with each stateful question's public state put in its answer
// under "state" (QuestionKind::PublicState), as the survey page does after
// fetching it: for simulations and tests that perturb without a server.
nlohmann::json WithPublicStates(const Survey& survey, const SurveyAggregate& aggregate, nlohmann::json answers);

// Whether the document needs costly estimation (e.g. a numeric question with
// at least one report); without it a document costs microseconds.
bool ResultsNeedEstimation(const Survey& survey, const SurveyAggregate& aggregate);

}  // namespace deniable
