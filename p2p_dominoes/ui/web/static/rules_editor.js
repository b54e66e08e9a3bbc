// The house-rules editor. It shows the switches the peer describes (/rules/api/form), sends
// every change to the peer, which runs the engine's own check (/rules/api/check), and shows
// what comes back: conflicts named on both switches (and Save off), switches with no effect
// greyed with their reason. Nothing here decides what is allowed.

import { WORDS } from "./strings.js";
import { say as sayWord } from "./words.js";

// The editor's words come from the peer's catalogues (keys page_js.editor_<name>), served at
// /words.json and read by strings.js before this module runs.
const lang = document.documentElement.lang === "ru" ? "ru" : "en";
const spoken = (code, key, args) => (WORDS[code] ? sayWord(WORDS[code], `editor_${key}`, args) : undefined);
const t = (key, ...args) => spoken(lang, key, args) ?? spoken("en", key, args) ?? key;
const words = (w) => (w ? w[lang] ?? w.en : "");
const $ = (id) => document.getElementById(id);
const COUNTS = [2, 3, 4];

let form = null;        // the controls, groups and sets the peer describes
let draft = null;       // every field of the set being edited
let findings = [];
let current = {};       // each choice control's value in words (for "other: …")
let problem = null;     // the peer's reason when the draft is not a rules object at all
let openedSaved = null; // the saved set's name, when one is open
let sequence = 0;       // answers to older checks are dropped

async function call(path, body) {
  const init = { headers: { "X-Page-Key": localStorage.getItem("p2p-dominoes-key") || "" } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  try {
    const reply = await fetch(path, init);
    const data = await reply.json();
    return { ok: reply.ok, data };
  } catch {
    return { ok: false, data: { problem: { text: { en: spoken("en", "failed", []), ru: spoken("ru", "failed", []) } } } };
  }
}

function say(text) { $("status").textContent = text; }

// -- building the controls once -----------------------------------------------------------------

function element(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function buildCounts(control, box) {
  const table = element("table", { class: "counts" });
  const head = table.createTHead().insertRow();
  for (const key of ["players", "plays", "tiles_each", "target"]) head.append(element("th", {}, t(key)));
  const body = table.createTBody();
  for (const n of COUNTS) {
    const row = body.insertRow();
    row.append(element("th", { scope: "row" }, String(n)));
    const plays = element("input", { type: "checkbox", id: `plays-${n}`, "aria-label": `${n} ${t("players")}: ${t("plays")}` });
    const size = element("input", { type: "number", id: `size-${n}`, min: "1", max: String(Math.floor(28 / n)), "aria-label": `${n} ${t("players")}: ${t("tiles_each")}` });
    const target = element("input", { type: "number", id: `target-${n}`, min: "1", max: "10000", "aria-label": `${n} ${t("players")}: ${t("target")}` });
    for (const input of [plays, size, target]) {
      input.setAttribute("aria-describedby", `why-${control.key}`);
      input.addEventListener("change", () => changeCounts());
      row.insertCell().append(input);
    }
  }
  box.append(table);
}

function buildControl(control) {
  const box = element("div", { class: "control", id: `ctl-${control.key}`, "data-fields": control.fields.join(" ") });
  const label = element("label", { for: `in-${control.key}` }, words(control.words));
  if (control.kind === "counts") {
    box.append(element("p", { class: "control-label" }, words(control.words)));
    buildCounts(control, box);
  } else if (control.kind === "choice") {
    const select = element("select", { id: `in-${control.key}` });
    control.choices.forEach((choice, index) => select.add(new Option(words(choice.words), String(index))));
    const other = new Option(t("other"), "other");
    other.disabled = true;
    select.add(other);
    select.addEventListener("change", () => {
      const choice = control.choices[Number(select.value)];
      if (choice) change(choice.sets);
    });
    box.append(label, select);
  } else if (control.kind === "bool") {
    const input = element("input", { type: "checkbox", id: `in-${control.key}` });
    input.addEventListener("change", () => change({ [control.fields[0]]: input.checked }));
    box.append(input, label);
  } else {
    const input = element("input", { type: "number", id: `in-${control.key}` });
    if (control.low !== null) input.min = String(control.low);
    if (control.high !== null) input.max = String(control.high);
    input.addEventListener("change", () => {
      const value = Number.parseInt(input.value, 10);
      if (Number.isInteger(value)) change({ [control.fields[0]]: value });
    });
    box.append(label, input);
  }
  if (control.hint) box.append(element("p", { class: "hint" }, words(control.hint)));
  box.append(element("p", { class: "why", id: `why-${control.key}` }));
  const input = box.querySelector(`#in-${control.key}`);
  if (input) input.setAttribute("aria-describedby", `why-${control.key}`);
  return box;
}

function buildEditor() {
  const editor = $("editor");
  for (const group of form.groups) {
    const set = element("fieldset", { id: `group-${group.key}` });
    set.append(element("legend", {}, words(group.words)));
    for (const control of form.controls.filter((c) => c.group === group.key)) set.append(buildControl(control));
    editor.append(set);
  }
  editor.addEventListener("submit", (event) => event.preventDefault());
}

function fillSets(selected) {
  const select = $("start-from");
  select.replaceChildren();
  const presets = element("optgroup", { label: t("presets") });
  for (const name of form.presets) {
    const label = words(form.preset_words[name]);
    presets.append(new Option(label && label !== name ? `${label} (${name})` : name, name));
  }
  select.append(presets);
  if (form.saved.length) {
    const saved = element("optgroup", { label: t("saved") });
    for (const name of form.saved) saved.append(new Option(name, name));
    select.append(saved);
  }
  if (selected) select.value = selected;
}

// -- changes: the draft goes to the peer, which checks it -------------------------------------------

function change(values) {
  Object.assign(draft, values);
  if (values.goal !== undefined) {  // a fixed number of hands has no target, a target has one per count
    if (draft.goal === "fixed-hands") draft.targets = [];
    else if (!draft.targets.length) draft.targets = draft.hand_sizes.map(([n]) => [n, 101]);
  }
  check();
}

function changeCounts() {
  const sizes = [];
  const targets = [];
  const known = Object.fromEntries(draft.targets);
  for (const n of COUNTS) {
    if (!$(`plays-${n}`).checked) continue;
    sizes.push([n, Number.parseInt($(`size-${n}`).value, 10) || 1]);
    targets.push([n, Number.parseInt($(`target-${n}`).value, 10) || known[n] || 101]);
  }
  change({ hand_sizes: sizes, targets: draft.goal === "fixed-hands" ? [] : targets });
}

async function check() {
  const mine = ++sequence;
  const reply = await call("/rules/api/check", { rules: draft });
  if (mine !== sequence) return;
  if (reply.ok) {
    draft = reply.data.draft;
    findings = reply.data.findings;
    current = reply.data.current;
    problem = null;
  } else {
    problem = reply.data.problem;
  }
  update();
  if (!$("screen").hidden) showScreen();
}

// -- drawing the draft and the findings ----------------------------------------------------------------

function controlsOf(field) { return form.controls.filter((c) => c.fields.includes(field)); }

function choiceOf(control) {
  return control.choices.findIndex((choice) => {
    const wanted = Object.keys(choice.matches).length
      ? choice.matches
      : Object.fromEntries(Object.entries(choice.sets).map(([k, v]) => [k, [v]]));
    return Object.entries(wanted).every(([k, values]) => values.some((v) => JSON.stringify(v) === JSON.stringify(draft[k])));
  });
}

function showValues(control) {
  if (control.kind === "counts") {
    const sizes = Object.fromEntries(draft.hand_sizes);
    const targets = Object.fromEntries(draft.targets);
    const fixed = draft.goal === "fixed-hands";
    for (const n of COUNTS) {
      $(`plays-${n}`).checked = n in sizes;
      $(`size-${n}`).value = sizes[n] ?? "";
      $(`size-${n}`).disabled = !(n in sizes);
      $(`target-${n}`).value = fixed ? "" : targets[n] ?? "";
      $(`target-${n}`).disabled = fixed || !(n in sizes);
    }
    return;
  }
  const input = $(`in-${control.key}`);
  if (control.kind === "choice") {
    const index = choiceOf(control);
    const other = input.querySelector('option[value="other"]');
    other.hidden = index >= 0;
    other.textContent = index >= 0 ? t("other") : `${t("other")}: ${words(current[control.key])}`;
    input.value = index >= 0 ? String(index) : "other";
  } else if (control.kind === "bool") {
    input.checked = Boolean(draft[control.fields[0]]);
  } else {
    input.value = String(draft[control.fields[0]]);
  }
}

function update() {
  const conflicts = findings.filter((f) => f.kind === "conflict");
  const greyed = new Map();
  for (const f of findings) if (f.greyed) for (const field of f.fields) if (!greyed.has(field)) greyed.set(field, f);
  for (const control of form.controls) {
    showValues(control);
    const box = $(`ctl-${control.key}`);
    const mine = (f) => f.fields.some((field) => control.fields.includes(field));
    const clashes = conflicts.filter(mine);
    const inert = control.fields.every((field) => greyed.has(field));
    const notes = findings.filter((f) => f.kind === "inert" && !f.greyed && mine(f));
    const lines = [
      ...clashes.map((f) => `${t("conflict")} ${words(f.text)}`),
      ...(inert ? [`${t("no_effect")} ${words(greyed.get(control.fields[0]).text)}`] : []),
      ...notes.map((f) => `${t("only_some")} ${words(f.text)}`),
    ];
    box.classList.toggle("conflict", clashes.length > 0);
    box.classList.toggle("inert", inert && !clashes.length);
    const why = $(`why-${control.key}`);
    why.textContent = lines.join(" ");
    why.hidden = !lines.length;
    box.title = lines.join("\n");
    for (const input of box.querySelectorAll("input, select")) {
      if (clashes.length) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    }
  }
  const list = $("conflict-list");
  list.replaceChildren();
  for (const f of conflicts) {
    const item = element("li", { "data-code": f.code }, words(f.text));
    for (const control of new Set(f.fields.flatMap(controlsOf))) {
      const link = element("a", { href: `#ctl-${control.key}`, class: "to-switch" }, t("go_to", words(control.words)));
      link.addEventListener("click", (event) => { event.preventDefault(); focusControl(control); });
      item.append(" ", link);
    }
    list.append(item);
  }
  if (problem) list.append(element("li", { class: "problem" }, words(problem.text)));
  $("conflicts").hidden = !conflicts.length && !problem;
  const name = $("set-name").value.trim();
  const why = !form.can_save ? t("save_off_no_data")
    : problem ? t("save_off_problem")
    : conflicts.length ? t("save_off_conflict")
    : !name ? t("save_off_name") : "";
  $("save-set").disabled = Boolean(why);
  $("save-why").textContent = why;
  $("delete-set").hidden = !openedSaved || openedSaved !== name;
}

function focusControl(control) {
  showEditor();
  const box = $(`ctl-${control.key}`);
  box.scrollIntoView({ block: "center" });
  const input = box.querySelector("input:not([disabled]), select");
  if (input) input.focus();
}

// -- sets: open, save, delete -------------------------------------------------------------------------

async function openSet(name) {
  const reply = await call("/rules/api/open", { name });
  if (!reply.ok) { say(words(reply.data.problem.text)); return; }
  sequence++;
  draft = reply.data.draft;
  findings = reply.data.findings;
  current = reply.data.current;
  problem = null;
  openedSaved = reply.data.saved ? name : null;
  $("set-name").value = reply.data.saved ? name : "";
  update();
  if (!$("screen").hidden) showScreen();
  say(t("opened", name));
}

async function save() {
  const name = $("set-name").value.trim();
  const reply = await call("/rules/api/save", { name, rules: draft });
  if (!reply.ok) {
    if (reply.data.findings) { findings = reply.data.findings; update(); }
    say(words(reply.data.problem.text));
    return;
  }
  form.saved = reply.data.saved;
  fillSets(name);
  openedSaved = name;
  update();
  say(t("saved_as", name));
}

async function remove() {
  const name = openedSaved;
  const reply = await call("/rules/api/delete", { name });
  if (!reply.ok) { say(words(reply.data.problem.text)); return; }
  openedSaved = null;
  form.saved = reply.data.saved;
  fillSets();
  update();
  say(t("deleted", name));
}

// -- the rules screen ------------------------------------------------------------------------------------

async function showScreen() {
  $("screen").hidden = false;
  $("editor").hidden = true;
  $("show-screen").setAttribute("aria-pressed", "true");
  $("show-editor").setAttribute("aria-pressed", "false");
  const mine = sequence;
  const reply = await call("/rules/api/screen", { rules: draft, lang });
  if (mine !== sequence || !reply.ok) return;
  const box = $("screen-text");
  box.replaceChildren();
  let paragraph = element("p");
  box.append(paragraph);
  for (const segment of reply.data.segments) {
    segment.text.split("\n").forEach((part, index) => {
      if (index > 0) { paragraph = element("p"); box.append(paragraph); }
      if (!part) return;
      if (!segment.field) { paragraph.append(part); return; }
      const control = controlsOf(segment.field)[0];
      const link = element("a", { href: control ? `#ctl-${control.key}` : "#", class: "rule-link", "data-field": segment.field }, part);
      if (control) link.addEventListener("click", (event) => { event.preventDefault(); focusControl(control); });
      paragraph.append(link, " ", element("span", { class: "rule-value", "data-field": segment.field },
        `[${t("now")}: ${segment.value}${segment.greyed ? `; ${t("no_effect_here")}` : ""}]`));
    });
  }
}

function showEditor() {
  $("screen").hidden = true;
  $("editor").hidden = false;
  $("show-screen").setAttribute("aria-pressed", "false");
  $("show-editor").setAttribute("aria-pressed", "true");
}

// -- start ------------------------------------------------------------------------------------------------

async function start() {
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-t-aria]")) node.setAttribute("aria-label", t(node.dataset.tAria));
  document.title = `p2p-dominoes · ${t("title")}`;
  say(t("loading"));
  const reply = await call("/rules/api/form");
  if (!reply.ok) { say(words(reply.data.problem.text)); return; }
  form = reply.data;
  buildEditor();
  fillSets("house");
  $("start-from").addEventListener("change", () => openSet($("start-from").value));
  $("open-set").addEventListener("click", () => openSet($("start-from").value));
  $("save-set").addEventListener("click", save);
  $("delete-set").addEventListener("click", remove);
  $("set-name").addEventListener("input", update);
  $("show-editor").addEventListener("click", showEditor);
  $("show-screen").addEventListener("click", showScreen);
  await openSet("house");
  document.body.dataset.ready = "1";
}

start();
