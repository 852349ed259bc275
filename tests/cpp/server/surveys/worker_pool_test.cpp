// WorkerPool (server/surveys/worker_pool.h): every piece runs once, the
// caller takes part (a batch finishes with no helper, and with every helper
// busy elsewhere), pieces of one batch run on several threads, and a numeric
// results document is the same with 1, 2 and 3 workers.
#include "server/surveys/worker_pool.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/survey/report.h"
#include "core/survey/results.h"

namespace deniable::server {
namespace {

using nlohmann::json;

Survey PoolSurvey() {
  return *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "pool", "version": 1, "title": "T",
    "questions": [
      {"id": "sw", "text": "Square Wave", "type": "numeric", "range": [0, 10],
       "mechanism": {"name": "square_wave", "epsilon": 1}}
    ]})"));
}

SurveyAggregate PoolAggregate(const Survey& survey, int n) {
  SurveyAggregate aggregate(survey);
  SeededRandom random(23);
  for (int i = 0; i < n; ++i) {
    const double x = 2.0 + 5.0 * UniformUnit(random) * UniformUnit(random);
    aggregate.Add(*ParseReport(survey, *PerturbAnswers(survey, json{{"sw", x}}, random)));
  }
  return aggregate;
}

}  // namespace

TEST_CASE("worker pool: every piece runs exactly once, on the caller and the helpers") {
  for (int helpers : {0, 1, 2}) {
    WorkerPool pool(helpers);
    CHECK(pool.helpers() == helpers);
    std::vector<std::atomic<int>> runs(200);
    std::mutex mutex;
    std::set<std::thread::id> threads;
    pool.ForEach(200, [&](int index) {
      runs[static_cast<std::size_t>(index)]++;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    });
    for (const auto& count : runs) CHECK(count.load() == 1);
    CHECK(threads.count(std::this_thread::get_id()) == 1);  // the caller took part
    if (helpers == 0) CHECK(threads.size() == 1);
    if (helpers > 0) CHECK(threads.size() >= 2);
    pool.ForEach(0, [](int) { FAIL("no piece"); });
  }
}

TEST_CASE("worker pool: concurrent batches all finish, however many callers share the helpers") {
  WorkerPool pool(1);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int caller = 0; caller < 4; ++caller) {
    callers.emplace_back([&] { pool.ForEach(50, [&](int) { total++; }); });
  }
  for (auto& thread : callers) thread.join();
  CHECK(total.load() == 200);
}

TEST_CASE("worker pool: a numeric results document is the same with 1, 2 and 3 workers") {
  const Survey survey = PoolSurvey();
  const SurveyAggregate aggregate = PoolAggregate(survey, 2000);
  const json options = {{"estimation_cells", "40"}, {"replicates", "24"}};
  const std::string alone = SurveyResultsToJson(survey, aggregate, options).dump();
  CHECK(alone.find("\"bootstrap\"") != std::string::npos);
  for (int helpers : {0, 1, 2}) {
    CAPTURE(helpers + 1);
    WorkerPool pool(helpers);
    CHECK(SurveyResultsToJson(survey, aggregate, options, {}, {}, pool.Executor()).dump() == alone);
  }
}

}  // namespace deniable::server
