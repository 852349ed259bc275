// A cap on the work of one estimation, and a way to cancel it.
//
// Why: the server computes results for anonymous requests. Iteration caps
// alone did not bound their cost: plain EM on 1000 estimation cells runs up to
// 10,000 map steps for the point estimate and again for each bootstrap
// replicate, so one request cost 46 to 90 s of CPU at n = 100,000; and a
// computation went on after its client hung up. The estimators therefore
// charge their work to a WorkBudget and stop, with the best answer they have,
// when it runs out (the result says so: fit.stopped_by "work_budget"), and they
// poll the budget's cancellation callback and stop at once when it returns true.
//
// Unit: one transition-matrix entry visited (a multiply-add): an EM map step
// costs 2 x the matrix's band entries (T f and T' r), a SQUAREM cycle 7 x; a
// KDE + SQP objective evaluation is charged for its matrix products and
// SLSQP's dense quasi-Newton step (kde_sqp_estimator.h). The count depends only
// on the inputs, never on the clock, so a budget cuts a computation at the same
// place on every machine and a result stays reproducible.
//
// No threads or globals: the callback is the caller's (the server's reads an
// atomic flag set when the client disconnects).
#pragma once

#include <cstdint>
#include <functional>

namespace deniable {

class WorkBudget {
 public:
  // `units` >= 0 of work; `cancelled` (optional) is polled on every Spend.
  explicit WorkBudget(std::int64_t units, std::function<bool()> cancelled = {});
  // A share of `parent`: at most `units` of what the parent has left; what it
  // spends is spent from the parent too, and it is cancelled with the parent.
  WorkBudget(WorkBudget& parent, std::int64_t units);

  WorkBudget(const WorkBudget&) = delete;
  WorkBudget& operator=(const WorkBudget&) = delete;

  // Takes `units` of work before doing it. False, taking nothing, when this
  // budget or an ancestor has less than that left (then exhausted() is true)
  // or when the work is cancelled: the caller stops.
  bool Spend(std::int64_t units);
  // Polls the cancellation callback (sticky: once true, always true).
  bool Cancelled();

  std::int64_t remaining() const;  // the least left here or in an ancestor
  std::int64_t spent() const { return spent_; }
  bool exhausted() const { return exhausted_; }

 private:
  WorkBudget* parent_ = nullptr;
  std::int64_t remaining_;
  std::int64_t spent_ = 0;
  bool exhausted_ = false;
  bool cancelled_ = false;
  std::function<bool()> cancelled_callback_;
};

// A Spend that treats a null budget as unlimited.
inline bool SpendWork(WorkBudget* budget, std::int64_t units) { return budget == nullptr || budget->Spend(units); }

}  // namespace deniable
