// Computes a survey's default results document soon after reports arrive, so
// that the analyst who opens the dashboard finds it cached instead of waiting
// for it (a numeric question's document costs up to a second or two).
//
// Debounced: a survey is warmed once no report has been counted for `quiet`,
// or `longest` after the first report not yet warmed for, whichever comes
// first (a steady stream of reports still gets a fresh document every few
// seconds). Bounded: one background thread, lazily made, warms one survey at
// a time (so never two computations for one survey), at a low priority (nice
// 10) and without the worker pool's helpers, through the default lane of the
// estimation gate like any reader (survey_registry.h): reports are
// acknowledged by the writer, never by this thread, and Poke only marks the
// survey and returns. A reader who asks while the warming runs waits for it
// (results_cache.h) instead of computing again. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace deniable::server {

class SurveyEntry;

class ResultsWarmer {
 public:
  struct Timing {
    std::chrono::milliseconds quiet{1000};
    std::chrono::milliseconds longest{5000};
  };
  // `warm` computes (and so caches) the entry's default document.
  explicit ResultsWarmer(std::function<void(SurveyEntry&)> warm, Timing timing);
  ~ResultsWarmer();
  ResultsWarmer(const ResultsWarmer&) = delete;
  ResultsWarmer& operator=(const ResultsWarmer&) = delete;

  // Reports were counted for `entry` (kept weakly: a deleted survey is not warmed).
  void Poke(const std::shared_ptr<SurveyEntry>& entry);
  // Stops the thread (after the warming under way); later pokes do nothing.
  void Stop();
  // Warmings made so far (for tests and diagnostics).
  std::uint64_t warmed() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Pending {
    std::weak_ptr<SurveyEntry> entry;
    Clock::time_point first;
    Clock::time_point last;
  };
  void Run();
  // The survey due first and when (mutex_ held); pending_ not empty.
  std::map<const SurveyEntry*, Pending>::iterator NextDue(Clock::time_point& due);

  const std::function<void(SurveyEntry&)> warm_;
  const Timing timing_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<const SurveyEntry*, Pending> pending_;
  bool stopping_ = false;
  std::uint64_t warmed_ = 0;
  std::thread thread_;  // made by the first Poke
};

}  // namespace deniable::server
