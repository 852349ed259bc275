// The beta distribution's CDF (the regularized incomplete beta function) and
// its quantile, for exact binomial intervals (Clopper-Pearson).
#pragma once

namespace deniable {

// I_x(a, b) for a, b > 0 and x in [0, 1]: the continued fraction of
// Numerical Recipes §6.4 (modified Lentz), accurate to about 1e-12.
double RegularizedIncompleteBeta(double a, double b, double x);

// The x in [0, 1] with I_x(a, b) = probability, by bisection to 1e-12.
double BetaQuantile(double probability, double a, double b);

}  // namespace deniable
