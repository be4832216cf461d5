// The catalog in the Library panel (at most SHOWN works, narrowed by the panel's Find box): each work a collapsible entry with its parts and its sections (lessons, simanim,
// chapters), their links and passage counts, from GET /api/catalog. Clicking a section (or "Search this work")
// narrows the next questions to it: the scope line above the question box says so, its path reading in the page's
// direction (i18n.js's pathElement), and its ✕ searches everything again. As everywhere on the page, every string
// from the server is inserted as text, never as HTML.
import { readJson, request } from "./api.js";
import { formatNumber, pathElement, t } from "./i18n.js";
import { languageName } from "./settings.js";
import { count } from "./wording.js";

const panel = document.getElementById("library-panel");
const tree = document.getElementById("catalog");
const scopeLine = document.getElementById("scope");
const scopeLabel = document.getElementById("scope-label");
const scopeClear = document.getElementById("scope-clear");
const finder = document.getElementById("doc-search");  // the book manager's "Find" narrows the catalog too
const SHOWN = 200;  // works drawn at most; a library of Wikipedia articles holds ten thousand
let works = [];
let scope = null;  // {filters, path} of the narrowed search, or null for the whole library

// The filters of the next question, or null for the whole library.
export function scopeFilters() {
  return scope ? scope.filters : null;
}

// Narrow the next questions by filters to the place named by path (work, part, section), or to everything (null).
function setScope(filters, path = []) {
  scope = filters ? { filters, path } : null;
  scopeLabel.textContent = "";
  scopeLabel.dir = document.documentElement.dir;  // the line's own direction, whatever the names are written in
  scopeLabel.appendChild(pathElement(path));
  scopeLine.hidden = !scope;
  if (scope) document.getElementById("question").focus();
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function link(href, text) {
  const a = element("a", "catalog-link", text);
  a.href = href;  // the server keeps only http(s) links (ingest/course.py)
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  return a;
}

function sectionItem(work, section) {
  const item = element("li", "catalog-section");
  const name = section.heading ? `${section.title} · ${section.heading}` : section.title;
  const size = ` (${formatNumber(section.passages)})`;
  if (section.number === null) {
    item.append(element("bdi", "", name), size);
  } else {
    const part = section.within.length ? section.within[section.within.length - 1] : null;
    const button = element("button", "section-filter", "");
    button.type = "button";
    button.append(element("bdi", "", name), size);
    button.title = t("catalog.search_section");
    button.addEventListener("click", () => setScope(
      { document_ids: [work.document_id], section: section.number, ...(part ? { part } : {}) },
      [work.work, part, section.title]));
    item.appendChild(button);
  }
  if (section.link) item.append(" ", link(section.link, t("passage.lesson_page")));
  return item;
}

function workEntry(work) {
  const entry = element("details", "catalog-work");
  const summary = element("summary");
  summary.append(element("bdi", "catalog-title", work.work));
  const about = [work.author, work.language && languageName(work.language), count(work.passages, "passages")]
    .filter(Boolean).join(" · ");
  summary.append(element("span", "panel-note", ` ${about}`));
  entry.appendChild(summary);
  const whole = element("button", "secondary work-filter", t("catalog.search_work"));
  whole.type = "button";
  whole.addEventListener("click", () => setScope({ document_ids: [work.document_id] }, [work.work]));
  entry.appendChild(whole);
  if (work.link) entry.append(" ", link(work.link, t(work.course ? "catalog.course_page" : "catalog.page")));
  const parts = new Map();  // the sections of each part ("" for a work without parts), in document order
  for (const section of work.sections) {
    const key = section.within.join("\u0000");
    if (!parts.has(key)) parts.set(key, []);
    parts.get(key).push(section);
  }
  for (const [part, sections] of parts) {
    const list = element("ul", "catalog-sections");
    for (const section of sections) list.appendChild(sectionItem(work, section));
    if (!part) { entry.appendChild(list); continue; }
    const group = element("details", "catalog-part");
    const title = element("summary");
    title.append(pathElement(part.split("\u0000")), ` (${formatNumber(sections.length)})`);
    group.append(title, list);
    entry.appendChild(group);
  }
  return entry;
}

function drawCatalog() {
  const wanted = finder.value.trim().toLowerCase();
  const matching = works.filter((w) => !wanted || [w.work, w.title, w.author, w.instructor]
    .some((text) => text && text.toLowerCase().includes(wanted)));
  tree.textContent = "";
  for (const work of matching.slice(0, SHOWN)) tree.appendChild(workEntry(work));
  if (matching.length > SHOWN) {
    tree.appendChild(element("p", "status", t("catalog.showing", { shown: SHOWN, total: matching.length })));
  }
  if (!matching.length) tree.textContent = t(works.length ? "catalog.no_match" : "catalog.empty");
}

async function refreshCatalog() {
  const response = await request("/api/catalog");
  const data = await readJson(response);
  if (!response.ok || !data.works) return;
  works = data.works;
  drawCatalog();
}

scopeClear.addEventListener("click", () => setScope(null));
finder.addEventListener("input", drawCatalog);
panel.addEventListener("toggle", () => { if (panel.open) refreshCatalog(); });
document.addEventListener("library-changed", () => { if (panel.open) refreshCatalog(); });
document.addEventListener("language-changed", () => { if (panel.open) refreshCatalog(); });
