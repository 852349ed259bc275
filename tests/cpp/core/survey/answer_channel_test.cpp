// The channels analysis across questions is built on (answer_channel.h), checked
// exactly: for small k every report a mechanism can send is enumerated with its
// probability given each answer (from the mechanism's definition, checked
// against its Perturb), so E[UnbiasedIndicators | c] = e_c and Likelihood being
// proportional to P(report | c) are asserted to rounding.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/categorical/categorical_question_kind.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/kinds/numeric/numeric_question_kind.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

Survey OneQuestion(const json& question) {
  json q = question;
  q["id"] = "q";
  q["text"] = "Q?";
  auto survey = ParseSurvey({{"format", "deniable.survey/v1"}, {"id", "s"}, {"version", 1}, {"title", "T"}, {"questions", {q}}});
  REQUIRE_MESSAGE(survey.ok(), survey.error());
  return *survey;
}

double Choose(int n, int r) {
  double value = 1.0;
  for (int i = 0; i < r; ++i) value = value * (n - i) / (i + 1);
  return value;
}

// P(support S | answer c) from the mechanism's definition (grr.h, unary_encoding.h, negative_survey.h).
double ProbabilityOf(const CategoricalMechanism& mechanism, const Support& s, int c) {
  const auto pq = mechanism.probabilities();
  const int k = mechanism.options();
  int size = 0;
  for (auto bit : s) size += bit;
  switch (mechanism.params().kind) {
    case CategoricalKind::kGrr:
      return size != 1 ? 0.0 : (s[static_cast<std::size_t>(c)] ? pq.p : pq.q);
    case CategoricalKind::kOue:
    case CategoricalKind::kSue: {
      double probability = 1.0;
      for (int i = 0; i < k; ++i) {
        const double one = i == c ? pq.p : pq.q;
        probability *= s[static_cast<std::size_t>(i)] ? one : 1.0 - one;
      }
      return probability;
    }
    case CategoricalKind::kNegativeSurvey: {
      const int r = mechanism.params().reported_options;
      if (size != r) return 0.0;
      return s[static_cast<std::size_t>(c)] ? pq.p / Choose(k - 1, r - 1) : (1.0 - pq.p) / Choose(k - 1, r);
    }
  }
  return 0.0;
}

std::vector<Support> AllSupports(int k) {
  std::vector<Support> all;
  for (int mask = 0; mask < (1 << k); ++mask) {
    Support s(static_cast<std::size_t>(k));
    for (int i = 0; i < k; ++i) s[static_cast<std::size_t>(i)] = (mask >> i) & 1;
    all.push_back(s);
  }
  return all;
}

// E[indicators | c] = e_c, and the likelihood of every possible report is proportional to P(report | c) over c.
// `probability(s, c)` is the channel; `response(s)` the decoded report.
template <typename Probability, typename Response>
void CheckChannelExactly(const CategoryChannel& channel, const std::vector<Support>& reports, Probability probability,
                         Response response) {
  const std::size_t k = channel.categories();
  for (std::size_t c = 0; c < k; ++c) {
    std::vector<double> mean(k, 0.0);
    double total = 0.0;
    for (const Support& s : reports) {
      const double p = probability(s, static_cast<int>(c));
      total += p;
      if (p == 0.0) continue;
      const auto indicators = channel.UnbiasedIndicators(*response(s));
      for (std::size_t i = 0; i < k; ++i) mean[i] += p * indicators[i];
    }
    CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
    for (std::size_t i = 0; i < k; ++i) CHECK(mean[i] == doctest::Approx(i == c ? 1.0 : 0.0).epsilon(1e-12));
  }
  for (const Support& s : reports) {
    double possible = 0.0;
    for (std::size_t c = 0; c < k; ++c) possible += probability(s, static_cast<int>(c));
    if (possible == 0.0) continue;  // no answer sends it: Decode refuses it
    const auto likelihood = channel.Likelihood(*response(s));
    REQUIRE(likelihood.size() == k);
    std::optional<double> ratio;
    for (std::size_t c = 0; c < k; ++c) {
      const double p = probability(s, static_cast<int>(c));
      if (p == 0.0) {
        CHECK(likelihood[c] == 0.0);
        continue;
      }
      if (!ratio) ratio = likelihood[c] / p;
      CHECK(likelihood[c] / p == doctest::Approx(*ratio).epsilon(1e-12));
    }
  }
}

// The definition above against the mechanism's own Perturb: each report's frequency within 5 sd of it.
void CheckDefinitionMatchesPerturb(const CategoricalMechanism& mechanism) {
  SeededRandom random(7);
  constexpr int kDraws = 20000;
  for (int c = 0; c < mechanism.options(); ++c) {
    std::map<Support, int> seen;
    for (int i = 0; i < kDraws; ++i) ++seen[*mechanism.Perturb(c, random)];
    for (const Support& s : AllSupports(mechanism.options())) {
      const double p = ProbabilityOf(mechanism, s, c);
      const double sd = std::sqrt(p * (1 - p) / kDraws);
      CHECK(std::abs(seen[s] / static_cast<double>(kDraws) - p) <= 5 * sd + 1e-12);
    }
  }
}

}  // namespace

TEST_CASE("every categorical mechanism's channel is exact: unbiased indicators and likelihood") {
  for (const char* mechanism : {R"({"name": "grr", "epsilon": 1})", R"({"name": "oue", "epsilon": 1.5})",
                                R"({"name": "sue", "epsilon": 2})",
                                R"({"name": "negative", "epsilon": 0.7, "reported_options": 2})",
                                R"({"name": "negative", "reported_options": 2})",
                                R"({"name": "negative", "epsilon": 1, "reported_options": 1})"}) {
    const std::string name = mechanism;
    CAPTURE(name);
    const Survey survey = OneQuestion({{"options", {"a", "b", "c", "d", "e"}}, {"mechanism", json::parse(mechanism)}});
    const auto& kind = CategoricalKindOf(survey.questions[0]);
    const CategoryChannel* channel = kind.category_channel();
    REQUIRE(channel != nullptr);
    CHECK(channel->categories() == 5);
    CHECK(channel->category_labels() == std::vector<std::string>{"a", "b", "c", "d", "e"});
    CHECK_FALSE(channel->ExactCategory(CategoricalResponse(Support(5, 0))).has_value());
    CheckDefinitionMatchesPerturb(kind.mechanism());
    CheckChannelExactly(
        *channel, AllSupports(5), [&](const Support& s, int c) { return ProbabilityOf(kind.mechanism(), s, c); },
        [](const Support& s) { return std::make_unique<CategoricalResponse>(s); });
  }
}

TEST_CASE("a flat histogram's channel at its fine cells is the unary encoding's") {
  for (const char* name : {"sue", "oue"}) {
    const Survey survey = OneQuestion({{"type", "histogram"}, {"range", {0, 8}},
                                       {"histograms", {{{"name", "h"}, {"bins", 4}}}},
                                       {"mechanism", {{"name", name}, {"epsilon", 1}}}});
    const auto& kind = HistogramKindOf(survey.questions[0]);
    const CategoryChannel* channel = kind.category_channel();
    REQUIRE(channel != nullptr);
    CHECK(channel->category_labels() == std::vector<std::string>{"[0, 2)", "[2, 4)", "[4, 6)", "[6, 8]"});
    CheckChannelExactly(
        *channel, AllSupports(4), [&](const Support& s, int c) { return ProbabilityOf(kind.mechanism(), s, c); },
        [](const Support& s) { return std::make_unique<HistogramResponse>(1, s); });
  }
}

TEST_CASE("a tree histogram's channel: every level in the likelihood, leaf reports alone in the unbiased cells") {
  const Survey survey = OneQuestion({{"type", "histogram"}, {"range", {0, 8}},
                                     {"histograms", {{{"name", "fine"}, {"bins", 8}}, {{"name", "halves"}, {"bins", 2}}}},
                                     {"mechanism", {{"name", "tree"}, {"epsilon", 1}}}});
  const auto& kind = HistogramKindOf(survey.questions[0]);
  REQUIRE(kind.hierarchical());
  const CategoryChannel* channel = kind.category_channel();
  REQUIRE(channel != nullptr);
  const TreeShape shape = kind.shape();
  const auto& weights = kind.tree()->level_weights;
  const auto pq = kind.mechanism().probabilities();
  const std::size_t cells = channel->categories();
  // Reports are (level, bits), the level drawn with its weight: P(bits | level, cell) is the unary channel at the
  // cell's ancestor on that level.
  auto bits_probability = [&](int level, const Support& bits, std::size_t cell) {
    const int ancestor = static_cast<int>(cell) / shape.SpanOf(level);
    double p = 1.0;
    for (int v = 0; v < shape.NodesAt(level); ++v) {
      const double one = v == ancestor ? pq.p : pq.q;
      p *= bits[static_cast<std::size_t>(v)] ? one : 1.0 - one;
    }
    return p;
  };
  for (std::size_t c = 0; c < cells; ++c) {
    std::vector<double> mean(cells, 0.0);
    for (int level = 1; level <= shape.height; ++level) {
      for (const Support& bits : AllSupports(shape.NodesAt(level))) {
        const double p = weights[static_cast<std::size_t>(level) - 1] * bits_probability(level, bits, c);
        const auto z = channel->UnbiasedIndicators(HistogramResponse(level, bits));
        for (std::size_t i = 0; i < cells; ++i) mean[i] += p * z[i];
      }
    }
    for (std::size_t i = 0; i < cells; ++i) CHECK(mean[i] == doctest::Approx(i == c ? 1.0 : 0.0).epsilon(1e-9));
  }
  // The likelihood of every report over the cells is proportional to P(report | cell) (the weight is common).
  for (int level = 1; level <= shape.height; ++level) {
    for (const Support& bits : AllSupports(shape.NodesAt(level))) {
      const auto l = channel->Likelihood(HistogramResponse(level, bits));
      const double ratio = l[0] / bits_probability(level, bits, 0);
      for (std::size_t cell = 1; cell < cells; ++cell) {
        CHECK(l[cell] / bits_probability(level, bits, cell) == doctest::Approx(ratio).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("numeric questions: an unbiased value per report where the mechanism's mean is linear, none otherwise") {
  struct Case {
    const char* mechanism;
    bool has_channel;
  };
  for (const Case& test : {Case{R"({"name": "laplace", "epsilon": 1})", true},
                           Case{R"({"name": "duchi", "epsilon": 1})", true},
                           Case{R"({"name": "piecewise", "epsilon": 1})", true},
                           Case{R"({"name": "hybrid", "epsilon": 1})", true},
                           Case{R"({"name": "square_wave", "epsilon": 2})", true},
                           Case{R"({"name": "rvns", "window": 2, "values": 2, "window_mode": "fresh", "uniform_probability": 0.2})", false},
                           Case{R"({"name": "levels", "boundaries": [5], "epsilons": [1, 2]})", false}}) {
    CAPTURE(test.mechanism);
    const Survey survey = OneQuestion({{"type", "numeric"}, {"range", {0, 10}}, {"mechanism", json::parse(test.mechanism)}});
    const auto& kind = NumericKindOf(survey.questions[0]);
    const ValueChannel* channel = kind.value_channel();
    REQUIRE((channel != nullptr) == test.has_channel);
    if (!channel) continue;
    // Through the real pipeline: the mean of the unbiased values within 4.5 sd of the answer (sd from the
    // mechanism's own variance of its mean estimate).
    SeededRandom random(11);
    constexpr int kDraws = 20000;
    for (double x : {0.0, 2.5, 10.0}) {
      double sum = 0.0;
      for (int i = 0; i < kDraws; ++i) {
        auto report = ParseReport(survey, *PerturbAnswers(survey, json{{"q", x}}, random));
        REQUIRE(report.ok());
        sum += channel->UnbiasedValue(*report->responses[0]);
      }
      const double sd = std::sqrt(*kind.mechanism().MeanEstimateVariance(x) / kDraws);
      CHECK(std::abs(sum / kDraws - x) <= 4.5 * sd);
    }
  }
}
