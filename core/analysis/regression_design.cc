#include "core/analysis/regression_design.h"

namespace deniable {
namespace {

// Adds a categorical covariate's dummies; returns where its levels went.
CovariateTerms AddCategorical(const RegressionCovariate& covariate, const Eigen::VectorXd& values,
                              std::vector<Eigen::VectorXd>& columns, RegressionDesign& design) {
  const std::size_t levels = covariate.levels.size();
  CovariateTerms terms{std::vector<int>(levels, kAbsent), std::vector<std::int64_t>(levels, 0), -1, 0};
  for (Eigen::Index i = 0; i < values.size(); ++i) terms.level_count[static_cast<std::size_t>(values(i))]++;
  bool reference_found = false;
  for (std::size_t level = 0; level < levels; ++level) {
    const std::string& label = covariate.levels[level];
    if (terms.level_count[level] == 0) {
      design.notes.push_back(covariate.id + ": no respondent chose \"" + label + "\", so it has no coefficient");
      continue;
    }
    if (!reference_found) {
      reference_found = true;
      terms.level_column[level] = kReference;
      if (level > 0) {
        design.notes.push_back(covariate.id + ": the reference level is \"" + label +
                               "\", the first level with respondents");
      }
      continue;
    }
    terms.level_column[level] = static_cast<int>(columns.size());
    columns.push_back((values.array() == static_cast<double>(level)).cast<double>().matrix());
    design.terms.push_back(covariate.id + "=" + label);
  }
  return terms;
}

}  // namespace

RegressionDesign BuildRegressionDesign(const std::vector<RegressionCovariate>& covariates,
                                       const Eigen::MatrixXd& values) {
  const Eigen::Index n = values.rows();
  RegressionDesign design;
  std::vector<Eigen::VectorXd> columns = {Eigen::VectorXd::Ones(n)};
  design.terms.push_back("(intercept)");
  for (std::size_t j = 0; j < covariates.size(); ++j) {
    const Eigen::VectorXd column = values.col(static_cast<Eigen::Index>(j));
    if (!covariates[j].levels.empty()) {
      design.covariates.push_back(AddCategorical(covariates[j], column, columns, design));
      continue;
    }
    CovariateTerms terms;
    terms.column = static_cast<int>(columns.size());
    terms.mean = n > 0 ? column.mean() : 0.0;
    columns.push_back(column);
    design.terms.push_back(covariates[j].id);
    design.covariates.push_back(terms);
  }
  design.x.resize(n, static_cast<Eigen::Index>(columns.size()));
  for (std::size_t c = 0; c < columns.size(); ++c) design.x.col(static_cast<Eigen::Index>(c)) = columns[c];
  return design;
}

Eigen::RowVectorXd ProfileRow(const RegressionDesign& design, const std::vector<int>& levels) {
  Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(design.x.cols());
  row(0) = 1.0;
  for (std::size_t j = 0; j < design.covariates.size(); ++j) {
    const CovariateTerms& terms = design.covariates[j];
    if (terms.column >= 0) {
      row(terms.column) = terms.mean;
    } else if (const int column = terms.level_column[static_cast<std::size_t>(levels[j])]; column >= 0) {
      row(column) = 1.0;
    }
  }
  return row;
}

}  // namespace deniable
