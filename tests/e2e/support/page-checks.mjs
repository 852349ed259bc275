// Checks every page test makes: a full-page screenshot to look at, and that
// the page needs no horizontal scrolling in its viewport.
import assert from 'node:assert/strict';

export const SCREENSHOT_DIR = process.env.DENIABLE_SCREENSHOTS ?? '/tmp';

// <SCREENSHOT_DIR>/deniable-<name>.png, the whole page.
export async function screenshot(page, name) {
  await page.screenshot({ path: `${SCREENSHOT_DIR}/deniable-${name}.png`, fullPage: true });
}

// The document is no wider than the viewport; `what` names the page in the message.
export async function assertFits(page, what) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
  }));
  assert.ok(scrollWidth <= clientWidth, `${what}: page is ${scrollWidth}px wide in a ${clientWidth}px viewport`);
}
