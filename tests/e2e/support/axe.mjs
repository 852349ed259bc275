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
