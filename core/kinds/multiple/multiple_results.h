// A "choose all that apply" question's results: n, epsilon and what it
// guarantees for the whole set, the mechanism, each option's share (the part
// of respondents who chose it) with its SE and 95% interval (for the
// population by default, or these respondents: "interval_for"), each clipped
// to [0, 1] as the consistent share (shares need not sum to 1: a respondent
// chooses several), the number chosen (its mean and distribution,
// number_chosen.h), and a warning when n is too small; and its CSV rows.
//
// Shares come from frequency_estimator.h's estimator with the mechanism's
// per-value probabilities (set_mechanism.h): for the bits exactly the
// unbiased (C_i - n q) / (n (p - q)); for padding_sampling l times the
// option's frequency among the sampled items, unbiased for sets of at most l
// options (larger sets are under-counted: the truncation bias). The
// population's 95% interval of a share is the exact (Clopper-Pearson)
// interval of its reports' share lambda = q + (p_eff - q) f (their count is
// binomial), mapped to f: it covers at least 95% even with a few reports per
// option, where estimate +- 1.96 SE did not (its SE is still reported). These
// respondents' interval is the score interval: the shares whose
// randomisation variance, taken at the share itself, puts the observed
// report share within 1.96 sd (estimate +- 1.96 SE, the variance taken at
// the estimate, covered too little there too).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/frequency/frequency_estimator.h"
#include "core/kinds/multiple/multiple_question_kind.h"

namespace deniable {

// Per output value (options, then padding's dummies): the estimator's shares.
FrequencyEstimate EstimateShares(const MultipleQuestionKind& kind, const MultipleAggregate& aggregate,
                                 IntervalTarget target = IntervalTarget::kPopulation);

nlohmann::json MultipleResultToJson(const MultipleQuestionKind& kind, const MultipleAggregate& aggregate,
                                    IntervalTarget target = IntervalTarget::kPopulation);

// One row per option (measure "share"), then the mean number chosen ("mean_chosen"), then one
// row per number chosen ("share_choosing", label the number).
std::vector<CsvRow> MultipleCsvRows(const nlohmann::json& result);

}  // namespace deniable
