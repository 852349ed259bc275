// The numeric baselines (Laplace, Duchi, Piecewise, Hybrid, Square Wave):
// exact behaviour (validation, parameters, sampler bounds, the papers'
// densities written here independently of core) and statistical tests with
// fixed seeds and tolerances derived from formulas:
//   1. output distribution: chi-square of samples against OutputProbability;
//   2. unbiasedness, variance against UnbiasedValueVariance, 95% CI coverage;
//   3. empirical-epsilon audit: never above the claimed epsilon, close to it.
// Every statistical check also runs on a deliberately broken variant
// ("canary") and must reject it: a test that cannot fail proves nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/numeric/duchi.h"
#include "core/frequency/frequency_estimator.h"
#include "core/numeric/hybrid.h"
#include "core/numeric/laplace.h"
#include "core/numeric/piecewise.h"
#include "core/common/portable_math.h"
#include "core/common/seeded_random.h"
#include "core/numeric/square_wave.h"
#include "tests/cpp/support/numeric_audit.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using deniable::testing::AuditNumericEpsilon;
using deniable::testing::ChiSquarePValue;
using deniable::testing::OutputInterval;
using deniable::testing::PerturbWith;
using deniable::testing::SampleMean;

namespace {

// Asymmetric around 0 with width 10: a mistake in mapping to [-1, 1] or [0, 1] shows.
constexpr NumericRange kRange{-2.0, 8.0};
constexpr double kMid = 3.0;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

enum class Kind { kLaplace, kDuchi, kPiecewise, kHybrid, kSquareWave };
const Kind kAllKinds[] = {Kind::kLaplace, Kind::kDuchi, Kind::kPiecewise, Kind::kHybrid, Kind::kSquareWave};
const Kind kUnbiasedKinds[] = {Kind::kLaplace, Kind::kDuchi, Kind::kPiecewise, Kind::kHybrid};

std::string KindName(Kind kind) {
  switch (kind) {
    case Kind::kLaplace: return "laplace";
    case Kind::kDuchi: return "duchi";
    case Kind::kPiecewise: return "piecewise";
    case Kind::kHybrid: return "hybrid";
    case Kind::kSquareWave: return "square_wave";
  }
  return "";
}

template <typename T>
std::unique_ptr<const NumericMechanism> Unwrap(Result<std::unique_ptr<const T>> made) {
  REQUIRE_MESSAGE(made.ok(), (made.ok() ? "" : made.error()));
  return std::move(made).value();
}

std::unique_ptr<const NumericMechanism> Make(Kind kind, double epsilon, NumericRange range = kRange) {
  switch (kind) {
    case Kind::kLaplace: return Unwrap(CreateLaplace(range, epsilon));
    case Kind::kDuchi: return Unwrap(CreateDuchi(range, epsilon));
    case Kind::kPiecewise: return Unwrap(CreatePiecewise(range, epsilon));
    case Kind::kHybrid: return Unwrap(CreateHybrid(range, epsilon));
    case Kind::kSquareWave: return Unwrap(CreateSquareWave(range, epsilon));
  }
  return nullptr;
}

std::string CreateError(Kind kind, NumericRange range, double epsilon) {
  std::string error;
  const auto take = [&](const auto& made) { error = made.ok() ? "(created)" : made.error(); };
  switch (kind) {
    case Kind::kLaplace: take(CreateLaplace(range, epsilon)); break;
    case Kind::kDuchi: take(CreateDuchi(range, epsilon)); break;
    case Kind::kPiecewise: take(CreatePiecewise(range, epsilon)); break;
    case Kind::kHybrid: take(CreateHybrid(range, epsilon)); break;
    case Kind::kSquareWave: take(CreateSquareWave(range, epsilon)); break;
  }
  return error;
}

// Parses a mechanism object with the kind's parser; returns the error or the canonical JSON.
std::string ParseOutcome(Kind kind, const nlohmann::json& object) {
  const std::string where = "questions[0].mechanism";
  std::string outcome;
  const auto take = [&](const auto& made) { outcome = made.ok() ? (*made)->ParamsToJson().dump() : made.error(); };
  switch (kind) {
    case Kind::kLaplace: take(ParseLaplaceParams(object, kRange, where)); break;
    case Kind::kDuchi: take(ParseDuchiParams(object, kRange, where)); break;
    case Kind::kPiecewise: take(ParsePiecewiseParams(object, kRange, where)); break;
    case Kind::kHybrid: take(ParseHybridParams(object, kRange, where)); break;
    case Kind::kSquareWave: take(ParseSquareWaveParams(object, kRange, where)); break;
  }
  return outcome;
}

// A RandomSource that always returns the same word: scripted extreme draws.
class ConstantRandom final : public RandomSource {
 public:
  explicit ConstantRandom(std::uint64_t word) : word_(word) {}
  std::uint64_t NextU64() override { return word_; }

 private:
  std::uint64_t word_;
};

}  // namespace

// ---- Exact behaviour ---------------------------------------------------------------------------

TEST_CASE("numeric baselines: creation validates epsilon and the range with clear messages") {
  for (Kind kind : kAllKinds) {
    INFO(KindName(kind));
    CHECK(CreateError(kind, kRange, -1.0) == "epsilon must be finite and in [0.01, 30], but is -1");
    CHECK(CreateError(kind, kRange, 0.0) == "epsilon must be finite and in [0.01, 30], but is 0");
    CHECK(CreateError(kind, kRange, 31.0) == "epsilon must be finite and in [0.01, 30], but is 31");
    CHECK(CreateError(kind, kRange, NAN) == "epsilon must be finite and in [0.01, 30], but is nan");
    CHECK(CreateError(kind, {5.0, 1.0}, 1.0) == "range must be finite with low < high, but is [5, 1]");
    CHECK(CreateError(kind, {1.0, 1.0}, 1.0) == "range must be finite with low < high, but is [1, 1]");
    CHECK(CreateError(kind, {0.0, kInfinity}, 1.0) == "range must be finite with low < high, but is [0, inf]");
    CHECK(CreateError(kind, {NAN, 1.0}, 1.0) == "range must be finite with low < high, but is [nan, 1]");
    // A finite range whose width overflows.
    CHECK(CreateError(kind, {-1e308, 1e308}, 1.0) ==
          "range must be finite with low < high, but is [-1e+308, 1e+308]");
    CHECK(CreateError(kind, kRange, 30.0) == "(created)");
  }
  // Huge ranges, tiny epsilons and ranges too narrow for their ends are refused, so
  // reports cannot overflow a double and the estimators' grids stay well represented.
  for (Kind kind : kAllKinds) {
    CHECK(CreateError(kind, {-1e300, 1e300}, 1.0) ==
          "range ends must lie in [-1000000000, 1000000000], but the range is [-1e+300, 1e+300]");
    CHECK(CreateError(kind, {-1e308, 60.0}, 1.0) ==
          "range ends must lie in [-1000000000, 1000000000], but the range is [-1e+308, 60]");
    CHECK(CreateError(kind, {0.0, 1e-300}, 1.0) ==
          "range [0, 1e-300] is too narrow: its width must be at least 1e-07 * max(1, |low|, |high|) = 1e-07, "
          "but is 1e-300");
    CHECK(CreateError(kind, {1e9 - 1.0, 1e9}, 1.0) ==
          "range [999999999, 1000000000] is too narrow: its width must be at least 1e-07 * max(1, |low|, |high|) "
          "= 100, but is 1");
    CHECK(CreateError(kind, kRange, 0.0099) == "epsilon must be finite and in [0.01, 30], but is 0.0099");
    CHECK(CreateError(kind, kRange, 5e-324) == "epsilon must be finite and in [0.01, 30], but is 4.94065645841e-324");
    // The limits themselves: the widest range at the smallest epsilon, and the narrowest ranges.
    CHECK(CreateError(kind, {-1e9, 1e9}, 0.01) == "(created)");
    CHECK(CreateError(kind, {0.0, 1e-7}, 0.01) == "(created)");
    CHECK(CreateError(kind, {1e9 - 100.0, 1e9}, 30.0) == "(created)");
  }
}

TEST_CASE("numeric baselines: Square Wave validates an explicit b") {
  CHECK(CreateSquareWave(kRange, 1.0, 0.0).error() == "b must be finite and in (0, 1], but is 0");
  CHECK(CreateSquareWave(kRange, 1.0, -0.1).error() == "b must be finite and in (0, 1], but is -0.1");
  CHECK(CreateSquareWave(kRange, 1.0, 1.5).error() == "b must be finite and in (0, 1], but is 1.5");
  CHECK(CreateSquareWave(kRange, 1.0, NAN).error() == "b must be finite and in (0, 1], but is nan");
  auto explicit_b = CreateSquareWave(kRange, 1.0, 0.1);
  REQUIRE(explicit_b.ok());
  CHECK((*explicit_b)->half_width() == 0.1);
  CHECK((*explicit_b)->output_range().low == doctest::Approx(-3.0).epsilon(1e-15));
  CHECK((*explicit_b)->output_range().high == doctest::Approx(9.0).epsilon(1e-15));
}

TEST_CASE("numeric baselines: answers outside [a, b] are rejected; the ends are accepted") {
  SeededRandom random(1);
  for (Kind kind : kAllKinds) {
    INFO(KindName(kind));
    const auto mechanism = Make(kind, 1.0);
    CHECK(mechanism->Perturb(-2.5, random).error() == "answer must be a number in [-2, 8], but is -2.5");
    CHECK(mechanism->Perturb(8.000001, random).error() == "answer must be a number in [-2, 8], but is 8.000001");
    CHECK(mechanism->Perturb(NAN, random).error() == "answer must be a number in [-2, 8], but is nan");
    CHECK(mechanism->Perturb(kInfinity, random).error() == "answer must be a number in [-2, 8], but is inf");
    CHECK(mechanism->Perturb(-2.0, random).ok());
    CHECK(mechanism->Perturb(8.0, random).ok());
    CHECK(mechanism->name() == KindName(kind));
    CHECK(mechanism->epsilon() == 1.0);
    CHECK(mechanism->values_per_report() == 1);
    CHECK(mechanism->input_range().low == kRange.low);
    CHECK(mechanism->input_range().high == kRange.high);
  }
}

TEST_CASE("numeric baselines: strict parsing of the mechanism object, and ParamsToJson round trips") {
  const std::string where = "questions[0].mechanism";
  for (Kind kind : kAllKinds) {
    const std::string name = KindName(kind);
    INFO(name);
    const std::string fields = kind == Kind::kSquareWave ? "name, epsilon, b" : "name, epsilon";
    CHECK(ParseOutcome(kind, {{"name", name}, {"epsilom", 1}}) ==
          where + ".epsilom: unknown field (expected one of " + fields + ")");
    CHECK(ParseOutcome(kind, {{"name", name}}) == where + ".epsilon: required field is missing");
    CHECK(ParseOutcome(kind, {{"epsilon", 1}}) == where + ".name: required field is missing");
    CHECK(ParseOutcome(kind, {{"name", name}, {"epsilon", "1"}}) ==
          where + ".epsilon: must be a finite number, but is \"1\"");
    CHECK(ParseOutcome(kind, {{"name", name}, {"epsilon", nullptr}}) ==
          where + ".epsilon: must be a finite number, but is null");
    CHECK(ParseOutcome(kind, {{"name", name}, {"epsilon", 0}}) ==
          where + ".epsilon: epsilon must be finite and in [0.01, 30], but is 0");
    CHECK(ParseOutcome(kind, {{"name", "grr"}, {"epsilon", 1}}) ==
          where + ".name: must be \"" + name + "\", but is \"grr\"");
    CHECK(ParseOutcome(kind, nlohmann::json::array()) == where + " must be a JSON object, but is array");
    // Canonical form, and parsing it again gives it back unchanged (integers read as numbers).
    const nlohmann::json canonical = {{"name", name}, {"epsilon", 1.5}};
    CHECK(ParseOutcome(kind, {{"name", name}, {"epsilon", 1.5}}) == canonical.dump());
    CHECK(ParseOutcome(kind, canonical) == canonical.dump());
    CHECK(ParseOutcome(kind, {{"name", name}, {"epsilon", 2}}) == nlohmann::json({{"name", name}, {"epsilon", 2.0}}).dump());
  }
  // Square Wave: b is optional, kept in the canonical form only when given, and validated.
  CHECK(ParseOutcome(Kind::kSquareWave, {{"name", "square_wave"}, {"epsilon", 1}, {"b", 0.25}}) ==
        nlohmann::json({{"name", "square_wave"}, {"epsilon", 1.0}, {"b", 0.25}}).dump());
  CHECK(ParseOutcome(Kind::kSquareWave, {{"name", "square_wave"}, {"epsilon", 1}, {"b", "wide"}}) ==
        where + ".b: must be a finite number, but is \"wide\"");
  CHECK(ParseOutcome(Kind::kSquareWave, {{"name", "square_wave"}, {"epsilon", 1}, {"b", 2}}) ==
        where + ".b: b must be finite and in (0, 1], but is 2");
}

TEST_CASE("numeric baselines: the same seed gives the same reports") {
  for (Kind kind : kAllKinds) {
    INFO(KindName(kind));
    const auto mechanism = Make(kind, 1.0);
    SeededRandom first(77), second(77);
    for (double x : {-2.0, 0.5, 3.0, 8.0}) {
      for (int i = 0; i < 100; ++i) CHECK(*mechanism->Perturb(x, first) == *mechanism->Perturb(x, second));
    }
  }
}

TEST_CASE("numeric baselines: pinned reports for a fixed seed (the same natively and in WebAssembly)") {
  // SeededRandom(2024), eps = 1, answers -2, 1, 8 in turn. Produced natively
  // and by the same code compiled with Emscripten 3.1.6 and run under Node:
  // bit-identical. A change here changes every committed test vector.
  const std::vector<std::pair<Kind, std::vector<double>>> pinned = {
      {Kind::kLaplace, {-23.929616724572259, 9.3058917129226213, -11.371792139556344}},
      {Kind::kDuchi, {13.819767068693263, -7.8197670686932632, 13.819767068693263}},
      {Kind::kPiecewise, {-5.3588574473299122, -7.3284478915101978, -11.191530272554488}},
      {Kind::kHybrid, {-0.16872796212435093, -11.191530272554488, 13.819767068693263}},
      {Kind::kSquareWave, {-0.55516074328066267, -0.74281919147034992, -2.1121081304617659}},
  };
  for (const auto& [kind, expected] : pinned) {
    INFO(KindName(kind));
    const auto mechanism = Make(kind, 1.0);
    SeededRandom random(2024);
    std::vector<double> reports;
    for (double x : {-2.0, 1.0, 8.0}) reports.push_back(mechanism->Perturb(x, random).value().at(0));
    CHECK(reports == expected);
  }
}

TEST_CASE("numeric baselines: reports never leave output_range (Laplace: never beyond 53 ln 2 scales)") {
  const double just_above_low = std::nextafter(kRange.low, kInfinity);
  const double just_below_high = std::nextafter(kRange.high, -kInfinity);
  for (Kind kind : kAllKinds) {
    for (double epsilon : {0.01, 0.61, 1.0, 30.0}) {
      INFO(KindName(kind) << " eps=" << epsilon);
      const auto mechanism = Make(kind, epsilon);
      const NumericRange output = mechanism->output_range();
      SeededRandom random(5);
      bool inside = true;
      for (double x : {kRange.low, just_above_low, kMid, just_below_high, kRange.high}) {
        for (int i = 0; i < 4000; ++i) {
          const double y = mechanism->Perturb(x, random).value().at(0);
          if (kind == Kind::kLaplace) {
            const double bound = 53.0 * std::log(2.0) * kRange.width() / epsilon;
            inside &= std::fabs(y - x) <= bound * (1.0 + 1e-12);
          } else {
            inside &= y >= output.low && y <= output.high;
          }
        }
      }
      CHECK(inside);
      // Scripted extreme draws: every uniform 0, or every uniform 1 - 2^-53.
      for (std::uint64_t word : {std::uint64_t{0}, ~std::uint64_t{0}}) {
        for (double x : {kRange.low, kMid, kRange.high}) {
          ConstantRandom extreme(word);
          const double y = mechanism->Perturb(x, extreme).value().at(0);
          if (kind != Kind::kLaplace) CHECK((y >= output.low && y <= output.high));
        }
      }
    }
  }
}

TEST_CASE("numeric baselines: Laplace's inverse CDF at the grid's extreme cells is exactly x -/+ s 53 ln 2") {
  const auto made = CreateLaplace(kRange, 2.0);
  REQUIRE(made.ok());
  const auto& laplace = **made;
  const double s = laplace.scale();
  CHECK(s == 5.0);
  ConstantRandom lowest(0), highest(~std::uint64_t{0});
  // unit = 0 -> tail 2^-53 below x; unit = 1 - 2^-53 -> tail 2^-53 above x: symmetric.
  const double extreme = s * -PortableLog(0x1p-53);
  CHECK(extreme == doctest::Approx(s * 53 * std::log(2.0)).epsilon(1e-15));
  CHECK(laplace.Perturb(1.0, lowest).value().at(0) == 1.0 - extreme);
  CHECK(laplace.Perturb(1.0, highest).value().at(0) == 1.0 + extreme);
  // unit = 1/2 exactly -> tail 1 - 2^-53 above x: the smallest step, s 2^-53 (to rounding).
  ConstantRandom middle(std::uint64_t{1} << 63);
  CHECK(laplace.Perturb(1.0, middle).value().at(0) == doctest::Approx(1.0 + s * 0x1p-53).epsilon(1e-16));
  // The documented output range: t = s ln(1e9) beyond each end.
  const double t = s * std::log(1e9);
  CHECK(laplace.output_range().low == doctest::Approx(kRange.low - t).epsilon(1e-15));
  CHECK(laplace.output_range().high == doctest::Approx(kRange.high + t).epsilon(1e-15));
  // Mass beyond it, for the worst answer (an end): 0.5 e^{-t/s}(1 + e^{-eps}) < 1e-9.
  const double outside = 0.5 * std::exp(-t / s) * (1.0 + std::exp(-2.0));
  CHECK(outside < kLaplaceTailMass);
  // ... and OutputProbability puts it into the end cells.
  const NumericRange output = laplace.output_range();
  CHECK(laplace.OutputProbability(kRange.low, output.low, kRange.low) == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(laplace.OutputProbability(kRange.low, -kInfinity, kInfinity) == 1.0);
  CHECK(laplace.OutputProbability(kRange.low, output.low, output.high) == 1.0);
  CHECK(laplace.OutputProbability(kRange.low, 3.0, 3.0) == 0.0);
  CHECK(laplace.OutputProbability(kRange.low, 4.0, 3.0) == 0.0);
  // Far in a tail, a narrow cell keeps its relative accuracy (no cancellation):
  // P([x + 30s, x + 30.001s)) = 0.5 e^{-30} (1 - e^{-0.001}).
  const double far = laplace.OutputProbability(0.0, 30 * s, 30.001 * s);
  CHECK(far == doctest::Approx(0.5 * std::exp(-30.0) * -std::expm1(-0.001)).epsilon(1e-12));
  CHECK(*laplace.UnbiasedValueVariance(0.0) == doctest::Approx(50.0).epsilon(1e-15));
}

TEST_CASE("numeric baselines: Hybrid below eps* = 0.61 is exactly Duchi; above, alpha = 1 - e^(-eps/2)") {
  const auto hybrid_low = CreateHybrid(kRange, 0.61);
  REQUIRE(hybrid_low.ok());
  CHECK((*hybrid_low)->piecewise_probability() == 0.0);
  const auto duchi = Make(Kind::kDuchi, 0.61);
  CHECK((*hybrid_low)->output_range().low == duchi->output_range().low);
  CHECK((*hybrid_low)->output_range().high == duchi->output_range().high);
  SeededRandom a(9), b(9);
  for (double x : {-2.0, 0.0, 8.0}) {
    for (int i = 0; i < 50; ++i) CHECK(*(*hybrid_low)->Perturb(x, a) == *duchi->Perturb(x, b));
  }
  const auto hybrid = CreateHybrid(kRange, 0.62);
  REQUIRE(hybrid.ok());
  CHECK((*hybrid)->piecewise_probability() == doctest::Approx(1.0 - std::exp(-0.31)).epsilon(1e-15));
  const auto piecewise = Make(Kind::kPiecewise, 0.62);
  CHECK((*hybrid)->output_range().low == piecewise->output_range().low);
  CHECK((*hybrid)->output_range().high == piecewise->output_range().high);
  // With that alpha the variance no longer depends on x (the point of HM's alpha).
  for (double epsilon : {0.62, 1.0, 3.0}) {
    const auto m = Make(Kind::kHybrid, epsilon);
    CHECK(*m->UnbiasedValueVariance(kRange.low) == doctest::Approx(*m->UnbiasedValueVariance(kMid)).epsilon(1e-12));
    CHECK(*m->UnbiasedValueVariance(kRange.high) == doctest::Approx(*m->UnbiasedValueVariance(1.0)).epsilon(1e-12));
  }
}

TEST_CASE("numeric baselines: eps* = 0.61 is where HM's worst-case variance meets Duchi's (Wang et al. §III.C)") {
  // The papers' variances on the [-1, 1] scale (Lemmas of §III.A and §III.B).
  const auto duchi = [](double eps, double t) {
    const double c = (std::exp(eps) + 1) / (std::exp(eps) - 1);
    return c * c - t * t;
  };
  const auto piecewise = [](double eps, double t) {
    const double s = std::exp(eps / 2);
    return t * t / (s - 1) + (s + 3) / (3 * (s - 1) * (s - 1));
  };
  // Both variances are linear in t^2, so the worst case is at t = 0 or |t| = 1.
  const auto hybrid_worst = [&](double eps) {
    const double alpha = 1 - std::exp(-eps / 2);
    double worst = 0.0;
    for (double t : {0.0, 1.0}) worst = std::max(worst, alpha * piecewise(eps, t) + (1 - alpha) * duchi(eps, t));
    return worst;
  };
  double low = 0.3, high = 1.0;  // HM worse than Duchi at 0.3, better at 1.0
  REQUIRE(hybrid_worst(low) > duchi(low, 0.0));
  REQUIRE(hybrid_worst(high) < duchi(high, 0.0));
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (low + high);
    (hybrid_worst(mid) > duchi(mid, 0.0) ? low : high) = mid;
  }
  MESSAGE("eps* = " << low);
  CHECK(low == doctest::Approx(0.6094).epsilon(1e-4));
  CHECK(std::fabs(low - kHybridThresholdEpsilon) < 0.001);
}

// ---- The papers' distributions, written independently of core -----------------------------------

namespace {

// A distribution on the real line: piecewise-constant density plus point masses.
struct Segment {
  double low, high, density;
};
struct Atom {
  double at, mass;
};
struct Distribution {
  std::vector<Segment> segments;
  std::vector<Atom> atoms;
};

// Density d on [centre + l half, centre + r half] of the data scale, from a [-1, 1]-scale density.
void AddScaled(Distribution& d, double l, double r, double density_on_unit_scale, double weight) {
  const double half = kRange.width() / 2, centre = kMid;
  d.segments.push_back({centre + l * half, centre + r * half, weight * density_on_unit_scale / half});
}

// Duchi (Wang et al. §III.A): +-C with P(+C) = 1/2 + t (e^eps - 1)/(2 e^eps + 2).
void AddDuchi(Distribution& d, double eps, double x, double weight) {
  const double e = std::exp(eps), c = (e + 1) / (e - 1);
  const double t = (2 * x - kRange.low - kRange.high) / kRange.width();
  const double up = 0.5 + t * (e - 1) / (2 * e + 2);
  d.atoms.push_back({kMid - c * kRange.width() / 2, weight * (1 - up)});
  d.atoms.push_back({kMid + c * kRange.width() / 2, weight * up});
}

// PM (Wang et al. §III.B): density p on [l(t), r(t)], p/e^eps elsewhere on [-C, C].
void AddPiecewise(Distribution& d, double eps, double x, double weight) {
  const double h = std::exp(eps / 2), c = (h + 1) / (h - 1), p = (std::exp(eps) - h) / (2 * h + 2);
  const double t = (2 * x - kRange.low - kRange.high) / kRange.width();
  const double l = (c + 1) / 2 * t - (c - 1) / 2, r = l + c - 1;
  AddScaled(d, -c, l, p / std::exp(eps), weight);
  AddScaled(d, l, r, p, weight);
  AddScaled(d, r, c, p / std::exp(eps), weight);
}

// The paper's closed form of Square Wave's half-width (Li et al. 2020, §4).
double PaperHalfWidth(double eps) {
  const double e = std::exp(eps);
  return (eps * e - e + 1) / (2 * e * (e - 1 - eps));
}

// SW (Li et al. §4): on [0, 1] scale, p within b of v, q elsewhere on [-b, 1 + b].
void AddSquareWave(Distribution& d, double eps, double x) {
  const double e = std::exp(eps), b = PaperHalfWidth(eps);
  const double p = e / (2 * b * e + 1), q = 1 / (2 * b * e + 1), w = kRange.width();
  const double v = (x - kRange.low) / w;
  d.segments.push_back({kRange.low - b * w, kRange.low + (v - b) * w, q / w});
  d.segments.push_back({kRange.low + (v - b) * w, kRange.low + (v + b) * w, p / w});
  d.segments.push_back({kRange.low + (v + b) * w, kRange.low + (1 + b) * w, q / w});
}

Distribution PaperDistribution(Kind kind, double eps, double x) {
  Distribution d;
  const double alpha = eps > 0.61 ? 1 - std::exp(-eps / 2) : 0.0;  // HM (Wang et al. §III.C)
  switch (kind) {
    case Kind::kDuchi: AddDuchi(d, eps, x, 1.0); break;
    case Kind::kPiecewise: AddPiecewise(d, eps, x, 1.0); break;
    case Kind::kHybrid:
      if (alpha > 0) AddPiecewise(d, eps, x, alpha);
      AddDuchi(d, eps, x, 1 - alpha);
      break;
    case Kind::kSquareWave: AddSquareWave(d, eps, x); break;
    case Kind::kLaplace: break;  // continuous on the whole line: see PaperLaplaceProbability
  }
  return d;
}

// P([y0, y1)), the cell reaching to -infinity when y0 <= ends.low and to
// +infinity when y1 >= ends.high (so the last cell is closed).
double PaperProbability(const Distribution& d, double y0, double y1, NumericRange ends) {
  double probability = 0.0;
  for (const auto& s : d.segments) {
    probability += s.density * std::max(0.0, std::min(y1, s.high) - std::max(y0, s.low));
  }
  for (const auto& a : d.atoms) {
    if ((y0 <= a.at || y0 <= ends.low) && (a.at < y1 || y1 >= ends.high)) probability += a.mass;
  }
  return probability;
}

// Laplace with scale (b - a)/eps; cells ending beyond output_range reach to infinity.
double PaperLaplaceProbability(double eps, double x, double y0, double y1, NumericRange output) {
  const double s = kRange.width() / eps;
  const auto cdf = [&](double y) { return y < x ? 0.5 * std::exp((y - x) / s) : 1 - 0.5 * std::exp(-(y - x) / s); };
  const double upper = y1 >= output.high ? 1.0 : cdf(y1);
  const double lower = y0 <= output.low ? 0.0 : cdf(y0);
  return std::max(0.0, upper - lower);
}

// Mean and variance of a Distribution.
std::pair<double, double> Moments(const Distribution& d) {
  double first = 0.0, second = 0.0;
  for (const auto& s : d.segments) {
    first += s.density * (s.high * s.high - s.low * s.low) / 2;
    second += s.density * (s.high * s.high * s.high - s.low * s.low * s.low) / 3;
  }
  for (const auto& a : d.atoms) {
    first += a.mass * a.at;
    second += a.mass * a.at * a.at;
  }
  return {first, second - first * first};
}

// `cells` cells covering the output range: equal widths over the range, or for
// Laplace over [a - 4s, b + 4s], with the end edges moved to the output range's
// ends so that the end cells take the tails.
std::vector<double> CellEdges(const NumericMechanism& mechanism, int cells) {
  const NumericRange output = mechanism.output_range();
  NumericRange span = output;
  if (mechanism.name() == "laplace") {
    const double s = kRange.width() / *mechanism.epsilon();
    span = {kRange.low - 4 * s, kRange.high + 4 * s};
  }
  std::vector<double> edges;
  for (int i = 0; i <= cells; ++i) edges.push_back(span.low + span.width() * i / cells);
  edges.front() = output.low;
  edges.back() = output.high;
  return edges;
}

}  // namespace

TEST_CASE("numeric baselines: OutputProbability is the papers' distribution, exactly; variances are its moments") {
  for (Kind kind : kAllKinds) {
    for (double eps : {0.5, 1.0, 3.0}) {
      const auto mechanism = Make(kind, eps);
      const NumericRange output = mechanism->output_range();
      for (double x : {kRange.low, 0.7, kMid, 6.9, kRange.high}) {
        INFO(KindName(kind) << " eps=" << eps << " x=" << x);
        const Distribution paper = PaperDistribution(kind, eps, x);
        const auto expected = [&](double y0, double y1) {
          return kind == Kind::kLaplace ? PaperLaplaceProbability(eps, x, y0, y1, output)
                                        : PaperProbability(paper, y0, y1, output);
        };
        const auto edges = CellEdges(*mechanism, 40);
        double total = 0.0;
        for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
          const double p = mechanism->OutputProbability(x, edges[i], edges[i + 1]);
          CHECK(p == doctest::Approx(expected(edges[i], edges[i + 1])).epsilon(1e-11).scale(1e-3));
          total += p;
        }
        CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
        // Intervals that start or end inside the density's pieces.
        for (double y0 = output.low - 1; y0 < output.high; y0 += output.width() / 7.3) {
          const double y1 = y0 + output.width() / 3.1;
          CHECK(mechanism->OutputProbability(x, y0, y1) ==
                doctest::Approx(expected(y0, y1)).epsilon(1e-11).scale(1e-3));
        }
        if (kind == Kind::kSquareWave) {
          CHECK_FALSE(mechanism->UnbiasedValueVariance(x).has_value());
        } else if (kind != Kind::kLaplace) {
          const auto [mean, variance] = Moments(paper);
          CHECK(mean == doctest::Approx(x).epsilon(1e-10).scale(10));  // unbiased, exactly
          CHECK(*mechanism->UnbiasedValueVariance(x) == doctest::Approx(variance).epsilon(1e-10));
        }
      }
    }
  }
}

// ---- 1. Output distribution (chi-square) -------------------------------------------------------

namespace {

// Threshold for every goodness-of-fit test: a correct mechanism fails with probability 1e-6.
constexpr double kRejectBelow = 1e-6;
constexpr int kCells = 40;
constexpr std::int64_t kDraws = 100000;

// Chi-square p-value of `draws` reports of `sampled` at x against `claimed`'s OutputProbability.
double OutputDistributionPValue(const NumericMechanism& sampled, const NumericMechanism& claimed, double x,
                                std::uint64_t seed) {
  const auto edges = CellEdges(claimed, kCells);
  std::vector<double> expected;
  for (int i = 0; i < kCells; ++i) expected.push_back(claimed.OutputProbability(x, edges[i], edges[i + 1]));
  std::vector<std::int64_t> observed(kCells, 0);
  SeededRandom random(seed);
  for (std::int64_t n = 0; n < kDraws; ++n) {
    const double y = sampled.Perturb(x, random).value().at(0);
    // Cell i is [edges[i], edges[i+1]); the end cells also take everything beyond.
    const auto above = std::upper_bound(edges.begin(), edges.end(), y) - edges.begin();
    ++observed[std::clamp<std::ptrdiff_t>(above - 1, 0, kCells - 1)];
  }
  return ChiSquarePValue(observed, expected);
}

}  // namespace

TEST_CASE("numeric baselines: sampled reports fit OutputProbability (chi-square, 40 cells); a wrong epsilon is rejected") {
  std::uint64_t seed = 100;
  for (Kind kind : kAllKinds) {
    for (double eps : {0.5, 2.0}) {
      const auto mechanism = Make(kind, eps);
      for (double x : {kRange.low, kMid, kRange.high}) {
        INFO(KindName(kind) << " eps=" << eps << " x=" << x);
        CHECK(OutputDistributionPValue(*mechanism, *mechanism, x, ++seed) > kRejectBelow);
      }
    }
    // Canary: the mechanism run at 1.3 eps, tested against the distribution it claims at eps.
    INFO(KindName(kind) << " canary");
    const auto claimed = Make(kind, 1.0);
    const auto broken = Make(kind, 1.3);
    CHECK(OutputDistributionPValue(*broken, *claimed, kRange.low, ++seed) < kRejectBelow);
  }
}

// ---- 2. Unbiasedness, variance, coverage -------------------------------------------------------

namespace {

// n answers x_i = a + (b - a)(i/(n-1))^2: skewed (mean a + 0.335 (b - a)), both ends included.
// Fixed, so the variance of the mean is exactly sum_i Var(y | x_i) / n^2.
std::vector<double> Population(int n) {
  std::vector<double> answers;
  for (int i = 0; i < n; ++i) {
    const double u = static_cast<double>(i) / (n - 1);
    answers.push_back(kRange.low + kRange.width() * u * u);
  }
  return answers;
}

// Var(mean of the reports) by the formula: sum_i Var(y | x_i) / n^2.
double VarianceOfMean(const NumericMechanism& mechanism, const std::vector<double>& population) {
  double sum = 0.0;
  for (double x : population) sum += *mechanism.UnbiasedValueVariance(x);
  return sum / (static_cast<double>(population.size()) * static_cast<double>(population.size()));
}

// A respondent's answer: from a fixed population, or drawn afresh.
using AnswerSource = std::function<double(int respondent, RandomSource& random)>;

AnswerSource FixedAnswers(const std::vector<double>& population) {
  return [&population](int respondent, RandomSource&) { return population[respondent]; };
}

// Answers drawn i.i.d. as a + (b - a) U^2, U uniform: mean a + (b - a)/3, as
// respondents sampled from a population, the setting a survey's CI is for.
double DrawnAnswer(int, RandomSource& random) {
  const double u = UniformUnit(random);
  return kRange.low + kRange.width() * u * u;
}
constexpr double kDrawnMean = -2.0 + 10.0 / 3.0;  // a + (b - a)/3

// R repetitions of n respondents answering: each repetition's mean of reports,
// and its plug-in standard error (sd of the reports / sqrt(n)).
struct Repetitions {
  std::vector<double> means;
  std::vector<double> standard_errors;
};

using Report = std::function<double(double)>;  // post-processing of each report (identity, or a canary's)

Repetitions Repeat(const NumericMechanism& mechanism, const AnswerSource& answer, int respondents, int repetitions,
                   std::uint64_t seed, const Report& post = [](double y) { return y; }) {
  Repetitions result;
  SeededRandom random(seed);
  const double n = static_cast<double>(respondents);
  std::vector<double> reports(respondents);
  for (int r = 0; r < repetitions; ++r) {
    for (int i = 0; i < respondents; ++i) {
      reports[i] = post(mechanism.Perturb(answer(i, random), random).value().at(0));
    }
    const double mean = SampleMean(reports);
    double squares = 0.0;
    for (double y : reports) squares += (y - mean) * (y - mean);
    result.means.push_back(mean);
    result.standard_errors.push_back(std::sqrt(squares / (n - 1) / n));
  }
  return result;
}

// Standardised checks; each passes within 5 standard deviations (false failure
// probability <= 5.7e-7 each, normal approximation).
//
// Bias: the average of R means has sd sqrt(V/R), V = Var(one mean) by the formula.
double BiasZ(const Repetitions& reps, double truth, double variance_of_mean) {
  const double r = static_cast<double>(reps.means.size());
  return (SampleMean(reps.means) - truth) / std::sqrt(variance_of_mean / r);
}

// Variance: s^2 / V is chi-square(R-1) for normal means (each mean
// averages n = 100 reports; its excess kurtosis, at most ~0.04 here, changes
// the sd of s^2 by under 1%): mean R-1, sd sqrt(2(R-1)).
double VarianceZ(const Repetitions& reps, double variance_of_mean) {
  const double r = static_cast<double>(reps.means.size());
  const double mean = SampleMean(reps.means);
  double squares = 0.0;
  for (double m : reps.means) squares += (m - mean) * (m - mean);
  return (squares / variance_of_mean - (r - 1)) / std::sqrt(2 * (r - 1));
}

// Coverage of mean +- 1.96 se x scale: binomial(R, 0.95), sd sqrt(R 0.95 0.05).
// With answers drawn i.i.d. the plug-in se (which includes the answers'
// spread) is the right one; from n = 100 reports its coverage is ~94.7%
// (t with 99 df), 0.3 sd below 95% at R = 2000. Duchi's reports take two
// values, so its mean is a binomial proportion with a Wald-type interval:
// exact coverage 94.4% at eps = 0.5 (P(high) = 0.459), 94.9% at eps = 2,
// i.e. 1.3 sd below 95% at worst. Both well inside the tolerance.
double CoverageZ(const Repetitions& reps, double truth, double se_scale) {
  const double r = static_cast<double>(reps.means.size());
  double covered = 0.0;
  for (std::size_t i = 0; i < reps.means.size(); ++i) {
    covered += std::fabs(reps.means[i] - truth) <= kZ95 * reps.standard_errors[i] * se_scale;
  }
  return (covered - 0.95 * r) / std::sqrt(r * 0.95 * 0.05);
}

constexpr int kRespondents = 100;
constexpr int kRepetitions = 2000;

}  // namespace

TEST_CASE("numeric baselines: mean of reports is unbiased, its variance matches the formula, 95% CIs cover") {
  const auto population = Population(kRespondents);
  const double truth = SampleMean(population);
  std::uint64_t seed = 200;
  for (Kind kind : kUnbiasedKinds) {
    for (double eps : {0.5, 2.0}) {
      INFO(KindName(kind) << " eps=" << eps);
      const auto mechanism = Make(kind, eps);
      const double variance = VarianceOfMean(*mechanism, population);
      const auto reps = Repeat(*mechanism, FixedAnswers(population), kRespondents, kRepetitions, ++seed);
      const double bias = BiasZ(reps, truth, variance);
      const double spread = VarianceZ(reps, variance);
      const auto drawn = Repeat(*mechanism, DrawnAnswer, kRespondents, kRepetitions, ++seed);
      const double coverage = CoverageZ(drawn, kDrawnMean, 1.0);
      MESSAGE(KindName(kind) << " eps=" << eps << ": bias z " << bias << ", variance z " << spread << ", coverage z "
                             << coverage);
      CHECK(std::fabs(bias) <= 5.0);
      CHECK(std::fabs(spread) <= 5.0);
      CHECK(std::fabs(coverage) <= 5.0);
    }
  }
}

TEST_CASE("numeric baselines: canaries for the mean: clamped reports are biased, a wrong variance and narrow CIs fail") {
  const auto population = Population(kRespondents);
  const double truth = SampleMean(population);
  for (Kind kind : {Kind::kDuchi, Kind::kPiecewise, Kind::kHybrid}) {
    INFO(KindName(kind));
    const auto mechanism = Make(kind, 2.0);
    const double variance = VarianceOfMean(*mechanism, population);
    // "Tidying" reports into [a, b] pulls them towards the middle: biased.
    const auto clamped = Repeat(*mechanism, FixedAnswers(population), kRespondents, kRepetitions, 301,
                                [](double y) { return std::clamp(y, kRange.low, kRange.high); });
    CHECK(std::fabs(BiasZ(clamped, truth, variance)) > 5.0);
    // Run at 1.5 eps, tested against the formula at eps: variance too small.
    const auto sharper = Repeat(*Make(kind, 3.0), FixedAnswers(population), kRespondents, kRepetitions, 302);
    CHECK(std::fabs(VarianceZ(sharper, variance)) > 5.0);
    // Intervals 20% too narrow: coverage ~88%, far below 95%.
    const auto drawn = Repeat(*mechanism, DrawnAnswer, kRespondents, kRepetitions, 303);
    CHECK(CoverageZ(drawn, kDrawnMean, 0.8) < -5.0);
  }
}

// ---- 3. Empirical epsilon ----------------------------------------------------------------------

namespace {

constexpr std::int64_t kAuditTrials = 200000;
constexpr double kAuditAlpha = 1e-6;  // P(lower bound > true epsilon) <= 1e-6

// Half-lines {y >= c} and {y <= c} for c on an 11-point grid over [a, b]. For
// inputs a and b every mechanism here attains its worst-case ratio e^eps on
// {y >= b} and {y <= a} (Laplace: both tails; Duchi: one report; PM and HM:
// [b, C]; SW: any c in [max(1-b_sw, b_sw), 1+b_sw) on the [0, 1] scale, which
// the 0.1-spaced grid always hits since b_sw <= 1/2).
std::vector<OutputInterval> AuditEvents() {
  std::vector<OutputInterval> events;
  for (int i = 0; i <= 10; ++i) {
    const double c = kRange.low + kRange.width() * i / 10;
    events.push_back({c, kInfinity});
    events.push_back({-kInfinity, c});
  }
  return events;
}

}  // namespace

// Power: with 200000 trials per input and Bonferroni over 88 bounds (z ~ 5.7),
// the lower bound falls short of eps by z (sqrt((1-p1)/(N p1)) + sqrt((1-p0)/(N p0)))
// for the best event's probabilities p1 = e^eps p0; the largest such gap among
// these cases is ~0.06 (Laplace, eps = 2: p1 = 0.5, p0 = 0.068), so 0.1 is ample.
TEST_CASE("numeric baselines: empirical-epsilon audit reaches but never exceeds eps; a 2x-eps canary exceeds it") {
  const auto events = AuditEvents();
  std::uint64_t seed = 400;
  for (Kind kind : kAllKinds) {
    for (double eps : {0.5, 2.0}) {
      INFO(KindName(kind) << " eps=" << eps);
      const auto mechanism = Make(kind, eps);
      const auto audit =
          AuditNumericEpsilon(PerturbWith(*mechanism), kRange.low, kRange.high, events, kAuditTrials, kAuditAlpha, ++seed);
      MESSAGE(KindName(kind) << " eps=" << eps << ": audit lower bound " << audit.lower_bound << ", point "
                             << audit.point);
      CHECK(audit.lower_bound <= eps);
      CHECK(audit.lower_bound >= eps - 0.1);
      // Canary: the same mechanism at 2 eps, claiming eps.
      const auto broken = Make(kind, 2 * eps);
      const auto canary =
          AuditNumericEpsilon(PerturbWith(*broken), kRange.low, kRange.high, events, kAuditTrials, kAuditAlpha, ++seed);
      CHECK(canary.lower_bound > eps);
    }
  }
}
