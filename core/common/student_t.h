// Student's t quantile for a small number of independent estimates: the
// model's interval is the mean of its chains' estimates plus or minus
// t(K - 1) standard errors (K chains), since the chains' standard deviation
// is itself estimated from K values (a normal quantile would under-cover:
// 1.96 against 2.36 for K = 8).
#pragma once

namespace deniable {

// P(|T| <= t) for T ~ Student t with `df` (>= 1) degrees of freedom, in
// closed form for integer df (Abramowitz & Stegun 26.7.3-4).
double StudentTCentralProbability(double t, int df);

// The t with P(|T| <= t) = coverage (0 < coverage < 1), by bisection on the
// closed form (to 1e-10): 12.706 for df = 1, 2.3646 for df = 7, 95%.
double StudentTTwoSidedQuantile(double coverage, int df);

}  // namespace deniable
