// A block's results document:
//   {"n", "mode", "mechanism", "privacy", "joint_order",
//    "interval_for": IntervalForJson(target) (core/survey/interval_target.h:
//                    the marginals' and Situation 1 cells' intervals),
//    "attributes": [{"id", "text", "n", "average_q", "effective_epsilon",
//                    "options": [{"label", "count", "frequency", "std_error",
//                                 "ci_low", "ci_high", "consistent_frequency"}],
//                    "warning"}],
//    "crosstab": {"attributes": [id, ...], "situation": 1 | 2,
//                 "parts": [[id, ...], [id, ...]] | null, "n",
//                 "cells": [{"options": [label, ...], "frequency", "std_error",
//                            "ci_low", "ci_high", "consistent_frequency"}],
//                 "interval": "normal" | null, "note"} | {"error": "..."},
//    "warning"}
// frequency, std_error and the interval are null where no honest one
// exists (Situation 2, paper-mode joints); consistent_frequency always
// exists. CSV rows: one per attribute option ("<attribute id>: <option>"),
// then one per cross-tab cell ("<id>=<option> & ...").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/block_estimate_options.h"
#include "core/survey/question_kind.h"

namespace deniable {

// privacy: the kind's PrivacyToJson.
Result<nlohmann::json> BlockResultToJson(const BlockDefinition& block, const BlockAggregate& aggregate,
                                         const BlockEstimateOptions& options, const nlohmann::json& mechanism,
                                         const nlohmann::json& privacy);

std::vector<CsvRow> BlockCsvRows(const nlohmann::json& result);

}  // namespace deniable
