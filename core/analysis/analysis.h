// Analysis across questions: what a researcher asks of a sensitive answer
// beyond its overall estimate (README "Analysing by group"). Each analysis is
// parsed from a small JSON spec naming questions of one survey, accumulates
// the survey's reports (mergeable sufficient statistics where the method
// allows: per-group aggregates, sums of products), and estimates its results
// document. The server computes one from the stored reports when asked,
// behind its estimation gate, and caches it by report count.
//
// Specs (the "analysis" field of a request, an object):
//   {"by": "<open categorical question>", "question": "<any question>"}
//       the question's results per group of the open question, each group's
//       n, estimate and interval, and the differences between groups;
//   {"cross": ["<q1>", "<q2>"(, "<q3>")]}
//       the joint distribution of two or three categorical questions, whatever
//       their privacy (open x local is a grouping; local x local inverts the
//       product of the questions' channels): unbiased cells with intervals and
//       a consistent table;
//   {"regress": "<randomised categorical question>", "on": ["<open question>", ...]}
//       logistic (multinomial) regression of a randomised answer on open
//       covariates by maximum likelihood through the known channel (rr's rrreg).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/question_kind.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace deniable {

class Analysis {
 public:
  virtual ~Analysis() = default;
  // `report` was parsed (ParseReport) for the survey the analysis was parsed for.
  virtual void Add(const Report& report) = 0;
  // Reports counted so far.
  virtual std::int64_t n() const = 0;
  // The results document: {"analysis": <canonical spec>, "n", ... , "interval_for"}.
  // `options` as for question results (an object; "interval": "population" |
  // "respondents"). `cancelled` (optional) is polled by long estimations.
  virtual Result<nlohmann::json> Estimate(const nlohmann::json& options,
                                          const std::function<bool()>& cancelled) const = 0;
  // The CSV export's rows of a results document this analysis estimated (one
  // without "error"), in the results CSV's tidy form (question_kind.h CsvRow):
  // the groups, cells or terms as variables, one estimate per row.
  virtual std::vector<CsvRow> CsvRows(const nlohmann::json& result) const = 0;
  // A copy with what was added so far: the server keeps declared analyses
  // (a survey's "analyses") as reports arrive and estimates a copy outside
  // its lock.
  virtual std::unique_ptr<Analysis> Clone() const = 0;
};

// Errors name the spec's field ("analysis.by: question \"age\" is not asked openly").
Result<std::unique_ptr<Analysis>> ParseAnalysis(const Survey& survey, const nlohmann::json& spec);

}  // namespace deniable
