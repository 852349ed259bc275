// Checks every page test makes: a full-page screenshot to look at, that every
// chart on it has drawn something, and that the page needs no horizontal
// scrolling in its viewport; and how much of a chart is one colour.
import assert from 'node:assert/strict';

export const SCREENSHOT_DIR = process.env.DENIABLE_SCREENSHOTS ?? '/tmp';

// <SCREENSHOT_DIR>/deniable-<name>.png, the whole page; before it, every
// visible chart must have drawn (assertChartsDrawn).
export async function screenshot(page, name) {
  await assertChartsDrawn(page, name);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/deniable-${name}.png`, fullPage: true });
}

// Every visible <canvas> has at least one painted pixel within 5 s: a chart
// that failed (or a blank giant canvas) is caught, not only looked at.
export async function assertChartsDrawn(page, what) {
  const blank = () => page.evaluate(() => [...document.querySelectorAll('canvas')]
    .filter((canvas) => canvas.offsetParent !== null && canvas.width > 0 && canvas.height > 0)
    .filter((canvas) => {
      const context = canvas.getContext('2d');
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return false;
      return true;
    })
    .map((canvas) => canvas.getAttribute('aria-label') || canvas.id || canvas.parentElement?.getAttribute('data-testid') || 'a chart'));
  const deadline = Date.now() + 5000;
  let empty = await blank();
  while (empty.length > 0 && Date.now() < deadline) {
    await page.waitForTimeout(100);
    empty = await blank();
  }
  assert.deepEqual(empty, [], `${what}: charts that drew nothing`);
}

// The document is no wider than the viewport; `what` names the page in the message.
export async function assertFits(page, what) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
  }));
  assert.ok(scrollWidth <= clientWidth, `${what}: page is ${scrollWidth}px wide in a ${clientWidth}px viewport`);
}

// How many of a canvas's opaque pixels are within 8 of `rgb` on each channel:
// a chart that drew nothing of that colour (or only its axes) has none.
export function colourPixels(page, testid, rgb) {
  return page.getByTestId(testid).evaluate((canvas, colour) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let index = 0; index < data.length; index += 4) {
      const close = [0, 1, 2].every((channel) => Math.abs(data[index + channel] - colour[channel]) <= 8);
      if (close && data[index + 3] > 200) count += 1;
    }
    return count;
  }, rgb);
}
