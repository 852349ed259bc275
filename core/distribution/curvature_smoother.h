// The smoothing step of penalized EM (ems_estimator.h, EmSmoothing::kCurvature).
//
// Given an EM update e (cell probabilities, sum 1) it returns the g that
// minimises the second-order Taylor model of the M-step objective,
//     (N/2) sum_i (g_i - e_i)^2 / e_i  +  lambda m^5 sum_i (g_i - 2 g_i+1 + g_i+2)^2,
// i.e. solves the pentadiagonal system (diag(1/e) + s D'D) g = 1 with
// s = 2 lambda m^5 / N and D the second-difference operator. The weights 1/e
// are those of the multinomial log-likelihood sum_i N e_i ln g_i around e, so
// one step is a Newton step of the penalised M-step. Why second differences:
// a curvature penalty leaves straight lines (and so densities that rise to a
// boundary) unpenalised, where the [1, 2, 1]/4 kernel of EMS flattens peaks and
// pulls mass away from the ends. Why m^5: with g = phi/m for a density phi on
// [0, 1], m^5 sum (D^2 g)^2 tends to the integral of phi''^2, so one lambda
// means the same smoothness on every grid.
//
// Cells with e_i below 1e-12 are treated as 1e-12 (their weight then pins them
// near e_i); the solution is clipped at 0 and renormalised to sum 1.
// Cost: O(m) (Eigen::SimplicialLDLT of the band in its natural order: no fill-in,
// so L has bandwidth 2).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace deniable {

// Smooths on a fixed number of cells, keeping the band's storage and its
// symbolic analysis between calls (EM smooths every iteration): one per fit,
// not shared between threads.
class CurvatureSmoother {
 public:
  explicit CurvatureSmoother(std::size_t cells);
  ~CurvatureSmoother();
  CurvatureSmoother(CurvatureSmoother&&) noexcept;
  CurvatureSmoother& operator=(CurvatureSmoother&&) noexcept;

  // strength = s above (>= 0; 0 returns e renormalised). e has the smoother's
  // cells, all finite and >= 0, not all 0.
  std::vector<double> Smooth(const std::vector<double>& e, double strength);

 private:
  struct Band;
  std::unique_ptr<Band> band_;
};

// One smoothing on a fresh CurvatureSmoother. e needs >= 1 cell, all finite
// and >= 0, not all 0.
std::vector<double> CurvatureSmooth(const std::vector<double>& e, double strength);

// sum_i (g_i - 2 g_i+1 + g_i+2)^2: the discrete curvature CurvatureSmooth penalises.
double SquaredCurvature(const std::vector<double>& g);

}  // namespace deniable
