// The regression analysis {"regress", "on"} (core/analysis/rr_regression.h)
// on a survey of test-only kinds (rr_fake_kinds.h): the design from open
// covariates, dropped respondents, coefficients against known ones, predicted
// shares by profile, and the errors and warnings it promises.
#include <doctest.h>

#include <cmath>

#include "core/analysis/analysis.h"
#include "core/analysis/channel_logit_fit.h"
#include "core/common/seeded_random.h"
#include "tests/cpp/support/rr_fake_kinds.h"
#include "tests/cpp/support/rr_simulate.h"

namespace deniable {
namespace {

using testing::FakeCategorical;
using testing::FakeNumeric;
using testing::FakeQuestion;
using testing::FakeResponse;

// rr's forced design p = 2/3, p1 = p0 = 1/6: binary randomised response at epsilon ln 5.
Eigen::MatrixXd ForcedChannel() {
  Eigen::MatrixXd channel(2, 2);
  channel << 5.0 / 6, 1.0 / 6,  //
      1.0 / 6, 5.0 / 6;
  return channel;
}

Survey MakeSurvey() {
  Survey survey;
  survey.id = "study";
  survey.questions = {
      FakeQuestion("group", std::make_shared<FakeCategorical>(std::vector<std::string>{"a", "b", "c", "d"})),
      FakeQuestion("age", std::make_shared<FakeNumeric>(Trust::kOpen)),
      FakeQuestion("drugs", std::make_shared<FakeCategorical>(std::vector<std::string>{"no", "yes"}, ForcedChannel())),
      FakeQuestion("income", std::make_shared<FakeNumeric>(Trust::kCentral)),
      FakeQuestion("party", std::make_shared<FakeCategorical>(std::vector<std::string>{"left", "centre", "right"},
                                                              testing::GrrChannel(3, 2.0)))};
  survey.questions[1].required = false;
  return survey;
}

struct Respondent {
  int group;
  double age;
  bool skipped_age;
  int drugs_report, party_report;
};

// Groups a, b, c (d never chosen), age ~ 40 + 10 N(0, 1); drugs ~ logistic
// (intercept, b, c, age), party ~ multinomial logit on the group.
std::vector<Respondent> Simulate(int n, std::uint64_t seed, const Eigen::MatrixXd& drugs_beta, int skip_every = 0) {
  SeededRandom random(seed);
  std::vector<Respondent> people;
  const Eigen::MatrixXd party_beta = (Eigen::MatrixXd(4, 2) << 0.2, -0.3, 0.5, 0.9, -0.6, 0.4, 0, 0).finished();
  for (int i = 0; i < n; ++i) {
    Respondent r{static_cast<int>(UniformBelow(random, 3)), 40 + 10 * testing::StandardNormal(random),
                 skip_every > 0 && i % skip_every == 0, 0, 0};
    Eigen::RowVectorXd x(4);
    x << 1.0, r.group == 1, r.group == 2, r.age;
    const int truth = testing::DrawCategory(CategoryShares(x, drugs_beta), random);
    r.drugs_report = testing::DrawCategory(ForcedChannel().col(truth), random);
    const int party = testing::DrawCategory(CategoryShares(x, party_beta), random);
    r.party_report = testing::DrawCategory(testing::GrrChannel(3, 2.0).col(party), random);
    people.push_back(r);
  }
  return people;
}

Report ToReport(const Respondent& r) {
  Report report;
  report.responses = {std::make_shared<FakeResponse>(r.group),
                      r.skipped_age ? nullptr : std::make_shared<FakeResponse>(r.age),
                      std::make_shared<FakeResponse>(r.drugs_report), std::make_shared<FakeResponse>(0.0),
                      std::make_shared<FakeResponse>(r.party_report)};
  return report;
}

Result<nlohmann::json> Run(const nlohmann::json& spec, const std::vector<Respondent>& people,
                           const nlohmann::json& options = nlohmann::json::object()) {
  const Survey survey = MakeSurvey();
  auto analysis = ParseAnalysis(survey, spec);
  if (!analysis) return MakeError(analysis.error());
  for (const auto& person : people) (*analysis)->Add(ToReport(person));
  REQUIRE((*analysis)->n() == static_cast<std::int64_t>(people.size()));
  return (*analysis)->Estimate(options, nullptr);
}

const nlohmann::json kSpec = {{"regress", "drugs"}, {"on", {"group", "age"}}};
const Eigen::MatrixXd kBeta = (Eigen::MatrixXd(4, 1) << -2.0, 1.0, 0.5, 0.03).finished();

TEST_CASE("rr regression analysis: coefficients, dropped respondents and predictions") {
  const auto people = Simulate(4000, 1, kBeta, 100);
  auto result = Run(kSpec, people);
  REQUIRE(result);
  const auto& json = *result;
  CHECK(json["analysis"] == kSpec);
  CHECK(json["model"] == "logistic");
  CHECK(json["n"] == 3960);
  CHECK(json["dropped"] == 40);
  CHECK(json["converged"] == true);
  CHECK(json["interval_for"]["target"] == "population");
  CHECK(json["outcome"]["reference"] == "no");
  // Level "d" was never chosen: no coefficient, and the warning says so.
  REQUIRE(json["warning"].is_string());
  CHECK(json["warning"].get<std::string>().find("no respondent chose \"d\"") != std::string::npos);
  const std::vector<std::string> terms = {"(intercept)", "group=b", "group=c", "age"};
  REQUIRE(json["coefficients"].size() == 4);
  for (int j = 0; j < 4; ++j) {
    const auto& c = json["coefficients"][j];
    CAPTURE(c.dump());
    CHECK(c["term"] == terms[j]);
    CHECK(c["outcome_level"] == "yes");
    const double estimate = c["estimate"], se = c["std_error"];
    // Within 4 of its own standard errors of the truth (false failure < 1e-4).
    CHECK(std::abs(estimate - kBeta(j)) < 4 * se);
    CHECK(c["ci_low"].get<double>() == doctest::Approx(estimate - 1.959963984540054 * se));
    CHECK(c["ci_low"].get<double>() < estimate);
    CHECK(estimate < c["ci_high"].get<double>());
  }
  // The same fit as the channel logit on the design by hand.
  ChannelLogitProblem problem;
  problem.x.resize(3960, 4);
  problem.likelihood.resize(3960, 2);
  int row = 0;
  for (const auto& r : people) {
    if (r.skipped_age) continue;
    problem.x.row(row) << 1.0, r.group == 1, r.group == 2, r.age;
    problem.likelihood.row(row++) = ForcedChannel().row(r.drugs_report);
  }
  auto direct = FitChannelLogit(problem, nullptr);
  REQUIRE(direct);
  for (int j = 0; j < 4; ++j) CHECK(json["coefficients"][j]["estimate"].get<double>() == doctest::Approx(direct->coefficients(j)));
  CHECK(json["log_likelihood"].get<double>() == doctest::Approx(direct->log_likelihood));

  // Profiles: groups a, b, c at the mean age; shares sum to 1, each within its interval.
  REQUIRE(json["predictions"].size() == 3);
  const double mean_age = problem.x.col(3).mean();
  std::int64_t total = 0;
  for (int g = 0; g < 3; ++g) {
    const auto& prediction = json["predictions"][g];
    CAPTURE(prediction.dump());
    CHECK(prediction["profile"]["group"] == std::string(1, static_cast<char>('a' + g)));
    CHECK(prediction["profile"]["age"].get<double>() == doctest::Approx(mean_age));
    total += prediction["n"].get<std::int64_t>();
    double sum = 0;
    for (const auto& share : prediction["shares"]) {
      sum += share["estimate"].get<double>();
      CHECK(share["ci_low"].get<double>() <= share["estimate"].get<double>());
      CHECK(share["estimate"].get<double>() <= share["ci_high"].get<double>());
    }
    CHECK(sum == doctest::Approx(1.0));
    Eigen::RowVectorXd x(4);
    x << 1.0, g == 1, g == 2, mean_age;
    CHECK(prediction["shares"][1]["estimate"].get<double>() == doctest::Approx(CategoryShares(x, direct->coefficients)(1)));
  }
  CHECK(total == 3960);
}

TEST_CASE("rr regression analysis: a multinomial outcome (three parties, GRR k = 3)") {
  auto result = Run({{"regress", "party"}, {"on", {"group"}}}, Simulate(3000, 2, kBeta));
  REQUIRE(result);
  CHECK((*result)["model"] == "multinomial logit");
  CHECK((*result)["n"] == 3000);
  CHECK((*result)["dropped"] == 0);
  REQUIRE((*result)["coefficients"].size() == 6);
  CHECK((*result)["coefficients"][0]["outcome_level"] == "centre");
  CHECK((*result)["coefficients"][3]["outcome_level"] == "right");
  CHECK((*result)["coefficients"][4]["term"] == "group=b");
  // Party's truth depends on the group: centre vs left 0.2, +0.5 (b), -0.6 (c).
  const double truth[] = {0.2, 0.5, -0.6, -0.3, 0.9, 0.4};
  for (int j = 0; j < 6; ++j) {
    const auto& c = (*result)["coefficients"][j];
    CAPTURE(c.dump());
    CHECK(std::abs(c["estimate"].get<double>() - truth[j]) < 4 * c["std_error"].get<double>());
  }
  REQUIRE((*result)["predictions"].size() == 3);
  CHECK((*result)["predictions"][0]["shares"].size() == 3);
}

TEST_CASE("rr regression analysis: errors name the field") {
  const auto people = Simulate(50, 3, kBeta);
  auto error = [&](const nlohmann::json& spec) {
    auto result = Run(spec, people);
    REQUIRE_FALSE(result);
    return result.error();
  };
  CHECK(error({{"regress", "income"}, {"on", nlohmann::json::array()}}).rfind("analysis.regress: question \"income\" is not a randomised (or open) categorical", 0) == 0);
  CHECK(error({{"regress", "nope"}, {"on", nlohmann::json::array()}}) == "analysis.regress: no question \"nope\" in this survey");
  CHECK(error({{"regress", 3}, {"on", nlohmann::json::array()}}) == "analysis.regress: must be a question id");
  CHECK(error({{"regress", "drugs"}}).rfind("analysis.on: must be an array", 0) == 0);
  CHECK(error({{"regress", "drugs"}, {"on", {"income"}}}) ==
        "analysis.on[0]: question \"income\" is not asked openly (covariates must be open questions)");
  CHECK(error({{"regress", "drugs"}, {"on", {"age", "party"}}}).rfind("analysis.on[1]: question \"party\" is not asked openly", 0) == 0);
  CHECK(error({{"regress", "drugs"}, {"on", {"age", "age"}}}) == "analysis.on[1]: question \"age\" is used twice");
  CHECK(error({{"regress", "drugs"}, {"on", {"drugs"}}}) == "analysis.on[0]: question \"drugs\" is not asked openly (covariates must be open questions)");
}

TEST_CASE("rr regression analysis: too few respondents for the parameters") {
  auto result = Run(kSpec, Simulate(35, 4, kBeta));
  REQUIRE_FALSE(result);
  CHECK(result.error() ==
        "analysis: the model has 4 parameters and needs at least 40 respondents who answered every question it "
        "uses; 35 did (0 dropped)");
}

TEST_CASE("rr regression analysis: a group with no 'yes' beyond the randomisation is stated, without intervals") {
  auto people = Simulate(1500, 5, kBeta);
  // Group c's reports: a tenth "yes", fewer than the 1/6 forced "yes" alone.
  int count = 0;
  for (auto& r : people) {
    if (r.group == 2) r.drugs_report = count++ % 10 == 0 ? 1 : 0;
  }
  auto result = Run(kSpec, people);
  REQUIRE(result);
  CHECK((*result)["converged"] == false);
  CHECK((*result)["warning"].get<std::string>().rfind("no finite maximum", 0) == 0);
  CHECK((*result)["coefficients"][2]["std_error"].is_null());
  CHECK((*result)["coefficients"][2]["ci_low"].is_null());
  CHECK((*result)["predictions"][2]["shares"][1]["ci_high"].is_null());
}

TEST_CASE("rr regression analysis: interval option") {
  const auto people = Simulate(600, 6, kBeta);
  auto respondents = Run(kSpec, people, {{"interval", "respondents"}});
  REQUIRE(respondents);
  CHECK((*respondents)["interval_for"]["target"] == "population");
  CHECK((*respondents)["note"].get<std::string>().find("population's model") != std::string::npos);
  auto bad = Run(kSpec, people, {{"interval", "everyone"}});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("interval") != std::string::npos);
}

}  // namespace
}  // namespace deniable
