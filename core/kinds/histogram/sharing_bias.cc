#include "core/kinds/histogram/sharing_bias.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>

namespace deniable {

std::map<int, double> QuadraticWeights(const FinePartition& partition, int i, int first, double from, double to) {
  std::vector<int> cells;
  for (int k = first; k < first + 3; ++k) {
    if (k < 0 || k >= partition.cells()) return {};
    cells.push_back(k);
  }
  // Local coordinates: cell i is [-1/2, 1/2] (conditioning); a polynomial of degree cells - 1.
  const double centre = (partition.BoundaryValue(i) + partition.BoundaryValue(i + 1)) / 2.0;
  const double width = partition.BoundaryValue(i + 1) - partition.BoundaryValue(i);
  const auto local = [&](double x) { return (x - centre) / width; };
  const auto n = static_cast<Eigen::Index>(cells.size());
  const auto moments = [n](double a, double b) {  // integrals of 1, x, x^2 over [a, b]
    Eigen::RowVectorXd row(n);
    for (Eigen::Index p = 0; p < n; ++p) row(p) = (std::pow(b, p + 1) - std::pow(a, p + 1)) / static_cast<double>(p + 1);
    return row;
  };
  // Integrals of the basis over each cell: the density's coefficients are M^-1 times the cells' shares.
  Eigen::MatrixXd integrals(n, n);
  for (Eigen::Index r = 0; r < n; ++r) {
    const int k = cells[static_cast<std::size_t>(r)];
    integrals.row(r) = moments(local(partition.BoundaryValue(k)), local(partition.BoundaryValue(k + 1)));
  }
  // e = (integral over the part - share of the part * integral over cell i) . coefficients.
  const double part = (to - from) / width;
  const Eigen::RowVectorXd functional = moments(local(from), local(to)) - part * moments(-0.5, 0.5);
  const Eigen::RowVectorXd lambda = functional * integrals.inverse();
  std::map<int, double> weights;
  for (Eigen::Index r = 0; r < n; ++r) weights[cells[static_cast<std::size_t>(r)]] = lambda(r);
  return weights;
}

std::vector<std::map<int, double>> SharingErrorModels(const FinePartition& partition, int i, double from, double to) {
  std::vector<std::map<int, double>> models;
  // At a range end fewer than two windows hold i: the nearest one beside it serves as the second.
  for (int first : {i - 1, i - 2, i, i - 3, i + 1}) {
    if (models.size() == 3) break;
    auto weights = QuadraticWeights(partition, i, first, from, to);
    if (!weights.empty()) models.push_back(std::move(weights));
  }
  return models;
}

}  // namespace deniable
