// Runs `task` now and then every `intervalMs` after each run finishes (never
// two at once), pausing while the tab is hidden.
export function createPoller(task, intervalMs) {
  let timer = null;
  let running = false;
  let rerun = false;

  async function run() {
    if (running) {
      rerun = true;
      return;
    }
    clearTimeout(timer);
    timer = null;
    running = true;
    try {
      await task();
    } finally {
      running = false;
    }
    if (rerun) {
      rerun = false;
      run();
    } else if (!document.hidden) {
      timer = setTimeout(run, intervalMs);
    }
  }

  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && !running && timer === null) run();
  });
  return { runNow: run };
}
