// Keyboard-only helpers: move focus with Tab and report what has it.

export function focusedElement(page) {
  return page.evaluate(() => {
    const active = document.activeElement;
    return {
      tag: active?.tagName.toLowerCase() ?? null,
      name: active?.getAttribute('name') ?? null,
      type: active?.getAttribute('type') ?? null,
      value: active?.value ?? null,
      testid: active?.dataset?.testid ?? null,
      id: active?.id || null,
      checked: active?.checked ?? null,
    };
  });
}

// Presses Tab until `matches(focused)` holds; fails after `limit` presses.
export async function tabUntil(page, matches, description, limit = 40) {
  for (let presses = 0; presses < limit; presses += 1) {
    const focused = await focusedElement(page);
    if (matches(focused)) return focused;
    await page.keyboard.press('Tab');
  }
  throw new Error(`focus never reached ${description} after ${limit} Tab presses`);
}
