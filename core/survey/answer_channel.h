// What analysis across questions (core/analysis/) needs of a question's
// responses, as capabilities of its kind (QuestionKind::category_channel,
// QuestionKind::value_channel): how a response depends on the true answer.
//
// Each question is randomised on the device independently of the others, so
// the channel of a pair of questions is the product of their channels: a
// product of the questions' unbiased indicator estimates is unbiased for the
// joint indicator, and a product of their likelihoods is the pair's
// likelihood. That is what cross-tabulations, group estimates and regressions
// on a randomised answer are built on, whatever the mechanisms.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace deniable {

class KindResponse;

// A question whose true answer is one of `categories()` (an option, a bin).
class CategoryChannel {
 public:
  virtual ~CategoryChannel() = default;
  virtual std::size_t categories() const = 0;
  // One label per category (the options, the bins' labels).
  virtual std::vector<std::string> category_labels() const = 0;
  // P(this response | the true answer is category c), for every c, up to a
  // factor common to all c: what likelihood methods (EM, regression) use.
  virtual std::vector<double> Likelihood(const KindResponse& response) const = 0;
  // An unbiased estimate of the true answer's indicator vector: its
  // expectation given true category c is e_c.
  virtual std::vector<double> UnbiasedIndicators(const KindResponse& response) const = 0;
  // The category itself when the answer is sent as given (an open question),
  // nullopt for a randomised one.
  virtual std::optional<std::size_t> ExactCategory(const KindResponse& /*response*/) const { return std::nullopt; }
};

// A question whose true answer is a number.
class ValueChannel {
 public:
  virtual ~ValueChannel() = default;
  // An unbiased estimate of the true answer: its expectation given the true
  // answer x is x.
  virtual double UnbiasedValue(const KindResponse& response) const = 0;
  // The value itself when the answer is sent as given (an open question).
  virtual std::optional<double> ExactValue(const KindResponse& /*response*/) const { return std::nullopt; }
};

}  // namespace deniable
