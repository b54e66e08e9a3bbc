// Every text the page writes itself, in English and Russian, from the peer's catalogues
// (p2p_dominoes/words/*.po, keys page_js.<key>; docs/contributing.md, "Words"). The peer serves
// both languages at /words.json, read once here before any other module runs, so t() stays
// synchronous and the language switch needs no round trip; words.js fills them. The peer
// also sends data (names, numbers, tile keys) and a few texts already in the page's language.

import { say } from "./words.js";

async function load() {
  try {
    const reply = await fetch("/words.json", { credentials: "same-origin", cache: "no-store" });
    if (reply.ok) return await reply.json();
  } catch {
    // the peer is gone: the page shows the keys, and says so through its socket's state
  }
  return {};
}

export const WORDS = await load();
export const LANGUAGES = Object.keys(WORDS).length ? Object.keys(WORDS) : ["en"];

let current = "en";

export function lang() {
  return current;
}

export function setLang(code) {
  current = WORDS[code] ? code : "en";
  document.documentElement.lang = current;
}

// The browser's preferred language we have, else English.
export function browserLang() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (WORDS[base]) return base;
  }
  return "en";
}

export function t(key, ...args) {
  for (const code of [current, "en"]) {
    const said = WORDS[code] ? say(WORDS[code], key, args) : undefined;
    if (said !== undefined) return said;
  }
  return key;
}

// Static texts of index.html: elements with data-i18n (text) or data-i18n-label (aria-label).
export function translateStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
}
