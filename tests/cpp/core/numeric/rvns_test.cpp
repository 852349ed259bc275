// RVNS (core/numeric/rvns.h): validation, the exact sampler, its transition density
// and interval probabilities, the shared-window dependence (digest §5, W4) and
// an empirical-epsilon audit of the bounded variant. Fixed seeds; every
// statistical threshold carries its derivation. Most cases use [a, b] = [0, 10]
// and d = 2, so c = 1/(b - a - d) = 1/8.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/numeric/rvns.h"
#include "core/common/seeded_random.h"
#include "core/common/validation.h"
#include "tests/cpp/support/numeric_audit.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using deniable::testing::AuditNumericEpsilon;
using deniable::testing::ChiSquarePValue;
using deniable::testing::OutputInterval;
using deniable::testing::PerturbWith;
using Mode = RvnsParams::WindowMode;

namespace {

constexpr NumericRange kRange{0.0, 10.0};
constexpr double kWindow = 2.0;
constexpr double kC = 1.0 / 8.0;  // 1/(b - a - d)

std::unique_ptr<const RvnsMechanism> Make(const RvnsParams& params) {
  auto mechanism = CreateRvns(params);
  REQUIRE_MESSAGE(mechanism.ok(), (mechanism.ok() ? "" : mechanism.error()));
  return std::move(mechanism).value();
}

std::unique_ptr<const RvnsMechanism> Make(int k, Mode mode, double gamma = 0.0, double d = kWindow) {
  return Make({kRange, d, k, mode, gamma});
}

std::string CreateError(const RvnsParams& params) {
  auto mechanism = CreateRvns(params);
  REQUIRE_FALSE(mechanism.ok());
  return mechanism.error();
}

std::string ParseError(const nlohmann::json& object) {
  auto mechanism = ParseRvnsParams(object, kRange, "q.mechanism");
  REQUIRE_FALSE(mechanism.ok());
  return mechanism.error();
}

// Replays a fixed list of 64-bit draws; .at() fails the test if more are taken.
class ScriptedRandom final : public RandomSource {
 public:
  explicit ScriptedRandom(std::vector<std::uint64_t> draws) : draws_(std::move(draws)) {}
  std::uint64_t NextU64() override { return draws_.at(next_++); }
  bool exhausted() const { return next_ == draws_.size(); }

 private:
  std::vector<std::uint64_t> draws_;
  std::size_t next_ = 0;
};

// UniformUnit(draw) = (draw >> 11) / 2^53, so these give exactly 0.25, 0.5 and 0.75.
constexpr std::uint64_t kQuarter = std::uint64_t{1} << 62;
constexpr std::uint64_t kHalf = std::uint64_t{1} << 63;
constexpr std::uint64_t kThreeQuarters = 3 * (std::uint64_t{1} << 62);

constexpr Mode kModes[] = {Mode::kShared, Mode::kFreshPerValue};

}  // namespace

TEST_CASE("rvns: validation messages name the field, the allowed set and the value") {
  CHECK(CreateError({kRange, 6.0, 1, Mode::kShared}) == "window must be in [1e-06 (b-a), (b-a)/2] = [1e-05, 5], but is 6");
  CHECK(CreateError({kRange, 0.0, 1, Mode::kShared}) == "window must be in [1e-06 (b-a), (b-a)/2] = [1e-05, 5], but is 0");
  CHECK(CreateError({kRange, -1.0, 1, Mode::kShared}) == "window must be in [1e-06 (b-a), (b-a)/2] = [1e-05, 5], but is -1");
  CHECK(CreateError({kRange, std::nan(""), 1, Mode::kShared}) ==
        "window must be in [1e-06 (b-a), (b-a)/2] = [1e-05, 5], but is nan");
  CHECK(CreateError({kRange, 2.0, 0, Mode::kShared}) == "values must be between 1 and 100, but is 0");
  CHECK(CreateError({kRange, 2.0, 101, Mode::kShared}) == "values must be between 1 and 100, but is 101");
  CHECK(CreateError({kRange, 2.0, 1, Mode::kShared, 1.0}) == "uniform_probability must be in [0, 1), but is 1");
  CHECK(CreateError({kRange, 2.0, 1, Mode::kShared, -0.1}) ==
        "uniform_probability must be in [0, 1), but is -0.1");
  CHECK(CreateError({kRange, 2.0, 1, Mode::kShared, std::nan("")}) ==
        "uniform_probability must be in [0, 1), but is nan");
  // (1 - gamma) 10 / (gamma 8) overflows a double: a positive gamma must still give a finite epsilon.
  CHECK(CreateError({kRange, 2.0, 1, Mode::kShared, 1e-320}) ==
        "uniform_probability " + FormatNumber(1e-320) +
            " is too small for a finite epsilon (use 0 for the published RVNS)");
  CHECK(CreateError({{5.0, 5.0}, 1.0, 1, Mode::kShared}) == "range must be finite with low < high, but is [5, 5]");
  CHECK(CreateError({{10.0, 0.0}, 1.0, 1, Mode::kShared}) ==
        "range must be finite with low < high, but is [10, 0]");
  CHECK(CreateError({{0.0, std::numeric_limits<double>::infinity()}, 1.0, 1, Mode::kShared}) ==
        "range must be finite with low < high, but is [0, inf]");
  CHECK(CreateError({{-1e308, 1e308}, 1.0, 1, Mode::kShared}) ==
        "range must be finite with low < high, but is [-1e+308, 1e+308]");
  // The limits themselves are valid.
  CHECK(CreateRvns({kRange, 5.0, 100, Mode::kFreshPerValue, 0.999}).ok());
  CHECK(CreateRvns({kRange, 1e-5, 1, Mode::kShared, 0.0}).ok());
  CHECK(CreateError({kRange, 1e-9, 1, Mode::kShared}) ==
        "window must be in [1e-06 (b-a), (b-a)/2] = [1e-05, 5], but is 1e-09");
  CHECK(CreateError({kRange, 2.0, 1, Mode::kShared, 0.9999999999}) ==
        "uniform_probability 0.9999999999 gives epsilon " + FormatNumber(std::log1p((1.0 - 0.9999999999) * 10.0 / (0.9999999999 * 8.0))) +
            ", below the smallest 0.01: lower it (the reports would be almost pure noise)");
  // A small gamma gives a large epsilon, which is allowed: it only approaches the published RVNS.
  CHECK(CreateRvns({kRange, 2.0, 7, Mode::kShared, 1e-300}).ok());

  const auto rvns = Make(3, Mode::kShared);
  SeededRandom random(1);
  for (double bad : {11.0, -0.001, std::nan(""), std::numeric_limits<double>::infinity()}) {
    const auto report = rvns->Perturb(bad, random);
    REQUIRE_FALSE(report.ok());
    CHECK(report.error() == "answer must be a number in [0, 10], but is " + FormatNumber(bad));
    const auto explained = rvns->PerturbExplained(bad, random);
    REQUIRE_FALSE(explained.ok());
    CHECK(explained.error() == report.error());
  }
  // Out-of-range inputs give probability and density 0 rather than garbage.
  CHECK(rvns->OutputProbability(11.0, 0.0, 10.0) == 0.0);
  CHECK(rvns->OutputProbability(std::nan(""), 0.0, 10.0) == 0.0);
  CHECK(rvns->OutputProbability(5.0, std::nan(""), 10.0) == 0.0);
  CHECK(rvns->TransitionDensity(-1.0, 3.0) == 0.0);
  CHECK(rvns->TransitionDensity(5.0, 10.5) == 0.0);
}

TEST_CASE("rvns: parameters to JSON, and strict parsing of the mechanism object") {
  const auto shared = Make(3, Mode::kShared);
  CHECK(shared->name() == "rvns");
  CHECK(shared->ParamsToJson() == nlohmann::json::parse(R"({"name":"rvns","window":2,"values":3,
                                                             "window_mode":"shared"})"));
  const auto fresh = Make(4, Mode::kFreshPerValue, 0.25);
  const auto fresh_json = nlohmann::json::parse(R"({"name":"rvns","window":2,"values":4,"window_mode":"fresh",
                                                    "uniform_probability":0.25})");
  CHECK(fresh->ParamsToJson() == fresh_json);
  CHECK(fresh->values_per_report() == 4);
  CHECK(fresh->output_range().low == 0.0);
  CHECK(fresh->output_range().high == 10.0);

  // Round trip.
  auto parsed = ParseRvnsParams(fresh_json, kRange, "q.mechanism");
  REQUIRE(parsed.ok());
  CHECK((*parsed)->ParamsToJson() == fresh_json);
  CHECK((*parsed)->params().mode == Mode::kFreshPerValue);
  CHECK((*parsed)->params().uniform_probability == 0.25);

  const auto with = [](const char* patch) {
    auto object = nlohmann::json::parse(R"({"name":"rvns","window":2,"values":3,"window_mode":"shared"})");
    object.merge_patch(nlohmann::json::parse(patch));
    return object;
  };
  CHECK(ParseError(with(R"({"epsilon":1})")) ==
        "q.mechanism.epsilon: unknown field (expected one of name, window, values, window_mode, "
        "uniform_probability)");
  CHECK(ParseError(with(R"({"window":null})")) == "q.mechanism.window: required field is missing");
  CHECK(ParseError(with(R"({"window":"2"})")) == "q.mechanism.window: must be a finite number, but is \"2\"");
  CHECK(ParseError(with(R"({"window":6})")) == "q.mechanism.window: window must be in [1e-06 (b-a), (b-a)/2] = [1e-05, 5], but is 6");
  CHECK(ParseError(with(R"({"values":2.5})")) == "q.mechanism.values: must be an integer, but is 2.5");
  CHECK(ParseError(with(R"({"values":0})")) == "q.mechanism.values: must be between 1 and 100, but is 0");
  CHECK(ParseError(with(R"({"window_mode":null})")) == "q.mechanism.window_mode: required field is missing");
  CHECK(ParseError(with(R"({"window_mode":"both"})")) ==
        "q.mechanism.window_mode: must be \"shared\" or \"fresh\", but is \"both\"");
  CHECK(ParseError(with(R"({"uniform_probability":"0.1"})")) ==
        "q.mechanism.uniform_probability: must be a finite number, but is \"0.1\"");
  CHECK(ParseError(with(R"({"uniform_probability":1})")) ==
        "q.mechanism.uniform_probability: uniform_probability must be in [0, 1), but is 1");
  // gamma this close to 1 leaves epsilon below the smallest accepted, 0.01.
  CHECK(ParseError(with(R"({"uniform_probability":0.9999999999})"))
            .rfind("q.mechanism.uniform_probability: uniform_probability 0.9999999999 gives epsilon ", 0) == 0);
  CHECK(ParseError(with(R"({"name":"laplace"})")) == "q.mechanism.name: must be \"rvns\", but is \"laplace\"");
  CHECK(ParseError(nlohmann::json::array()) == "q.mechanism must be a JSON object, but is array");
  auto bad_range = ParseRvnsParams(with("{}"), {1.0, 1.0}, "q.mechanism");
  REQUIRE_FALSE(bad_range.ok());
  CHECK(bad_range.error() == "q.mechanism: range must be finite with low < high, but is [1, 1]");
}

TEST_CASE("rvns: epsilon is k ln(1 + (1-gamma)(b-a)/(gamma(b-a-d))), absent for the published RVNS") {
  CHECK_FALSE(Make(1, Mode::kShared)->epsilon().has_value());
  CHECK_FALSE(Make(5, Mode::kFreshPerValue)->epsilon().has_value());
  // gamma = 0.5, d = 2 on [0, 10]: 1 + 0.5 * 10 / (0.5 * 8) = 2.25.
  CHECK(*Make(1, Mode::kShared, 0.5)->epsilon() == doctest::Approx(std::log(2.25)).epsilon(1e-14));
  // gamma = 0.2, k = 3: 1 + 0.8 * 10 / (0.2 * 8) = 6, so 3 ln 6 in either mode.
  CHECK(*Make(3, Mode::kShared, 0.2)->epsilon() == doctest::Approx(3 * std::log(6.0)).epsilon(1e-14));
  CHECK(*Make(3, Mode::kFreshPerValue, 0.2)->epsilon() == doctest::Approx(3 * std::log(6.0)).epsilon(1e-14));
  // d = 5 (the maximum): 1 + 0.8 * 10 / (0.2 * 5) = 9.
  CHECK(*Make(1, Mode::kShared, 0.2, 5.0)->epsilon() == doctest::Approx(std::log(9.0)).epsilon(1e-14));
  // The inverse gives back gamma.
  for (double gamma : {0.01, 0.2, 0.5, 0.9}) {
    for (int k : {1, 7}) {
      const double epsilon = *Make(k, Mode::kShared, gamma, 3.0)->epsilon();
      CHECK(RvnsUniformProbabilityForEpsilon(epsilon, kRange, 3.0, k) == doctest::Approx(gamma).epsilon(1e-12));
    }
  }
}

TEST_CASE("rvns: the transition density is eqs. 2-4 (hand-computed points, digest §3.3 and §4.2)") {
  const auto rvns = Make(1, Mode::kShared);
  // Left case x = 1: c(x-y)/(x-a) on [a, x), 0 on [x, a+d], c(y-a-d)/(x-a) on (a+d, x+d], c beyond.
  CHECK(rvns->TransitionDensity(1.0, 0.5) == doctest::Approx(0.0625));  // the digest's example
  CHECK(rvns->TransitionDensity(1.0, 1.5) == 0.0);
  CHECK(rvns->TransitionDensity(1.0, 2.5) == doctest::Approx(0.0625));  // the digest's example
  CHECK(rvns->TransitionDensity(1.0, 3.5) == kC);
  // x = a: 0 on [a, a+d], c after.
  CHECK(rvns->TransitionDensity(0.0, 1.0) == 0.0);
  CHECK(rvns->TransitionDensity(0.0, 2.0) == 0.0);
  CHECK(rvns->TransitionDensity(0.0, 2.5) == kC);
  // Middle x = 5: c|y-x|/d within d of x, 0 at x.
  CHECK(rvns->TransitionDensity(5.0, 5.0) == 0.0);
  CHECK(rvns->TransitionDensity(5.0, 4.0) == doctest::Approx(kC / 2));
  CHECK(rvns->TransitionDensity(5.0, 6.5) == doctest::Approx(kC * 0.75));
  CHECK(rvns->TransitionDensity(5.0, 2.9) == kC);
  // Right case x = 9: c on [a, x-d), c(b-d-y)/(b-x) on [x-d, b-d), 0 on [b-d, x], c(y-x)/(b-x) on (x, b].
  CHECK(rvns->TransitionDensity(9.0, 6.5) == kC);
  CHECK(rvns->TransitionDensity(9.0, 7.5) == doctest::Approx(kC * 0.5));
  CHECK(rvns->TransitionDensity(9.0, 8.5) == 0.0);
  CHECK(rvns->TransitionDensity(9.0, 9.75) == doctest::Approx(kC * 0.75));
  // The uniform mixture: (1 - gamma) p + gamma/(b - a).
  const auto mixed = Make(1, Mode::kShared, 0.2);
  CHECK(mixed->TransitionDensity(1.0, 1.5) == doctest::Approx(0.02));
  CHECK(mixed->TransitionDensity(1.0, 0.5) == doctest::Approx(0.8 * 0.0625 + 0.02));
  CHECK(mixed->TransitionDensity(0.0, 2.5) == doctest::Approx(0.8 * kC + 0.02));
}

TEST_CASE("rvns: scripted draws give hand-computed reports (exact, so native and wasm agree)") {
  const auto explain = [](const RvnsMechanism& rvns, double x, std::vector<std::uint64_t> draws) {
    ScriptedRandom random(std::move(draws));
    auto report = rvns.PerturbExplained(x, random);
    REQUIRE(report.ok());
    CHECK(random.exhausted());
    return std::move(report).value();
  };
  const auto shared = Make(2, Mode::kShared);
  // Middle x = 5: L ~ U[3, 5]; 0.25 -> window [3.5, 5.5]. Allowed length 8: u = 2 -> 2; u = 6 -> 5.5 + (6 - 3.5) = 8.
  auto report = explain(*shared, 5.0, {kQuarter, kQuarter, kThreeQuarters});
  CHECK(report[0].value == 2.0);
  CHECK(report[1].value == 8.0);
  CHECK(report[0].window.low == 3.5);
  CHECK(report[0].window.high == 5.5);
  CHECK(report[1].window.low == 3.5);
  // A draw landing exactly on the window's upper end is moved just past it (the window is closed).
  report = explain(*shared, 5.0, {kHalf, kHalf, kQuarter});  // window [4, 6], u = 4 = left length
  CHECK(report[0].value == std::nextafter(6.0, 10.0));
  CHECK(report[1].value == 2.0);
  // x = a: the window is [a, a + d] whatever the draw; everything is drawn from (2, 10].
  report = explain(*shared, 0.0, {kThreeQuarters, kQuarter, kHalf});
  CHECK(report[0].window.low == 0.0);
  CHECK(report[0].window.high == 2.0);
  CHECK(report[0].value == 4.0);
  CHECK(report[1].value == 6.0);
  // x = b: the window is [b - d, b]; everything is drawn from [0, 8).
  report = explain(*shared, 10.0, {kQuarter, kThreeQuarters, kQuarter});
  CHECK(report[0].window.low == 8.0);
  CHECK(report[0].window.high == 10.0);
  CHECK(report[0].value == 6.0);
  CHECK(report[1].value == 2.0);
  // Left boundary x = 1: L ~ U[0, 1]. Right boundary x = 9: L ~ U[7, 8] (d2 = R - x ~ U[0, b - x]).
  CHECK(explain(*shared, 1.0, {kHalf, kQuarter, kQuarter})[0].window.low == 0.5);
  report = explain(*shared, 9.0, {kHalf, kQuarter, kQuarter});
  CHECK(report[0].window.low == 7.5);
  CHECK(report[0].window.high == 9.5);

  // Fresh windows with gamma = 0.5: per value a window, then the Bernoulli(gamma) (UniformUnit < gamma), then the value.
  const auto fresh = Make(2, Mode::kFreshPerValue, 0.5);
  report = explain(*fresh, 5.0, {kHalf, kQuarter, kThreeQuarters, kQuarter, kThreeQuarters, kQuarter});
  CHECK(report[0].window.low == 4.0);
  CHECK(report[0].uniform);
  CHECK(report[0].value == 7.5);  // uniform on [0, 10]
  CHECK(report[1].window.low == 3.5);
  CHECK_FALSE(report[1].uniform);
  CHECK(report[1].value == 2.0);

  // Perturb makes the same draws and returns just the values.
  SeededRandom first(7), second(7);
  const auto values = *fresh->Perturb(3.3, first);
  const auto explained = *fresh->PerturbExplained(3.3, second);
  REQUIRE(values.size() == 2);
  CHECK(values[0] == explained[0].value);
  CHECK(values[1] == explained[1].value);
}

TEST_CASE("rvns: no value ever lies inside its window; boundary answers keep exactly d of distance") {
  struct Setting {
    NumericRange range;
    double d;
  };
  // Besides [0, 10], the widest window on [-1, 1] and a range far from 0, where rounding is coarse.
  const Setting settings[] = {{kRange, kWindow}, {{-1.0, 1.0}, 1.0}, {{1e6, 1e6 + 1.0}, 0.3}};
  for (const auto& setting : settings) {
    const double a = setting.range.low, b = setting.range.high, d = setting.d, w = setting.range.width();
    std::vector<double> answers = {a, std::nextafter(a, b), a + 0.35 * w, a + d, std::nextafter(a + d, a),
                                   (a + b) / 2, b - d, std::nextafter(b - d, b), b - 0.07 * w,
                                   std::nextafter(b, a), b};
    for (int i = 0; i < 20; ++i) answers.push_back(a + w * (i + 0.5) / 20);
    for (Mode mode : kModes) {
      for (double gamma : {0.0, 0.3}) {
        const auto rvns = Make({setting.range, d, 5, mode, gamma});
        SeededRandom random(99);
        for (double x : answers) {
          CAPTURE(x);
          double nearest = std::numeric_limits<double>::infinity();
          for (int t = 0; t < 400; ++t) {
            const auto report = *rvns->PerturbExplained(x, random);
            REQUIRE(report.size() == 5);
            for (const auto& item : report) {
              const RvnsWindow& window = item.window;
              CHECK(window.low >= a);
              CHECK(window.high <= b);
              CHECK(window.low <= x);
              CHECK(x <= window.high);
              CHECK(std::fabs(window.high - window.low - d) <= 4 * std::numeric_limits<double>::epsilon() * b);
              CHECK(item.value >= a);
              CHECK(item.value <= b);
              if (mode == Mode::kShared) {
                CHECK(window.low == report[0].window.low);
                CHECK(window.high == report[0].window.high);
              }
              if (!item.uniform) {
                CHECK((item.value < window.low || item.value > window.high));
                nearest = std::min(nearest, std::fabs(item.value - x));
              }
            }
          }
          // At x = a (x = b) the window is [a, a+d] ([b-d, b]): the closest value is more than d away, and with
          // ~1400 values drawn uniformly from a length of w - d, the closest is within (w - d)/100 of d
          // (P(miss) = (1 - 1/100)^1400 < 1e-6).
          if (x == a || x == b) {
            CHECK(nearest > d);
            CHECK(nearest < d + (w - d) / 100);
          }
        }
      }
    }
  }
}

namespace {

constexpr int kBins = 50;
// Threshold for every goodness-of-fit test: a correct sampler fails with probability 1e-6.
constexpr double kRejectBelow = 1e-6;

std::vector<double> BinProbabilities(const RvnsMechanism& rvns, double x) {
  std::vector<double> probabilities;
  for (int i = 0; i < kBins; ++i) {
    probabilities.push_back(rvns.OutputProbability(x, 10.0 * i / kBins, 10.0 * (i + 1) / kBins));
  }
  return probabilities;
}

int BinOf(double y) { return std::min(kBins - 1, static_cast<int>(y / 10.0 * kBins)); }

// Chi-square p-value of `draws` values (one per report, the value at position t % k,
// so the counted values are independent) against OutputProbability on 50 bins of [0, 10].
double FitPValue(const RvnsMechanism& rvns, double x, int draws, std::uint64_t seed) {
  std::vector<std::int64_t> observed(kBins, 0);
  SeededRandom random(seed);
  for (int t = 0; t < draws; ++t) {
    const auto report = *rvns.Perturb(x, random);
    ++observed[BinOf(report[static_cast<std::size_t>(t) % report.size()])];
  }
  return ChiSquarePValue(observed, BinProbabilities(rvns, x));
}

// Canaries: window placements the digest warns against, on [0, 10] with d = 2.
// "clamped": every left-boundary window is [a, a + d] (contradicts eq. 2, digest C3).
// "one-character fix": right-boundary d1 ~ U[0, b - x] (digest C2), so the window can leave [a, b].
// Only for answers in the respective boundary case.
double CanaryFitPValue(bool clamped, double x, int draws, std::uint64_t seed) {
  const auto rvns = Make(1, Mode::kShared);
  std::vector<std::int64_t> observed(kBins, 0);
  SeededRandom random(seed);
  for (int t = 0; t < draws; ++t) {
    const double low = clamped ? 0.0 : x - (10.0 - x) * UniformUnit(random);
    const double high = std::min(low + 2.0, 10.0);
    const double left = low, right = 10.0 - high;
    const double u = UniformUnit(random) * (left + right);
    ++observed[BinOf(u < left ? u : high + (u - left))];
  }
  return ChiSquarePValue(observed, BinProbabilities(*rvns, x));
}

}  // namespace

TEST_CASE("rvns: sampled values fit OutputProbability (chi-square, 50 bins) in every case and mode") {
  // Left boundary (0.7, 1.9), middle (2 = a + d, 5), right boundary (8.6), and x = a, x = b.
  // 40000 values: the smallest non-empty bin expectation is far above the pooling threshold of 5.
  std::uint64_t seed = 100;
  for (Mode mode : kModes) {
    for (double gamma : {0.0, 0.2}) {
      const auto rvns = Make(3, mode, gamma);
      for (double x : {0.0, 0.7, 1.9, 2.0, 5.0, 8.6, 10.0}) {
        CAPTURE(x);
        CAPTURE(gamma);
        CHECK(FitPValue(*rvns, x, 40000, ++seed) > kRejectBelow);
      }
    }
  }
  CHECK(CanaryFitPValue(true, 0.7, 40000, 1) < kRejectBelow);
  CHECK(CanaryFitPValue(false, 9.0, 40000, 2) < kRejectBelow);
}

TEST_CASE("rvns: OutputProbability is a distribution, the integral of TransitionDensity, and continuous in x") {
  for (double gamma : {0.0, 0.2}) {
    const auto rvns = Make(1, Mode::kShared, gamma);
    CAPTURE(gamma);
    // Total mass 1 over [a, b] and over a wider interval (clipped), for a dense set of x.
    for (int i = 0; i <= 400; ++i) {
      const double x = 10.0 * i / 400;
      CAPTURE(x);
      CHECK(rvns->OutputProbability(x, 0.0, 10.0) == doctest::Approx(1.0).epsilon(1e-13));
      CHECK(rvns->OutputProbability(x, -5.0, 15.0) == doctest::Approx(1.0).epsilon(1e-13));
      double total = 0.0;
      for (double p : BinProbabilities(*rvns, x)) {
        CHECK(p >= 0.0);
        total += p;
      }
      CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
      CHECK(rvns->OutputProbability(x, 3.0, 3.0) == 0.0);
      CHECK(rvns->OutputProbability(x, 4.0, 3.0) == 0.0);
    }
    // Hand-computed: x = a puts no (1-gamma) mass in [0, 2]; the middle triangle [3, 7] around 5 holds c d.
    CHECK(rvns->OutputProbability(0.0, 0.0, 2.0) == doctest::Approx(gamma * 0.2).epsilon(1e-14));
    CHECK(rvns->OutputProbability(10.0, 8.0, 10.0) == doctest::Approx(gamma * 0.2).epsilon(1e-14));
    CHECK(rvns->OutputProbability(5.0, 3.0, 7.0) == doctest::Approx((1 - gamma) * kC * 2 + gamma * 0.4));
    CHECK(rvns->OutputProbability(5.0, 4.0, 5.0) == doctest::Approx((1 - gamma) * kC / 4 + gamma * 0.1));

    // Against the trapezoid rule on TransitionDensity with n = 200000 steps (h <= 10/n = 5e-5). The density is
    // piecewise linear in y, so the rule is exact except on the <= 4 steps holding a kink or a jump: a kink costs
    // <= h^2 |slope change| / 8 <= (5e-5)^2 * 2 (c/0.3) / 8 = 2.6e-10 for the x below (boundary slopes are at most
    // c/0.3); a jump (only at x = a or b, height <= c) costs <= h c / 2 = 3.2e-6.
    const std::pair<double, double> intervals[] = {{0, 10},  {0, 0.5},    {0.3, 1.1}, {1.5, 2.7},
                                                  {3.9, 5.2}, {4.99, 5.01}, {7.9, 9.1}, {9.5, 10}};
    for (double x : {0.0, 0.3, 0.7, 1.9, 2.0, 5.0, 8.1, 8.6, 9.7, 10.0}) {
      for (const auto& [y0, y1] : intervals) {
        CAPTURE(x);
        CAPTURE(y0);
        const int n = 200000;
        const double h = (y1 - y0) / n;
        double integral = 0.5 * (rvns->TransitionDensity(x, y0) + rvns->TransitionDensity(x, y1));
        for (int i = 1; i < n; ++i) integral += rvns->TransitionDensity(x, y0 + i * h);
        integral *= h;
        const double tolerance = (x == 0.0 || x == 10.0) ? 3.2e-6 : 4 * 2.6e-10 + 1e-13;
        CHECK(std::fabs(rvns->OutputProbability(x, y0, y1) - integral) <= tolerance);
      }
    }

    // Continuous in x across the case boundaries a + d and b - d, and at a and b themselves:
    // |d/dx OutputProbability| <= c (the mean overlap moves at most 1 per unit of x), so a step
    // of 2e-9 changes it by <= 2.5e-10.
    for (const auto& [y0, y1] : intervals) {
      for (double x : {2.0, 8.0}) {
        CHECK(std::fabs(rvns->OutputProbability(x - 1e-9, y0, y1) - rvns->OutputProbability(x + 1e-9, y0, y1)) <=
              3e-10);
      }
      CHECK(std::fabs(rvns->OutputProbability(0.0, y0, y1) - rvns->OutputProbability(2e-9, y0, y1)) <= 3e-10);
      CHECK(std::fabs(rvns->OutputProbability(10.0, y0, y1) - rvns->OutputProbability(10.0 - 2e-9, y0, y1)) <=
            3e-10);
      // Next to a, the left-boundary window range has width ~1e-300: no cancellation.
      CHECK(std::fabs(rvns->OutputProbability(0.0, y0, y1) - rvns->OutputProbability(1e-300, y0, y1)) <= 1e-15);
    }
  }
}

TEST_CASE("rvns: with one shared window the k values are dependent (digest W4); fresh windows are not") {
  // x = 5, d = 2, k = 2, delta = 0.3 < d/6. Event: one value in A = [x-3delta, x-delta], the other in
  // B = [x+delta, x+3delta]. With a shared window this needs d1 = x - L < 3 delta and d1 > d - 3 delta at once:
  // impossible. With fresh windows the values are independent, each in A (or B) with probability
  // c/d * ((3delta)^2 - delta^2)/2 = 0.0225, so P(event) = 2 * 0.0225^2 = 1.0125e-3 (digest: 1.0e-3).
  const double x = 5.0, delta = 0.3;
  const auto in = [](double y, double low, double high) { return y >= low && y <= high; };
  const auto count = [&](const RvnsMechanism& rvns, int reports) {
    SeededRandom random(2024);
    int hits = 0;
    for (int t = 0; t < reports; ++t) {
      const auto v = *rvns.Perturb(x, random);
      const bool a0 = in(v[0], x - 3 * delta, x - delta), b0 = in(v[0], x + delta, x + 3 * delta);
      const bool a1 = in(v[1], x - 3 * delta, x - delta), b1 = in(v[1], x + delta, x + 3 * delta);
      hits += (a0 && b1) || (b0 && a1);
    }
    return hits;
  };
  const int reports = 200000;
  CHECK(count(*Make(2, Mode::kShared), reports) == 0);
  const auto fresh = Make(2, Mode::kFreshPerValue);
  const double p_side = fresh->OutputProbability(x, x - 3 * delta, x - delta);
  CHECK(p_side == doctest::Approx(0.0225).epsilon(1e-12));
  CHECK(fresh->OutputProbability(x, x + delta, x + 3 * delta) == doctest::Approx(0.0225).epsilon(1e-12));
  const double p = 2 * p_side * p_side;
  // Binomial(200000, 1.0125e-3): mean 202.5, sd 14.2; accept within 5 sd (false failure < 1e-6).
  const double expected = reports * p, sd = std::sqrt(reports * p * (1 - p));
  CHECK(std::fabs(count(*fresh, reports) - expected) <= 5 * sd);
}

TEST_CASE("rvns: empirical epsilon of the bounded variant reaches, but never exceeds, the claimed epsilon") {
  // x0 = a and x1 = b fix the windows at [0, 2] and [8, 10] in both modes. A value lands in [0, 2] with
  // probability gamma * 0.2 under a (only the uniform draw can) and (1-gamma) * 2c + gamma * 0.2 under b:
  // gamma = 0.5 gives 0.1 and 0.225, ratio 2.25 = e^epsilon. "All k values in [0, 2]" has the k-th powers.
  // The audit's per-bound alpha is 1e-6 / 12 (3 events, 2 directions, 2 bounds each): z = 5.24.
  // Its lower bound is about eps_hat - z (s0 + s1), with s_i = sqrt((1 - p_i)/(N p_i)) the relative sds, and
  // eps_hat is within 5 sqrt(s0^2 + s1^2) of epsilon (false failure < 1e-6). Hence the margins:
  //   k = 1, N = 200000: s = 0.0067, 0.0041 -> 5.24 * 0.0109 + 5 * 0.0079 = 0.097 -> 0.1;
  //   k = 2, N = 400000: p = 0.01, 0.0506; s = 0.0157, 0.0068 -> 5.24 * 0.0226 + 5 * 0.0172 = 0.204 -> 0.21.
  const std::vector<OutputInterval> events = {{0.0, 2.0}, {8.0, 10.0}, {4.0, 6.0}};
  const double alpha = 1e-6;
  struct Case {
    int k;
    std::int64_t trials;
    double margin;
  };
  for (const Case& c : {Case{1, 200000, 0.1}, Case{2, 400000, 0.21}}) {
    for (Mode mode : kModes) {
      CAPTURE(c.k);
      const auto rvns = Make(c.k, mode, 0.5);
      const double claimed = *rvns->epsilon();
      CHECK(claimed == doctest::Approx(c.k * std::log(2.25)));
      const auto audit = AuditNumericEpsilon(PerturbWith(*rvns), 0.0, 10.0, events, c.trials, alpha, 31 + c.k);
      CHECK(audit.lower_bound <= claimed);
      CHECK(audit.lower_bound >= claimed - c.margin);
      // Canary: a sampler using gamma = 0.3 while claiming gamma = 0.5's epsilon. Its true epsilon is
      // k ln(1 + 0.7 * 10/(0.3 * 8)) = 1.365 k, so the audit must catch it (lower bound ~1.30 k - margin).
      const auto leaky = Make(c.k, mode, 0.3);
      const auto caught = AuditNumericEpsilon(PerturbWith(*leaky), 0.0, 10.0, events, c.trials, alpha, 41 + c.k);
      CHECK(caught.lower_bound > claimed);
    }
  }
  // The published RVNS: under x = a no value ever lands in [0, 2], so the lower bound only grows with N.
  // With N = 200000 and 0 hits the upper bound is ~ln(12/alpha)/N = 8.1e-5 against ~0.25: ln(3000) = 8.0.
  const auto pure = Make(1, Mode::kShared);
  const auto unbounded = AuditNumericEpsilon(PerturbWith(*pure), 0.0, 10.0, events, 200000, alpha, 5);
  CHECK(unbounded.lower_bound > 7.5);
  CHECK(unbounded.point == std::numeric_limits<double>::infinity());
}
