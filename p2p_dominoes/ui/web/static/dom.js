// Building DOM and SVG nodes. Text from the network is only ever set as textContent.

export const $ = (id) => document.getElementById(id);

// An HTML element: el("li", { className: "x", textContent: name }, child, …).
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("aria-") || key === "role" || key === "translate") node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

const SVGNS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}
