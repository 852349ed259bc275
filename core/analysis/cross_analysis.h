// Cross-tabulation of two or three questions, whatever their privacy
// (analysis.h: {"cross": ["<q1>", "<q2>"(, "<q3>")]}): every question with
// categories (CategoryChannel: categorical of every mechanism, a histogram's
// finest bins, open questions). Each question is randomised on its own, so a
// report's responses have the product of the questions' channels as their
// channel (answer_channel.h), and the joint distribution is identified.
//
// Unbiased cells: for each respondent who answered all the questions, the
// outer product of their UnbiasedIndicators has expectation e_x (the joint
// answer's indicator), so the cells' mean over the n respondents is unbiased
// for the joint distribution. Their 95% intervals, f_c +- 1.96 se_c:
//   population (default): the respondents are draws from it, so the products
//     Z_ic are i.i.d. and se_c^2 = (sum Z^2 - n f^2) / (n (n - 1)), the
//     empirical variance over n;
//   respondents: only the randomisation given their answers; E[Z^2 | x] -
//     E[Z | x]^2 summed, with E[Z | x] the 0/1 indicator, is unbiasedly
//     (sum Z^2 - sum Z), so se_c^2 = max(0, sum Z^2 - sum Z) / n^2 (0 for
//     open questions: their cells are exact).
// Sufficient statistics: per cell the sum and the sum of squares (mergeable,
// size independent of n). An open question's indicators are exact, so a cell
// of open x randomised is the group's share times its estimate: the grouping.
//
// Consistent table: the maximum-likelihood joint under the product channel by
// EM on the reports' likelihood patterns (product_channel_em.h, from the
// product of the margins), then iterative proportional fitting to the margins
// (core/frequency/consistent_joint.h), as blocks do: non-negative, summing to
// 1, and each question's margin equal (to 1e-10) to that question's
// consistent marginal among these respondents (Norm-Sub of its unbiased
// marginal: for categorical questions and flat histograms what its own
// results show when everyone answered all the crossed questions). Its
// "interval" is the unbiased interval clipped to [0, 1] and stretched to hold
// the consistent value (blocks' consistent_ci): not an interval of its own.
//
// Small combinations of open answers are hidden: a cell whose combination of
// open answers has 1 to 4 respondents shows "hidden": true and no numbers.
//
// Results:
//   {"analysis": {"cross": [ids]}, "n": respondents who answered all, "interval_for": {...},
//    "questions": [{"id", "labels": [...], "open": bool}],
//    "cells": [{"labels": [one per question], "estimate", "std_error", "ci_low", "ci_high",
//               "consistent", "consistent_ci_low", "consistent_ci_high", "hidden"}]   (first question slowest),
//    "marginals": [{"id", "frequency": [...], "std_error": [...], "consistent": [...]}],
//    "consistent_method": {"em_rounds", "converged", "patterns"},
//    "warning": null or sentences}
#pragma once

#include <memory>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/product_channel_em.h"
#include "core/survey/answer_channel.h"

namespace deniable {

inline constexpr std::size_t kMaxCrossCells = 4096;

Result<std::unique_ptr<Analysis>> ParseCrossAnalysis(const Survey& survey, const nlohmann::json& spec);

class CrossAnalysis final : public Analysis {
 public:
  struct Crossed {
    std::size_t index;  // in the survey
    std::string id;
    std::shared_ptr<const QuestionKind> kind;
    const CategoryChannel* channel;  // the kind's
    bool open;
  };
  explicit CrossAnalysis(std::vector<Crossed> questions);
  void Add(const Report& report) override;
  std::int64_t n() const override { return n_; }
  Result<nlohmann::json> Estimate(const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;

 private:
  std::vector<std::size_t> Sizes() const;
  // The index of a cell's combination of open answers in open_counts_.
  std::size_t OpenCombination(std::size_t cell) const;

  std::vector<Crossed> questions_;
  std::int64_t n_ = 0;
  std::vector<double> sum_, sum_squares_;  // per cell, of the products of the indicators
  std::vector<std::vector<double>> marginal_sum_, marginal_squares_;  // per question and category
  std::vector<std::int64_t> open_counts_;  // per combination of the open questions' answers
  ProductChannelPatterns patterns_;
};

}  // namespace deniable
