// Elementary functions that give bit-identical results natively and in
// WebAssembly, for every value that ends up in a report.
//
// std::exp, std::expm1, std::tanh and std::log differ in the last bit between
// glibc (native) and Emscripten's musl for roughly 0.02% to 2.4% of arguments
// (measured over 200000 arguments each; tanh the worst). A mechanism whose
// reports are computed from them (Laplace's noise, Duchi's and the Piecewise
// Mechanism's output bound, Square Wave's b) would then send different reports
// for the same random stream. These versions use only IEEE-754 +, -, *, / and
// exact scaling by powers of two, which every conforming platform rounds
// identically (as long as the compiler does not fuse a*b+c into an FMA:
// x86-64 without -mfma and WebAssembly never do).
//
// Accuracy: within a few ulp of the true value (tests check 4e-16 relative).
// They are not faster than std; use them only where reproducibility matters.
#pragma once

namespace deniable {

// e^x - 1 for |x| <= 700, accurate also for tiny x.
double PortableExpm1(double x);
// e^x for |x| <= 700.
double PortableExp(double x);
// The natural logarithm of a finite x > 0 (normal, not subnormal).
double PortableLog(double x);

}  // namespace deniable
