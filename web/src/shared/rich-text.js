// Simple emphasis in survey text, without HTML: **bold**, *italics* and
// [text](https://...) links (http and https only). Built as DOM nodes, never
// innerHTML; anything else (and a link to another scheme) stays plain text.
import { el } from './dom.js';

const TOKEN = /\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

// The text as an array of strings and nodes (for el()'s children).
export function richText(text) {
  const source = String(text ?? '');
  const parts = [];
  let last = 0;
  for (const match of source.matchAll(TOKEN)) {
    const [whole, bold, italic, linkText, href] = match;
    if (match.index > last) parts.push(source.slice(last, match.index));
    if (bold !== undefined) parts.push(el('strong', { text: bold }));
    else if (italic !== undefined) parts.push(el('em', { text: italic }));
    else if (safeHref(href)) parts.push(el('a', { href: safeHref(href), rel: 'noopener noreferrer', text: linkText }));
    else parts.push(whole);
    last = match.index + whole.length;
  }
  if (last < source.length) parts.push(source.slice(last));
  return parts;
}

// The text with its emphasis marks removed (for document.title, labels).
export function plainText(text) {
  return String(text ?? '').replace(TOKEN, (whole, bold, italic, linkText) => bold ?? italic ?? linkText ?? whole);
}

function safeHref(href) {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
