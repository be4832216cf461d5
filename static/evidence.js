// The evidence under an answer: a card per passage (its number, work, reference, standing, text, link, and its
// scores behind "Details"), grouped by work and section when there are many; the searches that found them; and
// the note that Evidenz searched once more when the first evidence was weak.
// Every server string is set as text; markup comes only from the page's <template id="passage-template">.
import { passageAuthority, passageLabel, passageStanding } from "./citations.js";
import { pageDirection, pathElement, t } from "./i18n.js";
import { renderPassageText, textDirection } from "./markdown.js";
import { reviewerView } from "./view.js";
import { count } from "./wording.js";

const passageTemplate = document.getElementById("passage-template");
const GROUP_ABOVE = 4;  // more passages than this are grouped by work and section

// A passage's scores in words: "hybrid 0.512 · BM25 3.20 · dense 0.734", or why it has none.
function scoresText(passage, reranked) {
  // not searched: brought in by a relation, or as the ruling a found gloss glosses
  if (!passage.bm25_score && !passage.dense_score) return [t("score.by_relation"), passageAuthority(passage)].filter(Boolean).join(" · ");
  const score = (key, value, digits) => (typeof value === "number" ? `${t(key)} ${value.toFixed(digits)}` : null);
  return [score(reranked ? "score.cross_encoder" : "score.hybrid", passage.ce_score, 3),
    score("score.bm25", passage.bm25_score, 2), score("score.dense", passage.dense_score, 3), passageAuthority(passage)]
    .filter(Boolean).join(" · ");
}

function passageCard(turn, passage, reranked) {
  const card = passageTemplate.content.firstElementChild.cloneNode(true);
  card.id = `${turn.element.id}-p${passage.n}`;
  card.dataset.n = passage.n;
  card.dir = textDirection(passage.chunk || passage.title || "");  // a Hebrew passage reads from the right, whatever its title
  card.querySelector(".passage-n").textContent = `[${passage.n}]`;
  const ref = card.querySelector(".passage-ref");
  ref.textContent = passage.ref ? passageLabel(passage, card.dir === "rtl") : "";
  if (ref.textContent !== (passage.ref || "")) ref.title = passage.ref;  // the Hebrew label, with the English on hover
  // on a right-to-left page, a Hebrew label names the work itself ("שולחן ערוך, אורח חיים שיח:ד"): no English title
  const named = pageDirection === "rtl" && passage.ref_he && ref.textContent === passage.ref_he
    && passage.ref && passage.ref.startsWith(passage.title);
  card.querySelector(".passage-title").textContent = named ? "" : passage.title;
  card.querySelector(".passage-standing").textContent = passageStanding(passage);  // community, era, authority
  if (passage.link) {  // its lesson's page
    const link = card.querySelector(".passage-link");
    link.href = passage.link;
    link.hidden = false;
  }
  const text = card.querySelector(".passage-text");
  if (passage.chunk === undefined) text.textContent = t("passage.no_text");
  else renderPassageText(text, passage);
  text.classList.toggle("missing", passage.chunk === undefined);
  card.querySelector(".scores").textContent = scoresText(passage, reranked);
  const details = card.querySelector(".passage-details");
  details.lang = document.documentElement.lang;  // its "Details" is the page's word, in a card of the passage's direction
  details.open = reviewerView();
  return card;
}

// Where a passage sits, for grouping: its work (title) and its first section label.
function placeOf(passage) {
  const section = (passage.section_path || [])[0];
  return section ? [passage.title, section] : [passage.title];
}

// Long evidence lists are grouped by work and section, each group collapsible; short ones are a plain list.
export function showSources(turn, sources) {
  turn.passages = sources.passages || [];
  const list = turn.part(".passages");
  list.textContent = "";
  const groups = new Map();
  for (const passage of turn.passages) {
    const key = placeOf(passage).join("\u0000");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(passage);
  }
  const grouped = turn.passages.length > GROUP_ABOVE && groups.size > 1;
  for (const passages of grouped ? groups.values() : [turn.passages]) {
    const cards = passages.map((passage) => passageCard(turn, passage, sources.reranked));
    if (!grouped) { list.append(...cards); continue; }
    const item = document.createElement("li");
    item.className = "source-group";
    const group = document.createElement("details");
    group.open = true;
    const summary = document.createElement("summary");
    summary.append(pathElement(placeOf(passages[0])), ` (${passages.length})`);
    const inner = document.createElement("ol");
    inner.className = "group-passages";
    inner.append(...cards);
    group.append(summary, inner);
    item.appendChild(group);
    list.appendChild(item);
  }
  turn.part(".evidence-heading").textContent = turn.passages.length ? t("turn.evidence") : t("evidence.none");
  showSearches(turn, sources.searches || []);
  if (sources.followup_retrieval) {
    const { query, added } = sources.followup_retrieval;
    turn.part(".followup").textContent = t("followup.weak", { query, passages: count(added, "passages") });
    turn.part(".followup").hidden = false;
  }
}

// The searches behind the evidence: the writer's own (with the work, section and language it chose) or the
// pipeline's, each with the numbers of the passages it found, or why it was refused.
function showSearches(turn, searches) {
  const panel = turn.part(".searches-panel");
  const list = turn.part(".searches");
  list.textContent = "";
  for (const search of searches) {
    const item = document.createElement("li");
    const query = document.createElement("bdi");
    query.textContent = search.query === null ? t("searches.unreadable") : t("quoted", { text: search.query });
    const filters = Object.entries(search.filters || {}).filter(([, value]) => value !== null && value !== undefined)
      .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : value}`);
    const found = search.error ? t("searches.refused", { error: search.error })
      : search.results.length ? t("searches.found", { list: search.results.map((n) => `[${n}]`).join(" ") })
        : t("searches.nothing");
    item.append(query, filters.length ? ` · ${filters.join(" · ")}` : "", ` ${t("searches.arrow")} ${found}`);
    if (search.error) item.className = "search-refused";
    list.appendChild(item);
  }
  turn.part(".searches-heading").textContent = t("searches.heading", { n: searches.length });
  panel.hidden = !searches.length;
  panel.open = searches.length > 1;
}
