// The box a table scrolls sideways in when it is wider than the screen (a
// phone, or zoomed text). A keyboard can scroll only what takes focus, and a
// box that takes focus must say what it is (axe: scrollable-region-focusable,
// WCAG 2.1.1): so the box is a region in the Tab order, named by `label`, by
// the element whose id is `labelledBy`, or else by what names the table
// itself (its <caption>, or the caption paragraph its aria-labelledby or
// aria-describedby points to). Its focus ring is the page's :focus-visible
// outline (styles.css). Dashboards and the builder only: the survey page's
// tables fit without one.
import { el } from './dom.js';

export function scrollBox(table, { label, labelledBy, tall = false, testid } = {}) {
  return el('div', {
    class: tall ? 'table-scroll table-scroll-tall' : 'table-scroll',
    tabindex: '0', role: 'region', testid, ...boxName(table, label, labelledBy),
  }, [table]);
}

function boxName(table, label, labelledBy) {
  if (label) return { 'aria-label': label };
  if (labelledBy) return { 'aria-labelledby': labelledBy };
  const caption = table.querySelector(':scope > caption')?.textContent.trim();
  if (caption) return { 'aria-label': caption };
  const captionId = table.getAttribute('aria-labelledby') ?? table.getAttribute('aria-describedby');
  if (captionId) return { 'aria-labelledby': captionId };
  const tableLabel = table.getAttribute('aria-label');
  if (tableLabel) return { 'aria-label': tableLabel };
  // A nameless region is announced as nothing: fail where it is built, not in an audit.
  throw new Error('scrollBox: give the table a caption, or the box a label');
}
