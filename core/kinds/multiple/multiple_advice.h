// The advisor for a "choose all that apply" question: for its k options, at
// most m chosen, epsilon and n respondents, each set mechanism's expected
// standard error of one option's share (set_mechanism.h), near share 0 (the
// planning variance of frequency_estimator.h, Wang et al. 2017's convention)
// and at share 1/2, and a recommendation: the lowest planning SE.
//
// The comparison in formulas (v = a share's variance times n, near 0):
//   symmetric_bits:   e^x / (e^x - 1)^2, x = eps / min(k, 2m);
//   optimized_bits:   q (1 - q) / (1/2 - q)^2, q from eps_set = eps;
//   padding_sampling: l^2 q (1 - q) / (p - q)^2, grr over k + l at eps.
// The bits' variance does not grow with k once k >= 2m; padding's grows with
// k + l but uses all of epsilon on one item, so it wins for small m and
// large epsilon (bench/kinds/multiple_bench prints the table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace deniable {

struct SetMechanismAdvice {
  std::string mechanism;        // wire name
  double std_error;             // of one share near 0, at n
  double std_error_at_half;     // of a share of 1/2, at n
  double ci_half_width;         // 1.96 * std_error
  std::int64_t n_for_5_points;  // respondents for a +-0.05 interval near share 0
};

struct SetAdvice {
  int options;
  int max_choices;
  double epsilon;
  std::int64_t respondents;
  std::vector<SetMechanismAdvice> mechanisms;
  std::string recommended;
  std::string reason;
};

// k 2..64, m 1..k, epsilon valid, respondents >= 1 (checked by the caller: the question's own values).
SetAdvice AdviseSet(int options, int max_choices, double epsilon, std::int64_t respondents);

// {options, max_choices, epsilon, respondents, mechanisms: [{mechanism, std_error, std_error_at_half,
// ci_half_width, n_for_5_points}], recommended, reason}.
nlohmann::json SetAdviceToJson(const SetAdvice& advice);

}  // namespace deniable
