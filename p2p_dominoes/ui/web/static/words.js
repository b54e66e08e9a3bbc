// How the page's words are said: the texts come from the peer (/words.json, built from the
// catalogues p2p_dominoes/words/en.po and ru.po, keys page_js.<key>); this module fills them.
// Pure (no DOM, no fetch), so tests can run it under node. Callers pass values by position,
// t("boneyard", 24, 4); FIELDS names them in that order for the catalogue's {fields}. A plural
// entry's form is chosen by the language's plural rule from its {n}. Nothing from the
// catalogue is ever evaluated: its Plural-Forms only has to be the rule PLURAL_RULES knows.

// The named fields of each entry that takes values, in the order its callers pass them.
export const FIELDS = {
  tiles: "n", boneyard: "n r", boneyard_open: "n", reserve: "r", shuffle: "name done total",
  shuffling: "total", waiting: "name s", turn_of: "name", tile_text: "a b",
  tile_label: "tile state", place_label: "end value", ray_end: "ray", train_of: "name",
  fits_places: "n", target_score: "t", seat_n: "n", played_on: "name tile value",
  you_played_on: "tile value", led: "name tile", you_led: "tile", drew: "name", you_drew: "tile",
  passed: "name", badge_drew: "n", hand_over: "n", went_out: "name parts total",
  pips_of: "name pips", blocked_low: "name parts own total", scored_plain: "name text",
  shows_tiles: "tiles pips", pips_n: "n", scores_vs: "score target", next_in: "s",
  match_won: "name", target_line: "t", seats_taken: "n total", ceremony: "text",
  goat_moment: "title who", pair_n: "n", swap_with: "n", asks: "name", from_source: "source s",
  joining: "address s", unfinished: "name seat n", state_away: "s", state_thinking: "s",
  state_bot_thinking: "level s", state_page_closed: "s", waiting_page_closed: "name s",
  hand_points: "n", luck_tally: "w p", end_total: "n", luck_drawn: "n most",
  way_text: "way total points", way_label: "place way total points", stall_you_move: "s",
  stall_come_back: "name s", stall_to_move: "name s", out_of_play: "n", place_closed: "end",
  go_on_title: "name", go_on_text: "name bot s", took_seat: "name", carried: "name",
  editor_saved_as: "name", editor_opened: "name", editor_deleted: "name", editor_go_to: "label",
};

// Entries whose words change with a value other than a count: which catalogue entry says them.
const CHOICES = {
  luck_drawn: (values) => (values.most ? "luck_drawn_of" : "luck_drawn"),
  way_text: (values) => (values.points ? "way_text_points" : "way_text"),
  way_label: (values) => (values.points ? "way_label_points" : "way_label"),
};

// Page keys that are not catalogue names (a catalogue key is lower case).
const ALIASES = { You: "you_first" };

// The plural rules of the catalogues' languages, as their Plural-Forms headers say (a test
// checks each against gettext's own reading of the header).
export const PLURAL_RULES = {
  en: (n) => (n === 1 ? 0 : 1),
  ru: (n) =>
    n % 10 === 1 && n % 100 !== 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2,
};

const SPECS = {
  "": (text) => text,
  capital: (text) => text.charAt(0).toUpperCase() + text.slice(1),
};

// `template` with its {field} and {field:spec} filled from `values` ({{ and }} are braces).
export function fill(template, values) {
  return template.replace(/\{\{|\}\}|\{([a-z_]+)(?::([a-z]+))?\}/gi, (whole, name, spec) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const shape = SPECS[spec ?? ""];
    return shape ? shape(String(values[name])) : whole;
  });
}

// The text of `key` in `words` (one language's part of /words.json) for the positional
// `args`, or undefined if that language has no such entry.
export function say(words, key, args) {
  const names = (FIELDS[key] ?? "").split(" ").filter(Boolean);
  const values = Object.fromEntries(names.map((name, i) => [name, args[i]]));
  const name = CHOICES[key] ? CHOICES[key](values) : ALIASES[key] ?? key;
  if (name in words.lines) return fill(words.lines[name], values);
  const forms = words.plurals[name];
  if (forms === undefined) return undefined;
  const rule = PLURAL_RULES[words.lang] ?? PLURAL_RULES.en;
  return fill(forms[Math.min(rule(values.n), forms.length - 1)], values);
}
