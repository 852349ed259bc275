// The consumers' histogram requests of a histogram question (consumer_requests.h): equal bins or edges, read into
// exact boundaries; every error names its field.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/kinds/histogram/consumer_requests.h"

using namespace deniable;
using nlohmann::json;

namespace {

std::string ErrorOf(const json& histograms) {
  auto parsed = ParseConsumerRequests({{"histograms", histograms}}, {0, 100}, "questions[0]");
  return parsed.ok() ? "ok" : parsed.error();
}

}  // namespace

TEST_CASE("consumer requests: equal bins and edges become exact boundaries, merged without slivers") {
  const json histograms = {{{"name", "deciles"}, {"bins", 10}},
                           {{"name", "policy"}, {"edges", {0, 2.5, 30, 100}}},
                           {{"name", "thirds"}, {"bins", 3}}};
  auto requests = ParseConsumerRequests({{"histograms", histograms}}, {0, 100}, "questions[0]");
  REQUIRE(requests.ok());
  REQUIRE(requests->size() == 3);
  CHECK((*requests)[0].boundaries.size() == 11);
  CHECK((*requests)[1].boundaries == std::vector<RangeFraction>{{0, 1}, {1, 40}, {3, 10}, {1, 1}});
  CHECK((*requests)[1].definition == json{{"name", "policy"}, {"edges", {0, 2.5, 30, 100}}});
  std::vector<std::vector<RangeFraction>> all;
  for (const auto& request : *requests) all.push_back(request.boundaries);
  // Deciles (9 inner), 2.5 (new), 30 (a decile), thirds (2 new): 12 inner boundaries, 13 cells.
  CHECK(FinePartition::Merge({0, 100}, all)->cells() == 13);
}

TEST_CASE("consumer requests: every error names its field") {
  CHECK(ErrorOf(json::array()) == "questions[0].histograms: must be an array of 1 to 16 histogram requests");
  CHECK(ErrorOf({{{"name", "a"}}}) == "questions[0].histograms[0]: must have either \"bins\" (equal bins) or \"edges\", not neither");
  CHECK(ErrorOf({{{"name", "a"}, {"bins", 2}, {"edges", {0, 100}}}}) ==
        "questions[0].histograms[0]: must have either \"bins\" (equal bins) or \"edges\", not both");
  CHECK(ErrorOf({{{"name", "a"}, {"bins", 0}}}).rfind("questions[0].histograms[0].bins: ", 0) == 0);
  CHECK(ErrorOf({{{"name", "a"}, {"edges", {0, 50, 40, 100}}}}) ==
        "questions[0].histograms[0].edges[2]: 40 is not above the previous edge 50");
  CHECK(ErrorOf({{{"name", "a"}, {"edges", {5, 50, 100}}}}) ==
        "questions[0].histograms[0].edges[0]: must be the range's low end 0, but is 5");
  CHECK(ErrorOf({{{"name", "a"}, {"edges", {0, 50, 90}}}}) ==
        "questions[0].histograms[0].edges[2]: must be the range's high end 100, but is 90");
  CHECK(ErrorOf({{{"name", "a"}, {"edges", {0, "x", 100}}}}) ==
        "questions[0].histograms[0].edges[1]: must be a finite number, but is \"x\"");
  CHECK(ErrorOf({{{"name", "a"}, {"bins", 2}}, {{"name", "a"}, {"bins", 4}}}) ==
        "questions[0].histograms[1].name: \"a\" is used by an earlier histogram");
  CHECK(ErrorOf({{{"name", "a"}, {"bins", 2}, {"colour", "red"}}}).rfind("questions[0].histograms[0].colour: unknown field", 0) == 0);
  CHECK(ErrorOf({{{"name", "a"}, {"edges", {0, 100.0 / 3.0 + 1e-9, 100}}}}).rfind(
            "questions[0].histograms[0].edges[1]: 33.3333", 0) == 0);
}
