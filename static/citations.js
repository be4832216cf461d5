// Citation links: an [n] shows its passage on hover or keyboard focus, and a click scrolls to the passage's card
// and marks the sentence or quote the claim rests on (the citation's spans, character offsets into the passage).
// A citation the server could not verify is marked as such. Everything from the server is set as text;
// marks are made by splitting text nodes with a Range, never by writing HTML.
import { known, t } from "./i18n.js";
import { renderPassageText, textDirection } from "./markdown.js";
import { revealSources } from "./sources.js";

const popover = document.getElementById("cite-popover");
const EXCERPT_CONTEXT = 160;  // characters shown around the cited span in the popover

// How a passage is named: its Hebrew reference in a right-to-left card when there is one, else its reference or title.
export function passageLabel(passage, rightToLeft = false) {
  return (rightToLeft && passage.ref_he) || passage.ref || passage.title;
}

// What is known of a passage's standing, in the page's words: "Ashkenazi · Acharonim", "אשכנזי · אחרונים"; "" when
// nothing is. Its authority weight is a score, shown with the others in the reviewer's details (passageAuthority).
export function passageStanding(passage) {
  return [named("community", passage.community), named("era", passage.era), relationWords(passage.relation)]
    .filter(Boolean).join(" · ");
}

// A value the library records ("Sephardi", "Acharonim") in the page's words: the key "<kind>.<value>", else as it is.
function named(kind, value) {
  return value && known(`${kind}.${value}`) ? t(`${kind}.${value}`) : value;
}

// A passage's authority weight in words ("authority 1.0"), or null when it has none.
export function passageAuthority(passage) {
  const weight = passage.authority_weight;
  return typeof weight === "number" && weight > 0 ? t("passage.authority", { weight: weight.toFixed(1) }) : null;
}

// How a passage relates to another in the evidence, in words: "argues with …", "overridden by the custom of …"
// (the keys "relation.<kind>.to" and "relation.<kind>.from").
const RELATIONS = ["argues_with", "minhag_override", "supports", "quotes", "based_on", "supersedes", "contextualizes"];

export function relationWords(relation) {
  if (!relation || !RELATIONS.includes(relation.kind)) return null;
  const key = `relation.${relation.kind}.${relation.direction === "from" ? "from" : "to"}`;
  return t(key, { passage: relation.passage });
}

// Whether a citation held, and the words that say what was checked.
export function citationCheck(citation) {
  if (!citation) return { ok: false, note: t("check.unchecked") };
  if (citation.valid === false) return { ok: false, note: t("check.no_passage") };
  if (citation.verified === false) return { ok: false, note: t("check.unsupported") };
  if (citation.quote_verified === false) return { ok: false, note: t("check.quote_missing") };
  const checks = [];
  if (typeof citation.support === "number") checks.push(t("check.supported", { similarity: citation.support.toFixed(2) }));
  if (citation.quote_verified) checks.push(t("check.verbatim"));
  return { ok: true, note: checks.join(" · ") || t("check.cited") };
}

// The ranges the k-th [n] of an answer rests on: its own claim's sentence when the server said which (marks),
// else, for an answer logged before marks, every range the citation's claims rest on.
export function claimSpans(citation, k) {
  if (!citation) return [];
  if (Array.isArray(citation.marks) && k < citation.marks.length) return citation.marks[k] ? [citation.marks[k]] : [];
  return citation.spans || [];
}

// Python counts characters by code point, JavaScript strings by UTF-16 unit: convert an offset.
function unitOffset(text, codePoints) {
  if (!/[\uD800-\uDFFF]/.test(text)) return codePoints;
  return Array.from(text).slice(0, codePoints).join("").length;
}

// The spans as sorted, merged, clipped [start, end) pairs in UTF-16 units.
function cleanSpans(text, spans) {
  const pairs = (spans || [])
    .map(([s, e]) => [unitOffset(text, Math.max(0, s)), Math.min(unitOffset(text, e), text.length)])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const [s, e] of pairs) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

// Put text into element with the [start, end) unit ranges wrapped in <mark>, splitting one text node from the end.
function wrapMarks(element, text, ranges) {
  element.textContent = text;
  const node = element.firstChild;
  for (const [start, end] of [...ranges].reverse()) {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    range.surroundContents(document.createElement("mark"));
  }
  return ranges.length;
}

// Put a passage's text into element with the citation's spans (code point offsets) marked.
export function markSpans(element, text, spans) {
  return wrapMarks(element, text, cleanSpans(text, spans));
}

// The part of a passage around its first cited span, for the popover: that span whole, with context around it.
function excerpt(text, spans) {
  const merged = cleanSpans(text, spans);
  if (!merged.length) {
    const short = text.length > 2 * EXCERPT_CONTEXT ? `${text.slice(0, 2 * EXCERPT_CONTEXT)}…` : text;
    return { text: short, spans: [] };
  }
  const from = Math.max(0, merged[0][0] - EXCERPT_CONTEXT);
  const to = Math.min(text.length, merged[0][1] + EXCERPT_CONTEXT);
  const prefix = from > 0 ? "…" : "";
  const shifted = merged.filter(([s, e]) => s >= from && e <= to).map(([s, e]) => [s - from + prefix.length, e - from + prefix.length]);
  return { text: prefix + text.slice(from, to) + (to < text.length ? "…" : ""), spans: shifted };
}

let shownFor = null;  // the link whose passage the popover shows

function showPopover(link, passage, citation, spans) {
  const check = citationCheck(citation);
  popover.querySelector(".popover-n").textContent = `[${passage.n}]`;
  popover.querySelector(".popover-title").textContent = passageLabel(passage, textDirection(passage.chunk || "") === "rtl");
  const note = popover.querySelector(".popover-check");
  note.textContent = check.note;
  note.classList.toggle("unverified", !check.ok);
  const part = excerpt(passage.chunk || "", spans);
  popover.querySelector(".popover-text").classList.toggle("unverified-span", !check.ok);
  wrapMarks(popover.querySelector(".popover-text"), part.text, part.spans);  // already UTF-16 units
  popover.hidden = false;
  shownFor = link;
  const box = link.getBoundingClientRect();
  const width = popover.offsetWidth;
  const left = Math.min(Math.max(8, box.left), document.documentElement.clientWidth - width - 8);
  const below = box.bottom + popover.offsetHeight + 8 < window.innerHeight;
  popover.style.left = `${left + window.scrollX}px`;
  popover.style.top = `${(below ? box.bottom + 6 : box.top - popover.offsetHeight - 6) + window.scrollY}px`;
  link.setAttribute("aria-describedby", "cite-popover");
}

// Only the link the popover shows may hide it: the mouse leaving [1] must not hide what focus on [4] shows.
function hidePopover(link) {
  if (shownFor !== link) return;
  shownFor = null;
  popover.hidden = true;
  link.removeAttribute("aria-describedby");
}

// Scroll to passage n's card of the turn and mark what the claim rests on (spans: claimSpans).
export function showCitedPassage(turn, passage, citation, spans) {
  for (const card of turn.element.querySelectorAll(".passage")) {
    card.classList.remove("is-target");
    if (card.querySelector(".passage-text mark")) {  // back to the passage as it reads (markdown rendered)
      const other = turn.passages.find((p) => p.n === Number(card.dataset.n));
      if (other && other.chunk !== undefined) renderPassageText(card.querySelector(".passage-text"), other);
    }
  }
  const card = turn.element.querySelector(`.passage[data-n="${passage.n}"]`);
  if (!card) return;
  revealSources(turn.element);  // its evidence, were all sources hidden
  const group = card.closest("details");  // its group of the evidence may be collapsed
  if (group) group.open = true;
  if (passage.chunk !== undefined) {  // entries of the history keep no passage text
    const text = card.querySelector(".passage-text");
    text.classList.remove("markdown");  // the spans are the text's own characters: it is shown as written, marked
    markSpans(text, passage.chunk, spans);
    text.classList.toggle("unverified-span", !citationCheck(citation).ok);
  }
  card.classList.add("is-target");
  history.replaceState(null, "", `#${card.id}`);
  card.scrollIntoView({ behavior: "smooth", block: "center" });
  card.focus({ preventScroll: true });
}

// The link element for the k-th marker [n] of a turn's answer: {element, passages, citations} as the server sent
// them. Hover, focus and click show the sentence that this marker's claim rests on, not its neighbours'.
export function citationLink(turn, n, k = 0) {
  const link = document.createElement("a");
  link.className = "cite";
  link.textContent = `[${n}]`;
  const passage = turn.passages.find((p) => p.n === n);
  const citation = turn.citations.find((c) => c.n === n);
  const check = citationCheck(citation);
  const spans = claimSpans(citation, k);
  if (!check.ok) {
    link.classList.add("unverified");
    link.title = check.note;
  }
  if (!passage) {
    link.classList.add("unverified");
    link.title = t("check.no_passage");
    return link;
  }
  link.href = `#${turn.element.id}-p${n}`;
  const label = t("cite.label", { n, label: passageLabel(passage) });
  link.setAttribute("aria-label", check.ok ? label : `${label}, ${check.note}`);
  link.addEventListener("mouseenter", () => showPopover(link, passage, citation, spans));
  link.addEventListener("focus", () => showPopover(link, passage, citation, spans));
  link.addEventListener("mouseleave", () => hidePopover(link));
  link.addEventListener("blur", () => hidePopover(link));
  link.addEventListener("keydown", (event) => { if (event.key === "Escape") hidePopover(link); });
  link.addEventListener("click", (event) => {
    event.preventDefault();
    hidePopover(link);
    showCitedPassage(turn, passage, citation, spans);
  });
  return link;
}
