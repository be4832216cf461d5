// The chat page: a conversation of questions, each answered as the server streams it (query type, passages,
// text as it is written), then replaced by the verified answer as markdown with citation links and warnings.
// Every string from the server is inserted as text or through the sanitizer (markdown.js), never as HTML;
// markup comes only from the page's own <template> elements.
import { startAccount } from "./account.js";
import { scopeFilters } from "./catalog.js";
import { citationLink, passageLabel, passageStanding } from "./citations.js";
import { feedbackRow, refreshHistory, startHistory } from "./history.js";
import { renderMarkdown, renderPassageText, textDirection } from "./markdown.js";
import { reviewControls, showReview } from "./review.js";
import { applyHealth, querySettings } from "./settings.js";
import { showReviewed } from "./similar.js";
import { ask } from "./stream.js";
import { applyWording, count } from "./wording.js";

const form = document.getElementById("ask");
const input = document.getElementById("question");
const sendButton = document.getElementById("send");
const stopButton = document.getElementById("stop");
const newButton = document.getElementById("new-conversation");
const statusLine = document.getElementById("status");
const healthLine = document.getElementById("health");
const conversation = document.getElementById("conversation");
const turnTemplate = document.getElementById("turn-template");
const passageTemplate = document.getElementById("passage-template");

const TYPE_LABELS = { factual_lookup: "Factual lookup", explanation: "Explanation", reasoning: "Reasoning",
                      calculation: "Calculation" };
const GROUP_ABOVE = 4;  // more passages than this are grouped by work and section
let sessionId = newSessionId();
let turnCount = 0;
let running = null;  // the AbortController of the question being answered

// crypto.randomUUID exists only on https and localhost; elsewhere 16 random bytes in hex do the same job.
function newSessionId() {
  if (window.crypto.randomUUID) return window.crypto.randomUUID();
  return Array.from(window.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function setStatus(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

async function checkHealth() {
  try {
    const response = await fetch("/api/health");
    const data = await response.json();
    if (data.status === "ok") {
      const rerank = data.reranker ? `re-ranked by ${data.reranker}` : "no re-ranking";
      const size = data.library.chunks === undefined ? "" : ` · ${count(data.library.chunks, "passage")}`;
      healthLine.textContent = `Ready${size} · answers by ${data.generator} · ${rerank}`;
      healthLine.className = "health ok";
      applyHealth(data);
      applyWording(data.religious_law);
      return;
    }
    healthLine.textContent = data.status === "error" ? `Not ready: ${data.error}` : "Loading models and library…";
    healthLine.className = data.status === "error" ? "health error" : "health";
    if (data.status === "loading") setTimeout(checkHealth, 2000);
  } catch (err) {
    healthLine.textContent = "The server cannot be reached.";
    healthLine.className = "health error";
    setTimeout(checkHealth, 5000);
  }
}

function newTurn(question) {
  turnCount += 1;
  const element = turnTemplate.content.firstElementChild.cloneNode(true);
  element.id = `turn-${turnCount}`;
  element.querySelector(".question").textContent = question;
  conversation.appendChild(element);
  return { element, passages: [], citations: [], streamed: null, answered: false,
           part: (selector) => element.querySelector(selector) };
}

function showMeta(turn, meta) {
  turn.part(".query-type").textContent = TYPE_LABELS[meta.query_type] || meta.query_type || "";
  if (meta.rewritten && meta.standalone_question) {
    turn.part(".standalone").textContent = meta.standalone_question;
    turn.part(".rewritten").hidden = false;
  }
  if (meta.session_id) sessionId = meta.session_id;
}

function passageCard(turn, passage, reranked) {
  const card = passageTemplate.content.firstElementChild.cloneNode(true);
  card.id = `${turn.element.id}-p${passage.n}`;
  card.dataset.n = passage.n;
  card.dir = textDirection(passage.chunk || passage.title || "");  // a Hebrew passage reads from the right, whatever its title
  card.querySelector(".passage-n").textContent = `[${passage.n}]`;
  card.querySelector(".passage-title").textContent = passage.title;
  const ref = card.querySelector(".passage-ref");
  ref.textContent = passage.ref ? passageLabel(passage, card.dir === "rtl") : "";
  if (ref.textContent !== (passage.ref || "")) ref.title = passage.ref;  // the Hebrew label, with the English on hover
  card.querySelector(".passage-standing").textContent = passageStanding(passage);  // community, era, authority
  if (passage.link) {  // its lesson's page
    const link = card.querySelector(".passage-link");
    link.href = passage.link;
    link.hidden = false;
  }
  const text = card.querySelector(".passage-text");
  if (passage.chunk === undefined) text.textContent = "The history keeps which passage this was, not its text.";
  else renderPassageText(text, passage);
  text.classList.toggle("missing", passage.chunk === undefined);
  const score = (name, value, digits) => (typeof value === "number" ? `${name} ${value.toFixed(digits)}` : null);
  const joined = passage.relation && !passage.bm25_score && !passage.dense_score;  // not searched: a relation brought it
  card.querySelector(".scores").textContent = joined ? "brought in by its relation" : [
    score(reranked ? "cross-encoder" : "hybrid", passage.ce_score, 3), score("BM25", passage.bm25_score, 2),
    score("dense", passage.dense_score, 3)].filter(Boolean).join(" · ");
  return card;
}

// Where a passage sits, for grouping: its work (title) and its first section label.
function placeOf(passage) {
  const section = (passage.section_path || [])[0];
  return section ? `${passage.title} › ${section}` : passage.title;
}

// Long evidence lists are grouped by work and section, each group collapsible; short ones are a plain list.
function showSources(turn, sources) {
  turn.passages = sources.passages || [];
  const list = turn.part(".passages");
  list.textContent = "";
  const groups = new Map();
  for (const passage of turn.passages) {
    if (!groups.has(placeOf(passage))) groups.set(placeOf(passage), []);
    groups.get(placeOf(passage)).push(passage);
  }
  const grouped = turn.passages.length > GROUP_ABOVE && groups.size > 1;
  for (const [place, passages] of grouped ? groups : [["", turn.passages]]) {
    const cards = passages.map((passage) => passageCard(turn, passage, sources.reranked));
    if (!grouped) { list.append(...cards); continue; }
    const item = document.createElement("li");
    item.className = "source-group";
    const group = document.createElement("details");
    group.open = true;
    const summary = document.createElement("summary");
    const name = document.createElement("bdi");
    name.textContent = place;
    summary.append(name, ` (${passages.length})`);
    const inner = document.createElement("ol");
    inner.className = "group-passages";
    inner.append(...cards);
    group.append(summary, inner);
    item.appendChild(group);
    list.appendChild(item);
  }
  turn.part(".evidence-heading").textContent = turn.passages.length ? "Evidence" : "No passages matched.";
  showSearches(turn, sources.searches || []);
  if (sources.followup_retrieval) {
    const { query, added } = sources.followup_retrieval;
    turn.part(".followup").textContent = `The evidence was weak, so Evidenz searched once more for “${query}” (${count(added, "passage")} added).`;
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
    query.textContent = search.query === null ? "(unreadable arguments)" : `“${search.query}”`;
    const filters = Object.entries(search.filters || {}).filter(([, value]) => value !== null && value !== undefined)
      .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : value}`);
    const found = search.error ? `refused: ${search.error}`
      : search.results.length ? `found ${search.results.map((n) => `[${n}]`).join(" ")}` : "found nothing";
    item.append(query, filters.length ? ` · ${filters.join(" · ")}` : "", ` → ${found}`);
    if (search.error) item.className = "search-refused";
    list.appendChild(item);
  }
  turn.part(".searches-heading").textContent = `Searches (${searches.length})`;
  panel.hidden = !searches.length;
  panel.open = searches.length > 1;
}

// Streamed text is shown as plain text: it is not yet checked, and may contain claims that will be removed.
function appendDelta(turn, text) {
  const answer = turn.part(".answer");
  if (!turn.streamed) {
    answer.textContent = "";
    answer.classList.add("streaming");
    answer.setAttribute("aria-busy", "true");
    turn.streamed = document.createTextNode("");
    answer.appendChild(turn.streamed);
    setStatus("Writing the answer… (checked against the passages when it is complete)");
  }
  turn.streamed.appendData(text);
}

function warningItem(text) {
  const item = document.createElement("li");
  item.dir = "auto";
  item.textContent = text;
  return item;
}

function showWarnings(turn, data) {
  const list = turn.part(".warnings");
  list.textContent = "";
  if (data.from_library === false) list.appendChild(warningItem("This reply does not come from the library: the writer searched nothing and it cites no source."));
  if (data.degraded || data.degraded_reason) list.appendChild(warningItem(data.degraded_reason || "The chosen model failed; this answer was written offline."));
  if (data.invalid_citations && data.invalid_citations.length) {
    list.appendChild(warningItem(`Removed citations of passages that were not given: ${data.invalid_citations.join(", ")}.`));
  }
  for (const claim of data.removed_claims || []) list.appendChild(warningItem(`Removed, no cited passage supports it: “${claim}”`));
  for (const claim of data.flagged_claims || []) {
    const item = warningItem(`An instruction found only in an uploaded document that no tier vouches for: “${claim}” `
      + "Evidenz does not vouch for it; check it before you act on it.");
    item.className = "flagged-claim";
    list.prepend(item);
  }
  list.hidden = !list.children.length;
}

// The complete, verified answer replaces whatever was streamed.
function showAnswer(turn, data) {
  turn.answered = true;
  turn.text = data.answer || "";
  showMeta(turn, data);
  if (data.passages) showSources(turn, data);
  if (data.second_look && data.second_look.length) {  // the passage that answers was found further down the ranking
    const found = data.second_look.map((n) => `[${n}]`).join(" ");
    turn.part(".followup").textContent = `The first passages held no answer, so Evidenz read further down the ranking: ${found} answers.`;
    turn.part(".followup").hidden = false;
  }
  turn.citations = data.citations || [];
  const answer = turn.part(".answer");
  answer.classList.remove("streaming");
  answer.removeAttribute("aria-busy");
  answer.classList.toggle("declined", Boolean(data.declined));
  const verdict = turn.part(".verdict");  // a decline may still quote what the sources say: name it for what it is
  verdict.textContent = data.declined ? "Not answered by the sources" : "";
  verdict.hidden = !data.declined;
  renderMarkdown(answer, data.answer || "", (n) => citationLink(turn, n));
  for (const card of turn.element.querySelectorAll(".passage")) {
    card.classList.toggle("cited", turn.citations.some((c) => String(c.n) === card.dataset.n));
  }
  turn.part(".generator").textContent = data.generator
    ? `answered by ${data.generator}${data.model ? ` (${data.model})` : ""}` : "";
  if (data.language) turn.part(".answer").lang = data.language;
  showWarnings(turn, data);
  showReviewed(turn.element, data.reviewed);  // reviewed answers to like questions, asked before
}

function finish(turn, done) {
  if (done.timings_ms && typeof done.timings_ms.total === "number") {
    turn.part(".timing").textContent = `${Math.round(done.timings_ms.total).toLocaleString()} ms`;
  }
  if (!done.id) return;
  turn.element.appendChild(feedbackRow(done.id, done.given));
  const controls = reviewControls(done.id, turn.part(".review-note"), turn.text, done.review);  // null unless a reviewer
  if (controls) turn.element.appendChild(controls);
}

function showTurnError(turn, message) {
  const note = turn.part(".turn-error");
  note.textContent = message;
  note.hidden = false;
  turn.part(".answer").classList.remove("streaming");
  turn.part(".answer").removeAttribute("aria-busy");
  setStatus(message, true);
}

function setRunning(controller) {
  running = controller;
  sendButton.disabled = Boolean(controller);
  stopButton.disabled = !controller;
  stopButton.hidden = !controller;
}

async function askQuestion(question) {
  const turn = newTurn(question);
  turn.element.scrollIntoView({ behavior: "smooth", block: "start" });
  const controller = new AbortController();
  setRunning(controller);
  setStatus("Searching the library…");
  let failed = false;
  const handlers = {
    meta: (meta) => showMeta(turn, meta),
    sources: (sources) => { showSources(turn, sources); setStatus("Writing the answer…"); },
    delta: (delta) => appendDelta(turn, delta.text || ""),
    answer: (data) => { showAnswer(turn, data); setStatus(data.declined ? "The sources do not answer this." : "Answer ready."); },
    done: (done) => { finish(turn, done); refreshHistory(); },
    error: (error) => { failed = true; showTurnError(turn, error.error || "The answer failed; try again."); },
  };
  try {
    const filters = scopeFilters();  // a work or section chosen in the catalog
    await ask({ question, session_id: sessionId, ...querySettings(), ...(filters ? { filters } : {}) },
              (name, data) => handlers[name] && handlers[name](data), controller.signal);
    if (!turn.answered && !failed) showTurnError(turn, "The answer stopped before it was complete; ask again.");
  } catch (err) {
    if (err.name === "AbortError") {
      turn.part(".answer").classList.add("stopped");
      showTurnError(turn, "Stopped. The text so far was not checked against the passages.");
      setStatus("Stopped.");
    } else {
      showTurnError(turn, "The server cannot be reached; check that Evidenz is running.");
    }
    failed = true;
  } finally {
    setRunning(null);
    if (failed && !input.value) input.value = question;  // to edit and send again
    input.focus();
  }
}

// An answer from the history, shown alone with its review; a question asked next continues its conversation.
function openEntry(entry) {
  if (running) running.abort();
  conversation.textContent = "";
  if (entry.session_id) sessionId = entry.session_id;
  const turn = newTurn(entry.question);
  showAnswer(turn, { ...entry, rewritten: entry.standalone_question && entry.standalone_question !== entry.question });
  const given = (entry.feedback || []).filter((f) => f.mine).pop() || null;  // the reader's own, latest
  finish(turn, { id: entry.id, timings_ms: entry.timings_ms || entry.timings, review: entry, given });
  const note = turn.part(".from-history");
  note.textContent = `From the history, ${new Date(entry.created_at * 1000).toLocaleString()}`;
  note.hidden = false;
  showReview(turn.part(".review-note"), entry);
  setStatus("");
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const question = input.value.trim();
  if (!question) {
    setStatus("Write a question first.", true);
    return;
  }
  if (running) return;
  input.value = "";
  askQuestion(question);
});

input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  } else if (event.key === "Escape" && running) {
    running.abort();
  }
});

stopButton.addEventListener("click", () => running && running.abort());
newButton.addEventListener("click", () => {
  if (running) running.abort();
  conversation.textContent = "";
  sessionId = newSessionId();
  for (const button of document.querySelectorAll(".history-entry.current")) button.classList.remove("current");
  setStatus("New conversation: the next question starts afresh.");
  input.focus();
});
document.addEventListener("library-changed", () => checkHealth());

setRunning(null);
checkHealth();
startAccount().then(() => {  // on a shared server, once signed in
  checkHealth();  // what the reader may see: the library's words follow the works they read
  startHistory(openEntry);
  input.focus();
});
