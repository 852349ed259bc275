// The design matrix of a regression on questions asked openly: an intercept,
// each categorical covariate dummy-coded against its first level with
// respondents (levels nobody chose have no column: their coefficient is not
// identified), each numeric covariate as its value. Also the rows of the
// covariate profiles that predictions are made for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Dense>

namespace deniable {

struct RegressionCovariate {
  std::string id;
  std::vector<std::string> levels;  // a categorical question's labels; empty: numeric
};

// Where one covariate went in the design.
struct CovariateTerms {
  // Categorical: per level, its dummy's column, kReference for the reference
  // level, kAbsent for a level without respondents; and how many chose it.
  std::vector<int> level_column;
  std::vector<std::int64_t> level_count;
  // Numeric: its column and its mean over the respondents.
  int column = -1;
  double mean = 0;
};

inline constexpr int kReference = -1;
inline constexpr int kAbsent = -2;

struct RegressionDesign {
  Eigen::MatrixXd x;               // n x p, column 0 the intercept
  std::vector<std::string> terms;  // p names: "(intercept)", "<id>=<level>", "<id>"
  std::vector<CovariateTerms> covariates;
  std::vector<std::string> notes;  // levels left out, a reference that is not the first level
};

// `values`: n x covariates, a categorical covariate's level index (as a
// double) or a numeric covariate's value.
RegressionDesign BuildRegressionDesign(const std::vector<RegressionCovariate>& covariates,
                                       const Eigen::MatrixXd& values);

// The design row of a profile: `levels[j]` the level of categorical covariate
// j (ignored for numeric ones, which take their mean).
Eigen::RowVectorXd ProfileRow(const RegressionDesign& design, const std::vector<int>& levels);

}  // namespace deniable
