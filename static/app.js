// The chat page: a conversation of questions, each answered as the server streams it (query type, passages,
// text as it is written), then replaced by the verified answer as markdown with citation links and warnings.
// Every string from the server is inserted as text or through the sanitizer (markdown.js), never as HTML;
// markup comes only from the page's own <template> elements.
import { startAccount } from "./account.js";
import { scopeFilters } from "./catalog.js";
import { citationLink } from "./citations.js";
import { showSources } from "./evidence.js";
import { feedbackRow, refreshHistory, startHistory } from "./history.js";
import { formatDate, t } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";
import { reviewControls, showReview } from "./review.js";
import { applyHealth, querySettings } from "./settings.js";
import { showReviewed } from "./similar.js";
import { ask } from "./stream.js";
import { startView } from "./view.js";
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
const footerLibrary = document.getElementById("footer-library");

const QUERY_TYPES = ["factual_lookup", "explanation", "reasoning", "calculation"];
let sessionId = newSessionId();
let turnCount = 0;
let running = null;  // the AbortController of the question being answered
const turns = [];  // the turns on screen, each with the log of what it was shown, to word it again in a new language
let statusWords = null;  // [key, vars, isError] of the status line, when its words are the page's

// crypto.randomUUID exists only on https and localhost; elsewhere 16 random bytes in hex do the same job.
function newSessionId() {
  if (window.crypto.randomUUID) return window.crypto.randomUUID();
  return Array.from(window.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function setStatus(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
  statusWords = null;
}

// The status line in the page's words (key and vars as t's), worded again when the language changes.
function sayStatus(key, vars = {}, isError = false) {
  setStatus(t(key, vars), isError);
  statusWords = [key, vars, isError];
}

async function checkHealth() {
  try {
    const response = await fetch("/api/health");
    const data = await response.json();
    if (data.status === "ok" && data.signed_in === false) {  // a shared server says no more until one signs in
      healthLine.textContent = t("health.ready");
      healthLine.className = "health ok";
      return;
    }
    if (data.status === "ok") {
      const size = data.library.chunks === undefined ? null : count(data.library.chunks, "passages");
      const rerank = data.reranker ? t("health.reranked_by", { reranker: data.reranker }) : t("health.no_rerank");
      healthLine.textContent = [t("health.ready"), size, t("health.answers_by", { generator: data.generator }), rerank]
        .filter(Boolean).join(" · ");
      healthLine.className = "health ok";
      applyHealth(data);
      applyWording(data.religious_law);
      footerLibrary.hidden = !data.built_in_library;  // credit Wikipedia only where its leads are in the library
      return;
    }
    healthLine.textContent = data.status === "error" ? t("health.not_ready", { error: data.error }) : t("health.loading");
    healthLine.className = data.status === "error" ? "health error" : "health";
    if (data.status === "loading") setTimeout(checkHealth, 2000);
  } catch (err) {
    healthLine.textContent = t("health.unreachable");
    healthLine.className = "health error";
    setTimeout(checkHealth, 5000);
  }
}

// A turn's element and state, not yet on the page; id: the element's (a new one when not given).
function buildTurn(question, id = null) {
  const element = turnTemplate.content.firstElementChild.cloneNode(true);
  element.id = id || `turn-${++turnCount}`;
  element.querySelector(".question").textContent = question;
  return { element, question, passages: [], citations: [], streamed: null, answered: false, log: [],
           part: (selector) => element.querySelector(selector) };
}

function newTurn(question) {
  const turn = buildTurn(question);
  conversation.appendChild(turn.element);
  turns.push(turn);
  return turn;
}

// What a turn was shown, by the name it is logged under: replayed in order, it shows the turn again (live: it is
// shown for the first time, with its feedback row and review controls; replayed, those are moved over).
const SHOWN = {
  meta: (turn, meta) => showMeta(turn, meta),
  sources: (turn, sources) => showSources(turn, sources),
  delta: (turn, delta) => appendDelta(turn, delta.text || ""),
  answer: (turn, data) => showAnswer(turn, data),
  done: (turn, done, live) => finish(turn, done, live),
  failed: (turn, failure) => showTurnError(turn, failure.key ? t(failure.key) : failure.text, failure.stopped),
  entry: (turn, entry, live) => showEntry(turn, entry, live),
};

function shown(turn, name, data) {
  turn.log.push([name, data]);
  SHOWN[name](turn, data, true);
}

// Word every finished turn again in the page's new language, each from its log, in place: the answers, their
// evidence and what the reader gave (the feedback row and review controls, moved over, word themselves) stay.
function rewordTurns() {
  turns.forEach((turn, i) => {
    if (!turn.answered && !turn.log.some(([name]) => name === "failed")) return;  // still being answered
    const fresh = buildTurn(turn.question, turn.element.id);
    fresh.log = turn.log;
    for (const [name, data] of turn.log) SHOWN[name](fresh, data, false);
    fresh.element.append(...turn.element.querySelectorAll(":scope > .feedback, :scope > .review-controls"));
    turn.element.replaceWith(fresh.element);
    turns[i] = fresh;
  });
}

function showMeta(turn, meta) {
  const type = meta.query_type;
  turn.part(".query-type").textContent = QUERY_TYPES.includes(type) ? t(`type.${type}`) : type || "";
  if (meta.rewritten && meta.standalone_question) {
    turn.part(".standalone").textContent = meta.standalone_question;
    turn.part(".rewritten").hidden = false;
  }
  if (meta.session_id) sessionId = meta.session_id;
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
  if (data.from_library === false) list.appendChild(warningItem(t("warning.not_from_library")));
  if (data.degraded || data.degraded_reason) list.appendChild(warningItem(data.degraded_reason || t("warning.degraded")));
  if (data.invalid_citations && data.invalid_citations.length) {
    list.appendChild(warningItem(t("warning.invalid_citations", { list: data.invalid_citations.join(", ") })));
  }
  for (const claim of data.removed_claims || []) list.appendChild(warningItem(t("warning.removed_claim", { claim })));
  for (const claim of data.flagged_claims || []) {
    const item = warningItem(t("warning.flagged_claim", { claim }));
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
    turn.part(".followup").textContent = t("answer.second_look", { found });
    turn.part(".followup").hidden = false;
  }
  turn.citations = data.citations || [];
  const answer = turn.part(".answer");
  answer.classList.remove("streaming");
  answer.removeAttribute("aria-busy");
  answer.classList.toggle("declined", Boolean(data.declined));
  const verdict = turn.part(".verdict");  // a decline may still quote what the sources say: name it for what it is
  verdict.textContent = data.declined ? t("answer.declined") : "";
  verdict.hidden = !data.declined;
  const seen = new Map();  // how many [n] came before: the k-th [n] rests on its own claim's sentence
  renderMarkdown(answer, data.answer || "", (n) => {
    const k = seen.get(n) || 0;
    seen.set(n, k + 1);
    return citationLink(turn, n, k);
  });
  for (const card of turn.element.querySelectorAll(".passage")) {
    card.classList.toggle("cited", turn.citations.some((c) => String(c.n) === card.dataset.n));
  }
  turn.part(".generator").textContent = !data.generator ? ""
    : t(data.model ? "answer.by_model" : "answer.by", { generator: data.generator, model: data.model });
  if (data.language) turn.part(".answer").lang = data.language;
  showWarnings(turn, data);
  showReviewed(turn.element, data.reviewed);  // reviewed answers to like questions, asked before
}

// The answer's time, and its feedback row and review controls (rows: not when the turn is worded again).
function finish(turn, done, rows) {
  if (done.timings_ms && typeof done.timings_ms.total === "number") {
    turn.part(".timing").textContent = t("turn.timing", { ms: Math.round(done.timings_ms.total) });
  }
  if (!done.id || !rows) return;
  turn.element.appendChild(feedbackRow(done.id, done.given));
  const controls = reviewControls(done.id, turn.part(".review-note"), turn.text, done.review);  // null unless a reviewer
  if (controls) turn.element.appendChild(controls);
}

function showTurnError(turn, message, stopped = false) {
  const note = turn.part(".turn-error");
  note.textContent = message;
  note.hidden = false;
  turn.part(".answer").classList.remove("streaming");
  turn.part(".answer").removeAttribute("aria-busy");
  turn.part(".answer").classList.toggle("stopped", stopped);
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
  sayStatus("status.searching");
  let failed = false;
  const fail = (failure) => {  // {key} of the page's words or {text} of the server's; the status line says it too
    failed = true;
    shown(turn, "failed", failure);
    if (failure.key) sayStatus(failure.key, {}, true);
    else setStatus(failure.text, true);
  };
  const handlers = {
    meta: (meta) => shown(turn, "meta", meta),
    sources: (sources) => { shown(turn, "sources", sources); sayStatus("status.writing"); },
    delta: (delta) => {
      if (!turn.streamed) sayStatus("status.writing_unchecked");
      shown(turn, "delta", delta);
    },
    answer: (data) => { shown(turn, "answer", data); sayStatus(data.declined ? "status.declined" : "status.ready"); },
    done: (done) => { shown(turn, "done", done); refreshHistory(); },
    error: (error) => fail(error.error ? { text: error.error } : { key: "status.failed" }),
  };
  try {
    const filters = scopeFilters();  // a work or section chosen in the catalog
    await ask({ question, session_id: sessionId, ...querySettings(), ...(filters ? { filters } : {}) },
              (name, data) => handlers[name] && handlers[name](data), controller.signal);
    if (!turn.answered && !failed) fail({ key: "status.incomplete" });
  } catch (err) {
    if (err.name === "AbortError") {
      fail({ key: "status.stopped_unchecked", stopped: true });
      sayStatus("status.stopped");
    } else {
      fail({ key: "status.unreachable" });
    }
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
  turns.length = 0;
  if (entry.session_id) sessionId = entry.session_id;
  shown(newTurn(entry.question), "entry", entry);
  setStatus("");
}

// A history entry in its turn; rows: its feedback row and review controls too (not when it is worded again).
function showEntry(turn, entry, rows) {
  showAnswer(turn, { ...entry, rewritten: entry.standalone_question && entry.standalone_question !== entry.question });
  const given = (entry.feedback || []).filter((f) => f.mine).pop() || null;  // the reader's own, latest
  finish(turn, { id: entry.id, timings_ms: entry.timings_ms || entry.timings, review: entry, given }, rows);
  const note = turn.part(".from-history");
  note.textContent = t("turn.from_history_at", { date: formatDate(entry.created_at) });
  note.hidden = false;
  showReview(turn.part(".review-note"), entry);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const question = input.value.trim();
  if (!question) {
    sayStatus("status.no_question", {}, true);
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
  turns.length = 0;
  sessionId = newSessionId();
  for (const button of document.querySelectorAll(".history-entry.current")) button.classList.remove("current");
  sayStatus("status.new_conversation");
  input.focus();
});
document.addEventListener("library-changed", () => checkHealth());
document.addEventListener("language-changed", () => {  // the page's own words again; the conversation stays
  checkHealth();
  rewordTurns();
  if (statusWords) sayStatus(...statusWords);
});

setRunning(null);
checkHealth();
startAccount().then(() => {  // on a shared server, once signed in
  checkHealth();  // what the reader may see: the library's words follow the works they read
  startView();  // a reader's view or a reviewer's, as the reader's role uses them
  startHistory(openEntry);
  input.focus();
});
