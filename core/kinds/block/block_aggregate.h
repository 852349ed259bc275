// A block's mergeable sufficient statistics (size independent of n).
//
// Respondents are grouped by (S, m): S a set of at most K attributes
// (joint_order) that they all answered, m the number of attributes they
// answered, which fixes their budget m * e (PLDP's epsilon_total). A
// respondent is in one group per S within their answered set.
//
// A group holds
//   - s, its respondents;
//   - co-occurrences: for every cell of the table with (l_a + 1) entries per
//     attribute a of S, entry l_a meaning "any", the number of respondents
//     whose bit for each named option is 1 (all "any": s; one named: the
//     per-bit count; all named: the full co-occurrence). The joint
//     estimators need every order up to |S| within the same group;
//   - row-sum moments: for every T within S, the sum over respondents of the
//     product of their number of 1 bits per attribute of T. The mean row sum
//     gives the group's average q (self-calibration, digest section 3.6);
//     the mixed central moments give the moments of the respondents' q's
//     across attributes (section 3.9), which unequal splits make non-zero.
// Memory: block_definition.h AggregateCells, capped there. Groups are made
// when first needed, so a survey where everyone answers everything holds
// only the m = d groups.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/pmoue.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct BlockResponse final : KindResponse {
  explicit BlockResponse(BlockReport r) : report(std::move(r)) {}
  BlockReport report;
};

// The attributes of a set, in the block's order, and how many there are.
std::vector<int> Members(std::uint32_t mask);
int SetSize(std::uint32_t mask);

struct BlockGroup {
  std::int64_t s = 0;
  std::vector<std::int64_t> cooccurrences;  // mixed radix over S's members, digit l_a = "any"
  std::vector<double> row_sum_moments;      // by subset of S's members (bit i: member i)
};

class BlockAggregate final : public KindAggregate {
 public:
  BlockAggregate(std::vector<int> sizes, int joint_order) : sizes_(std::move(sizes)), joint_order_(joint_order) {}
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  void AddReport(const BlockReport& report);
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<BlockAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // block_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }

  const std::vector<int>& sizes() const { return sizes_; }
  int joint_order() const { return joint_order_; }
  // The group of (set, answered count), or null when no respondent is in it.
  const BlockGroup* Group(std::uint32_t set, int answered) const;
  // Respondents who answered every attribute of the set (any m).
  std::int64_t Answered(std::uint32_t set) const;

 private:
  static std::uint32_t Key(std::uint32_t set, int answered) { return set * 16u + static_cast<std::uint32_t>(answered); }
  BlockGroup& GroupFor(std::uint32_t set, int answered);

  std::vector<int> sizes_;
  int joint_order_;
  std::int64_t n_ = 0;
  std::map<std::uint32_t, BlockGroup> groups_;
};

}  // namespace deniable
