// Simulation for survey design: N simulated respondents drawn from a known
// truth go through the same client perturbation (PerturbAnswers), the same
// report validation (ParseReport), the same aggregate and the same estimators
// as real respondents. Pure: the caller does the I/O and injects the seed.
#pragma once

#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace deniable {

// truth: one entry per question, in its kind's form (question_kind.h), e.g.
//   categorical: {"<question id>": {"frequencies": [w_0, ..., w_{k-1}]}} (weights >= 0, normalised);
//   numeric: a distribution or {"values": [...]} (core/kinds/numeric/numeric_truth.h).
// An optional question's entry may add "skip_rate" in [0, 1): the share of
// simulated respondents who skip it. A question with a condition ("show_if")
// is asked only of the respondents whose drawn open answer meets it. An entry made of a table's rows (a CSV
// truth: TruthSampler::rows()) may add "table": NAME; each simulated
// respondent is one row of each table, drawn uniformly with replacement, and
// every question whose entry names that table answers from that row, so
// questions (and a model built on them) see the same respondent, as in the
// data. The CLI names each CSV file's questions with the file's table.
// progress(done) is called every `progress_every` respondents. `estimate` are
// the estimation options (as the server's results take them).
struct SimulationOptions {
  std::int64_t respondents = 1000;
  std::uint64_t seed = 1;
  std::function<void(std::int64_t)> progress;
  std::int64_t progress_every = 100000;
  nlohmann::json estimate = nlohmann::json::object();
  // Called with each simulated report (its wire JSON, validated) in order; an
  // error stops the simulation with it. The CLI's --post sends them to a server.
  std::function<Status(const nlohmann::json& report)> on_report;
  // Called with each simulated respondent's true answers and validated report,
  // in order: analyses across questions compare their estimates with the same
  // analysis of the true answers (core/analysis/analysis_simulation.h).
  std::function<void(const nlohmann::json& answers, const Report& report)> on_respondent;
};

// The result document: the results (results.h) with, per question, its
// kind's comparison with the simulated answers ("truth" and "errors").
Result<nlohmann::json> Simulate(const Survey& survey, const nlohmann::json& truth, const SimulationOptions& options);

}  // namespace deniable
