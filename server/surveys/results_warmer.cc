#include "server/surveys/results_warmer.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <exception>

namespace deniable::server {
namespace {

// Below the HTTP and writer threads: warming only uses CPU they leave idle.
constexpr int kWarmingNice = 10;

}  // namespace

ResultsWarmer::ResultsWarmer(std::function<void(SurveyEntry&)> warm, Timing timing)
    : warm_(std::move(warm)), timing_(timing) {}

ResultsWarmer::~ResultsWarmer() { Stop(); }

void ResultsWarmer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    pending_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

std::uint64_t ResultsWarmer::warmed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return warmed_;
}

void ResultsWarmer::Poke(const std::shared_ptr<SurveyEntry>& entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  const auto now = Clock::now();
  auto [it, added] = pending_.try_emplace(entry.get(), Pending{entry, now, now});
  it->second.last = now;
  if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  if (added) changed_.notify_all();
}

std::map<const SurveyEntry*, ResultsWarmer::Pending>::iterator ResultsWarmer::NextDue(Clock::time_point& due) {
  auto next = pending_.begin();
  due = Clock::time_point::max();
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    const auto when = std::min(it->second.last + timing_.quiet, it->second.first + timing_.longest);
    if (when < due) {
      due = when;
      next = it;
    }
  }
  return next;
}

void ResultsWarmer::Run() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kWarmingNice);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !pending_.empty(); });
    if (stopping_) return;
    Clock::time_point due;
    auto next = NextDue(due);
    if (Clock::now() < due) {
      changed_.wait_until(lock, due);  // a new survey may be due sooner: look again
      continue;
    }
    std::shared_ptr<SurveyEntry> entry = next->second.entry.lock();
    pending_.erase(next);  // reports counted from now on ask for another warming
    if (!entry) continue;
    lock.unlock();
    try {
      warm_(*entry);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "warning: warming the results failed: %s\n", error.what());
    }
    entry.reset();
    lock.lock();
    ++warmed_;
  }
}

}  // namespace deniable::server
