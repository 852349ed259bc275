// The true distribution of a numeric question's answers in a simulation
// (`deniable simulate`): where simulated respondents' answers come from.
//
// A truth entry is one of (every distribution is truncated to the question's
// range [a, b] by rejection: draws outside [a, b] are discarded and redrawn):
//   {"distribution": "uniform"}                                uniform on [a, b]
//   {"distribution": "normal", "mean": m, "sd": s}             s > 0
//   {"distribution": "chi_square", "df": k}                    k integer in 1..1000;
//       optional "location" (default 0) and "scale" (> 0, default 1):
//       answer = location + scale * X with X ~ chi-square(k)
//   {"distribution": "mixture", "components": [{"weight": w, <one of the above>}, ...]}
//       weights > 0 (normalised); components are not mixtures themselves. The
//       mixture is truncated as a whole (pick a component by weight, draw, and
//       reject the pair if outside [a, b]), which is the truncated mixture density.
//   {"values": [x_1, ..., x_n]}                                an empirical distribution:
//       each respondent's answer is one of the values drawn uniformly (with
//       replacement); every value must lie in [a, b]. The CLI turns a truth
//       {"csv": FILE, "column": NAME|INDEX} into this form (core does no I/O).
//
// Sampling uses only the injected RandomSource (SeededRandom in simulations):
// normals by the Box-Muller transform on two UniformUnit draws; chi-square(k)
// as the sum of k squared standard normals (exact for integer k).
// Rejection gives up after kMaxTruncationAttempts draws in a row outside
// [a, b] with an error naming the question: the distribution has (almost) no
// mass in the range.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable {

inline constexpr int kMaxTruncationAttempts = 100000;
inline constexpr int kMaxChiSquareDegrees = 1000;

class NumericTruth {
 public:
  virtual ~NumericTruth() = default;
  // One answer in the range, or an error when rejection sampling gives up.
  virtual Result<double> Draw(RandomSource& random) const = 0;
  // An empirical truth's values in their order (a table's column, one per
  // row: simulation.h shares rows across questions); 0 rows for distributions.
  virtual std::size_t rows() const { return 0; }
  virtual double Row(std::size_t /*row*/) const { return 0.0; }
};

// Validates `entry` for a question with answer range `range`; `where` names the
// entry in messages ("truth.bmi"), e.g. "truth.bmi.sd: must be a finite number > 0, but is 0".
Result<std::unique_ptr<const NumericTruth>> ParseNumericTruth(const nlohmann::json& entry, NumericRange range,
                                                              const std::string& where);

// A standard normal draw (Box-Muller, one of the pair; the other is discarded
// so that each draw consumes exactly two UniformUnit values).
double StandardNormal(RandomSource& random);

}  // namespace deniable
