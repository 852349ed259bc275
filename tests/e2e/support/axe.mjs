// axe-core's WCAG 2 A and AA violations on a page (or only within
// `selector`), as "rule: targets" lines: empty when clean.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function axeViolations(page, selector) {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (include) => {
    const context = include ? { include: [include] } : document;
    const result = await window.axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }, selector ?? null);
}

// The same with the page narrowed to `width` and then given back its own.
// There a wide table scrolls inside its box, and axe asks that box to be
// reachable by keyboard (scrollable-region-focusable). The default is WCAG's
// reflow width, 320 CSS px (1.4.10): narrower than a 390 px phone, where some
// tables still just fit, and what a 390 px phone shows at 120% text zoom.
export const REFLOW_WIDTH_PX = 320;

export async function axeViolationsAtWidth(page, selector, width = REFLOW_WIDTH_PX) {
  const own = page.viewportSize();
  await page.setViewportSize({ width, height: own.height });
  try {
    return await axeViolations(page, selector);
  } finally {
    await page.setViewportSize(own);
  }
}
