// The rating grid's row mechanisms (core/kinds/grid/grid_mechanism.h): the
// channels written here from their definitions (not from core), the exact
// epsilon of each row and of the whole grid, the output rates (chi-square
// against the channel) and the black-box empirical-epsilon audit. Each check
// also runs on a deliberately broken variant that it must reject.
#include <doctest/doctest.h>

#include <cmath>

#include "core/common/seeded_random.h"
#include "core/kinds/grid/grid_mechanism.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using deniable::testing::AuditEpsilon;
using deniable::testing::ChiSquarePValue;

namespace {

std::shared_ptr<const GridRowMechanism> Make(GridMechanismKind kind, int levels, double epsilon) {
  auto mechanism = GridRowMechanism::Create(kind, levels, epsilon);
  REQUIRE(mechanism.ok());
  return *mechanism;
}

// P(report j | answer i) from the definitions: GRR's p and q (Wang et al.
// 2017), and the exponential mechanism with score -|i - j| at t = e / (L - 1).
double Expected(GridMechanismKind kind, int levels, double epsilon, int i, int j) {
  if (kind == GridMechanismKind::kDuchi) {  // Wang et al. 2019 Alg. 1 on [1, L]: t = (2x - 1 - L) / (L - 1)
    const double e = std::exp(epsilon), t = (2.0 * (i + 1) - 1 - levels) / (levels - 1);
    const double high = ((1 + t) * e + (1 - t)) / (2 * (e + 1));
    return j == 1 ? high : 1 - high;
  }
  if (kind == GridMechanismKind::kGrr) {
    const double e = std::exp(epsilon);
    return (i == j ? e : 1.0) / (e + levels - 1);
  }
  const double t = epsilon / (levels - 1);
  double z = 0.0;
  for (int k = 0; k < levels; ++k) z += std::exp(-t * std::abs(i - k));
  return std::exp(-t * std::abs(i - j)) / z;
}

// The chi-square p-value of `draws` reports of answer i against `claimed_epsilon`'s channel.
double RatesPValue(const GridRowMechanism& mechanism, double claimed_epsilon, int i, int draws, std::uint64_t seed) {
  const int levels = mechanism.levels();
  std::vector<std::int64_t> observed(static_cast<std::size_t>(mechanism.outputs()), 0);
  std::vector<double> expected;
  for (int j = 0; j < mechanism.outputs(); ++j) expected.push_back(Expected(mechanism.kind(), levels, claimed_epsilon, i, j));
  SeededRandom random(seed);
  for (int d = 0; d < draws; ++d) ++observed[static_cast<std::size_t>(mechanism.Perturb(i, random))];
  return ChiSquarePValue(observed, expected);
}

// The product channel of `rows` independent rows: P(report vector | answer vector).
ChannelMatrix GridChannel(const ChannelMatrix& row, int rows) {
  ChannelMatrix grid = {{1.0}};
  for (int r = 0; r < rows; ++r) {
    ChannelMatrix next;
    for (const auto& a : grid) {
      for (const auto& b : row) {
        std::vector<double> entry;
        for (double x : a) for (double y : b) entry.push_back(x * y);
        next.push_back(entry);
      }
    }
    grid = next;
  }
  return grid;
}

constexpr double kRejectBelow = 1e-6;

}  // namespace

constexpr GridMechanismKind kAll[] = {GridMechanismKind::kGrr, GridMechanismKind::kOrdinal, GridMechanismKind::kDuchi};

TEST_CASE("grid rows: the channels are the definitions' and favour nearby levels (ordinal)") {
  for (GridMechanismKind kind : kAll) {
    for (int levels : {2, 5, 7, 11}) {
      for (double epsilon : {0.1, 1.0, 4.0}) {
        const auto mechanism = Make(kind, levels, epsilon);
        INFO(GridMechanismName(kind) << " L=" << levels << " eps=" << epsilon);
        for (int i = 0; i < levels; ++i) {
          double total = 0.0;
          CHECK(mechanism->outputs() == (kind == GridMechanismKind::kDuchi ? 2 : levels));
          for (int j = 0; j < mechanism->outputs(); ++j) {
            const double p = mechanism->channel()[i][j];
            total += p;
            CHECK(p == doctest::Approx(Expected(kind, levels, epsilon, i, j)).epsilon(1e-13));
            // ordinal: nearer levels are reported more often
            if (kind == GridMechanismKind::kOrdinal && j > i) CHECK(p < mechanism->channel()[i][j - 1]);
          }
          CHECK(total == doctest::Approx(1.0).epsilon(1e-14));
        }
      }
    }
  }
}

TEST_CASE("grid rows: the exact epsilon is the row's, for both mechanisms, and twice the textbook factor is exact") {
  for (int levels = 2; levels <= 11; ++levels) {
    for (double epsilon : {0.01, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0, 20.0}) {
      INFO("L=" << levels << " eps=" << epsilon);
      const auto ordinal = Make(GridMechanismKind::kOrdinal, levels, epsilon);
      CHECK(ordinal->t() == doctest::Approx(epsilon / (levels - 1)).epsilon(1e-15));  // never halved
      CHECK(ExactEpsilon(ordinal->channel()) == doctest::Approx(epsilon).epsilon(1e-12));
      CHECK(ExactEpsilon(Make(GridMechanismKind::kGrr, levels, epsilon)->channel()) ==
            doctest::Approx(epsilon).epsilon(1e-12));
      CHECK(ExactEpsilon(Make(GridMechanismKind::kDuchi, levels, epsilon)->channel()) ==
            doctest::Approx(epsilon).epsilon(1e-9));
      // The textbook calibration t = e / (2 (L - 1)) spends only part of e (for L > 2).
      if (levels > 2) CHECK(ExactEpsilon(OrdinalChannel(levels, epsilon / (2.0 * (levels - 1)))) < epsilon);
      // Canary: a t above e / (L - 1) would exceed the claim, and ExactEpsilon sees it.
      CHECK(ExactEpsilon(OrdinalChannel(levels, 1.01 * epsilon / (levels - 1))) > epsilon);
    }
  }
}

TEST_CASE("grid: the whole grid's channel has exactly the grid's epsilon (sequential composition)") {
  for (GridMechanismKind kind : kAll) {
    for (int rows : {1, 2, 3}) {
      const double grid_epsilon = 2.0;
      const auto row = Make(kind, 4, grid_epsilon / rows);
      INFO(GridMechanismName(kind) << " rows=" << rows);
      CHECK(ExactEpsilon(GridChannel(row->channel(), rows)) == doctest::Approx(grid_epsilon).epsilon(1e-9));
      // Canary: rows each given the whole epsilon make the grid rows x epsilon.
      const auto unsplit = Make(kind, 4, grid_epsilon);
      if (rows > 1) CHECK(ExactEpsilon(GridChannel(unsplit->channel(), rows)) > 1.5 * grid_epsilon);
    }
  }
}

TEST_CASE("grid rows: reported levels follow the channel (chi-square), and a wrong epsilon is rejected") {
  for (GridMechanismKind kind : kAll) {
    for (int levels : {3, 5, 11}) {
      const auto mechanism = Make(kind, levels, 1.0);
      INFO(GridMechanismName(kind) << " L=" << levels);
      for (int i : {0, levels / 2, levels - 1}) {
        CHECK(RatesPValue(*mechanism, 1.0, i, 100000, 31 + static_cast<std::uint64_t>(i)) > kRejectBelow);
      }
      // Canary: the mechanism at 1.3 against the channel claimed at 1.
      CHECK(RatesPValue(*Make(kind, levels, 1.3), 1.0, 0, 100000, 7) < kRejectBelow);
    }
  }
}

TEST_CASE("grid rows: the empirical epsilon stays within the claim, and an understated claim is caught") {
  for (GridMechanismKind kind : kAll) {
    const int levels = 5;
    const double claimed = 1.0;
    INFO(GridMechanismName(kind));
    auto audit = [&](const GridRowMechanism& mechanism) {
      auto perturb = [&](int answer, RandomSource& random) {
        Support support(static_cast<std::size_t>(levels), 0);
        const int report = mechanism.Perturb(answer, random);
        // duchi's two reports as the ends' indices, so that the audit's events (reports 0 and L - 1) see them
        const int index = mechanism.estimates_distribution() ? report : report * (levels - 1);
        support[static_cast<std::size_t>(index)] = 1;
        return support;
      };
      return AuditEpsilon(perturb, 0, levels - 1, 200000, 1e-6, 41);
    };
    const auto honest = audit(*Make(kind, levels, claimed));
    MESSAGE(GridMechanismName(kind) << ": audit lower bound " << honest.lower_bound << ", point " << honest.point
                                    << " for claimed " << claimed);
    CHECK(honest.lower_bound <= claimed);
    CHECK(honest.point == doctest::Approx(claimed).epsilon(0.1));
    // Canary: a mechanism running at twice the epsilon it claims.
    CHECK(audit(*Make(kind, levels, 2 * claimed)).lower_bound > claimed);
  }
}

TEST_CASE("grid rows: parameters are checked") {
  CHECK_FALSE(GridRowMechanism::Create(GridMechanismKind::kOrdinal, 1, 1.0).ok());
  CHECK_FALSE(GridRowMechanism::Create(GridMechanismKind::kGrr, 65, 1.0).ok());
  CHECK_FALSE(GridRowMechanism::Create(GridMechanismKind::kOrdinal, 5, 0.0).ok());
  CHECK_FALSE(GridRowMechanism::Create(GridMechanismKind::kOrdinal, 5, NAN).ok());
  CHECK(ParseGridMechanismKind("ordinal").ok());
  CHECK(ParseGridMechanismKind("oue").error().find("expected \"ordinal\", \"grr\" or \"duchi\"") != std::string::npos);
}
