// The page in the reader's language. Its words are in static/i18n/<code>.json, one file per language, and the
// languages offered in static/i18n/languages.json (code, native name, direction): a new language is a new file
// and a line there, no code. The language is the one chosen in the header's switch (kept in localStorage; a switch
// words the page again in place, switchLanguage), else the first of the browser's languages the page speaks, else
// English; English fills any key a language lacks.
// The whole page follows the language's direction (<html lang dir>), and its numbers and dates are written by Intl
// in that language. Elements name their words by key: data-i18n (text), data-i18n-placeholder, data-i18n-title,
// data-i18n-aria-label. A key may have ".law" and ".general" variants: the library's wording (wording.js) picks one.
// A plural is {"one": …, "two": …, "other": …}, chosen by Intl.PluralRules for the number {n}.
// Does not: translate what the server writes (answers, passages, its error messages).
const KEY = "evidenz.page-language";
const FALLBACK = "en";
const ATTRIBUTES = ["placeholder", "title", "aria-label"];  // each named by data-i18n-<attribute>

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch (err) {
    return null;  // storage refused (a private window's settings): the browser's languages decide
  }
}

// The language to speak: the reader's choice, else the browser's first language we have, else English.
function choose(codes) {
  if (codes.includes(stored())) return stored();
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = tag.toLowerCase().split("-")[0];
    const code = base === "iw" ? "he" : base;  // Hebrew's old code, still sent by some systems
    if (codes.includes(code)) return code;
  }
  return FALLBACK;
}

let languages = [{ code: FALLBACK, name: "English", dir: "ltr" }];
let language = FALLBACK;
let english = {};
let words = {};
try {
  languages = await fetchJson("/static/i18n/languages.json");
  language = choose(languages.map((entry) => entry.code));
  english = await fetchJson(`/static/i18n/${FALLBACK}.json`);
  words = language === FALLBACK ? english : await fetchJson(`/static/i18n/${language}.json`);
} catch (err) {  // the page keeps its English markup, left to right
  console.warn("the page's words could not be read; it shows its English markup", err);
  language = FALLBACK;
  words = english;
}
let plurals = new Intl.PluralRules(language);
let numbers = new Intl.NumberFormat(language);
let wording = "general";  // or "law": the library holds a work of religious law

// The language the page speaks ("en", "he", ...) and its direction ("ltr" or "rtl"); both change when the reader
// switches language (live bindings: read them when needed, not once).
export let pageLanguage = language;
export let pageDirection = directionOf(language);

function directionOf(code) {
  return (languages.find((entry) => entry.code === code) || {}).dir || "ltr";
}

function lookup(key) {
  for (const table of [words, english]) {
    const found = table[`${key}.${wording}`] ?? table[key];
    if (found !== undefined) return found;
  }
  return undefined;
}

// Whether key has words (in the page's language or in English).
export function known(key) {
  return lookup(key) !== undefined;
}

// A number as the page's language writes it.
export function formatNumber(n) {
  return numbers.format(n);
}

// A day without its time, in the page's language's numbers: 11/26/2026, 26.11.2026.
export const DAY = { year: "numeric", month: "numeric", day: "numeric" };

// A date (a Date, or unix seconds) as the page's language writes it; options as Intl.DateTimeFormat's.
export function formatDate(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = typeof value === "number" ? new Date(value * 1000) : value;
  return new Intl.DateTimeFormat(language, options).format(date);
}

// The words of key with {name} replaced by vars[name] (numbers written in the page's language); the plural form
// for vars.n when the words have several. An unknown key is returned as it is, to be seen and fixed.
export function t(key, vars = {}) {
  let text = lookup(key);
  if (text === undefined) return key;
  if (typeof text === "object") text = text[plurals.select(vars.n ?? 0)] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in vars)) return whole;
    return typeof vars[name] === "number" ? formatNumber(vars[name]) : String(vars[name]);
  });
}

// Whether key's words differ between a library of religious law and any other.
function varies(key) {
  return [words, english].some((table) => table[`${key}.law`] !== undefined);
}

// Put the words of the page's language into every element under root that names a key (templates included); with
// onlyVarying, only into those whose words depend on the library's wording (the others may hold what a script
// wrote into them since: a status line, a toggle's state).
export function translate(root = document, onlyVarying = false) {
  if (!Object.keys(english).length) return;  // no words could be read: the markup's English stays
  const wanted = (key) => !onlyVarying || varies(key);
  for (const element of root.querySelectorAll("[data-i18n]")) {
    if (wanted(element.dataset.i18n)) element.textContent = t(element.dataset.i18n);
  }
  for (const attribute of ATTRIBUTES) {
    for (const element of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      const key = element.getAttribute(`data-i18n-${attribute}`);
      if (wanted(key)) element.setAttribute(attribute, t(key));
    }
  }
  for (const template of root.querySelectorAll("template")) translate(template.content, onlyVarying);
}

// Word the page for a library of religious law ("law") or any other ("general").
export function setWording(name) {
  if (name === wording) return;
  wording = name;
  translate(document, true);
}

// Names joined into a path ("work › part › section") that reads in the page's direction, each name isolated in
// its own <bdi> so that a Hebrew name in an English page (or the reverse) cannot turn the separators around.
export function pathElement(names, className = "path") {
  const path = document.createElement("span");
  path.className = className;
  path.dir = pageDirection;
  names.filter(Boolean).forEach((name, i) => {
    if (i) path.append(" › ");  // "›" is mirrored in a right-to-left line: it points onward, to the left
    const part = document.createElement("bdi");
    part.textContent = name;
    path.appendChild(part);
  });
  return path;
}

// Speak another language in place: its words are read, the page's markup is worded again and its direction
// turned, and "language-changed" tells every part of the page that wrote words of its own to write them again.
// Nothing the reader sees is lost: the conversation, its answers and whatever is open stay as they are.
export async function switchLanguage(code) {
  const next = code === FALLBACK ? english : await fetchJson(`/static/i18n/${code}.json`);
  language = code;
  words = next;
  plurals = new Intl.PluralRules(code);
  numbers = new Intl.NumberFormat(code);
  pageLanguage = code;
  pageDirection = directionOf(code);
  document.documentElement.lang = code;
  document.documentElement.dir = pageDirection;
  translate();
  document.dispatchEvent(new Event("language-changed"));
}

// The header's language switch: the languages offered, each in its own name; a choice is kept and the page is
// worded again in place.
function startSwitch() {
  const select = document.getElementById("page-language");
  if (!select) return;
  for (const entry of languages) {
    const option = new Option(entry.name, entry.code);
    option.lang = entry.code;
    select.appendChild(option);
  }
  select.value = language;
  select.addEventListener("change", async () => {
    try {
      localStorage.setItem(KEY, select.value);
    } catch (err) {
      // not kept: the page speaks it until it is reloaded
    }
    try {
      await switchLanguage(select.value);
    } catch (err) {  // its words could not be read: the page stays in the language it speaks
      console.warn("the page's words could not be read", err);
      select.value = language;
    }
  });
}

document.documentElement.lang = language;
document.documentElement.dir = pageDirection;
translate();
startSwitch();
