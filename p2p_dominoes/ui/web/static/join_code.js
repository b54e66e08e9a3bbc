// The join code on the page: word completion in the join form's code field (either language's
// words, as the peer reads them: any case, "ё" as "е"), and what the join command carries.
// The host's code is shown beside its table by lobby.js.

import { WORDS } from "./code_words.js";
import { $, el } from "./dom.js";

const SEPARATORS = /[\s,;.\-_/]+/;
const normal = (word) => word.toLowerCase().replaceAll("ё", "е");

// What the field could become when its last word is finished: at most `most` whole lines.
export function completions(text, most = 8) {
  const parts = text.split(SEPARATORS);
  const last = normal(parts.pop() || "");
  if (!last || /^\d+$/.test(last) || parts.filter(Boolean).length >= 3) return [];
  const head = parts.filter(Boolean).join(" ");
  const found = [...WORDS.en, ...WORDS.ru].filter((word) => normal(word).startsWith(last));
  return found.slice(0, most).map((word) => (head ? `${head} ${word}` : word));
}

// The code the person typed, for a join command (empty: none; the peer reads and checks it).
export function codeGiven() {
  const typed = $("join-code").value.trim();
  return typed ? { code: typed } : {};
}

export function setupJoinCode() {
  const input = $("join-code");
  input.addEventListener("input", () => {
    $("join-code-words").replaceChildren(...completions(input.value).map((value) => el("option", { value })));
  });
}
