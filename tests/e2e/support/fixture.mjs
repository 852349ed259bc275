// One real server and one Chromium for a whole test file: registers the
// before/after hooks and returns an object whose `server` and `browser` are
// set once `before` has run.
import { after, before } from 'node:test';
import { launchBrowser } from './browser.mjs';
import { startServer } from './server.mjs';

export function useServerAndBrowser() {
  const fixture = { server: undefined, browser: undefined };
  before(async () => {
    fixture.server = await startServer();
    fixture.browser = await launchBrowser();
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.stop();
  });
  return fixture;
}
