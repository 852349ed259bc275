#include "core/kinds/block/block_aggregate.h"

#include <bitset>

namespace deniable {

std::vector<int> Members(std::uint32_t mask) {
  std::vector<int> members;
  for (int a = 0; mask >> a; ++a) {
    if (mask & (std::uint32_t{1} << a)) members.push_back(a);
  }
  return members;
}

int SetSize(std::uint32_t mask) {
  int size = 0;
  for (; mask != 0; mask &= mask - 1) ++size;
  return size;
}

std::string_view BlockAggregate::type() const { return "block"; }

BlockGroup& BlockAggregate::GroupFor(std::uint32_t set, int answered) {
  BlockGroup& group = groups_[Key(set, answered)];
  if (group.cooccurrences.empty()) {
    std::size_t cells = 1;
    const std::vector<int> members = Members(set);
    for (int a : members) cells *= static_cast<std::size_t>(sizes_[static_cast<std::size_t>(a)] + 1);
    group.cooccurrences.assign(cells, 0);
    group.row_sum_moments.assign(std::size_t{1} << members.size(), 0.0);
  }
  return group;
}

void BlockAggregate::Add(const KindResponse& response) { AddReport(static_cast<const BlockResponse&>(response).report); }

void BlockAggregate::AddReport(const BlockReport& report) {
  ++n_;
  const std::uint32_t answered = report.answered_mask();
  const int m = report.answered_count();
  // Every non-empty subset of the answered set with at most K members.
  for (std::uint32_t set = answered; set != 0; set = (set - 1) & answered) {
    const std::vector<int> members = Members(set);
    if (static_cast<int>(members.size()) > joint_order_) continue;
    BlockGroup& group = GroupFor(set, m);
    ++group.s;
    // Co-occurrences: every combination of ("any" or a 1 bit) per member.
    std::vector<std::vector<int>> digits;
    for (int a : members) {
      const auto& bits = report.bits[static_cast<std::size_t>(a)];
      std::vector<int> choices;
      for (std::size_t b = 0; b < bits.size(); ++b) {
        if (bits[b]) choices.push_back(static_cast<int>(b));
      }
      choices.push_back(sizes_[static_cast<std::size_t>(a)]);  // "any"
      digits.push_back(std::move(choices));
    }
    std::vector<std::size_t> at(members.size(), 0);
    for (;;) {
      std::size_t index = 0;
      for (std::size_t i = 0; i < members.size(); ++i) {
        index = index * static_cast<std::size_t>(sizes_[static_cast<std::size_t>(members[i])] + 1) +
                static_cast<std::size_t>(digits[i][at[i]]);
      }
      ++group.cooccurrences[index];
      std::size_t i = members.size();
      while (i > 0 && ++at[i - 1] == digits[i - 1].size()) at[--i] = 0;
      if (i == 0) break;
    }
    // Row-sum moments.
    std::vector<double> row_sums;
    for (int a : members) {
      double ones = 0.0;
      for (auto bit : report.bits[static_cast<std::size_t>(a)]) ones += bit;
      row_sums.push_back(ones);
    }
    for (std::size_t subset = 0; subset < group.row_sum_moments.size(); ++subset) {
      double product = 1.0;
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (subset & (std::size_t{1} << i)) product *= row_sums[i];
      }
      group.row_sum_moments[subset] += product;
    }
  }
}

Status BlockAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const BlockAggregate&>(other);
  if (theirs.sizes_ != sizes_ || theirs.joint_order_ != joint_order_) return MakeError("a different block");
  n_ += theirs.n_;
  for (const auto& [key, group] : theirs.groups_) {
    BlockGroup& mine = GroupFor(key / 16u, static_cast<int>(key % 16u));
    mine.s += group.s;
    for (std::size_t i = 0; i < group.cooccurrences.size(); ++i) mine.cooccurrences[i] += group.cooccurrences[i];
    for (std::size_t i = 0; i < group.row_sum_moments.size(); ++i) mine.row_sum_moments[i] += group.row_sum_moments[i];
  }
  return OkStatus();
}

const BlockGroup* BlockAggregate::Group(std::uint32_t set, int answered) const {
  const auto found = groups_.find(Key(set, answered));
  return found == groups_.end() ? nullptr : &found->second;
}

std::int64_t BlockAggregate::Answered(std::uint32_t set) const {
  std::int64_t total = 0;
  for (int m = 1; m <= static_cast<int>(sizes_.size()); ++m) {
    if (const BlockGroup* group = Group(set, m)) total += group->s;
  }
  return total;
}

}  // namespace deniable
