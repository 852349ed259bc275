// A tiny element builder. Everything the pages show that comes from a survey
// definition or the server is untrusted text, so it only ever goes through
// textContent and attributes — never innerHTML. Inline style attributes are
// forbidden by the CSP, so `style` is rejected here too.

export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    setAttribute(node, name, value);
  }
  append(node, children);
  return node;
}

function setAttribute(node, name, value) {
  if (value === undefined || value === null || value === false) return;
  if (name === 'style') throw new Error('inline styles are not allowed (CSP style-src self)');
  if (name === 'text') node.textContent = String(value);
  else if (name === 'class') node.className = value;
  else if (name === 'dataset') Object.assign(node.dataset, value);
  else if (name === 'testid') node.dataset.testid = value;
  else if (value === true) node.setAttribute(name, '');
  else node.setAttribute(name, String(value));
}

export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function replaceChildren(node, children) {
  node.replaceChildren();
  return append(node, children);
}

// Sets text only when it changed, so polling updates do not disturb
// selection or screen readers.
export function setText(node, text) {
  const value = String(text);
  if (node.textContent !== value) node.textContent = value;
}

export function byTestId(root, testid) {
  return root.querySelector(`[data-testid="${CSS.escape(testid)}"]`);
}
