// The injected executor of independent pieces (core/common/parallel_work.h):
// the default runs every piece once in order; a numeric results document is
// the same whatever order the executor runs the bootstrap's replicates in
// (each replicate's draws come from (seed, index), its budget from its batch),
// including when the work budget cuts replicates short.
#include <doctest/doctest.h>

#include <vector>

#include "core/common/parallel_work.h"
#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/survey/report.h"
#include "core/survey/results.h"

using namespace deniable;
using nlohmann::json;

namespace {

Survey ParallelSurvey() {
  return *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "parallel", "version": 1, "title": "T",
    "questions": [
      {"id": "rv", "text": "RVNS", "type": "numeric", "range": [0, 10],
       "mechanism": {"name": "rvns", "window": 2, "values": 2, "window_mode": "fresh"}}
    ]})"));
}

SurveyAggregate ParallelAggregate(const Survey& survey, int n) {
  SurveyAggregate aggregate(survey);
  SeededRandom random(17);
  for (int i = 0; i < n; ++i) {
    const double x = 1.0 + 6.0 * UniformUnit(random) * UniformUnit(random);
    aggregate.Add(*ParseReport(survey, *PerturbAnswers(survey, json{{"rv", x}}, random)));
  }
  return aggregate;
}

// Runs the pieces last first: any order must give the same result.
void Backwards(int count, const std::function<void(int)>& piece) {
  for (int index = count - 1; index >= 0; --index) piece(index);
}

}  // namespace

TEST_CASE("parallel work: the default runs every piece once, in order") {
  std::vector<int> order;
  RunPieces({}, 5, [&](int index) { order.push_back(index); });
  CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
  std::vector<int> backwards;
  RunPieces(Backwards, 3, [&](int index) { backwards.push_back(index); });
  CHECK(backwards == std::vector<int>{2, 1, 0});
  RunPieces(Backwards, 0, [&](int) { FAIL("no piece for a count of 0"); });
}

TEST_CASE("parallel work: a numeric document does not depend on the order its replicates ran in") {
  const Survey survey = ParallelSurvey();
  const SurveyAggregate aggregate = ParallelAggregate(survey, 1500);
  const auto& kind = *survey.questions[0].kind;
  for (const json& options : {json{{"estimation_cells", "30"}, {"replicates", "20"}},
                              // A budget that cuts replicates short: their shares must not depend on the order either.
                              json{{"estimation_cells", "30"}, {"replicates", "20"}, {"work_budget", 4000000}}}) {
    CAPTURE(options.dump());
    const auto in_order = kind.EstimateInParallel(aggregate.question(0), options, {}, {});
    const auto backwards = kind.EstimateInParallel(aggregate.question(0), options, {}, Backwards);
    REQUIRE(in_order);
    REQUIRE(backwards);
    CHECK(in_order->dump() == backwards->dump());
    CHECK(in_order->at("bootstrap").is_object());
  }
}
