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

const QUERY_TYPES = ["factual_lookup", "explanation", "reasoning", "calculation"];
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
      const size = data.library.chunks === undefined ? null : count(data.library.chunks, "passages");
      const rerank = data.reranker ? t("health.reranked_by", { reranker: data.reranker }) : t("health.no_rerank");
      healthLine.textContent = [t("health.ready"), size, t("health.answers_by", { generator: data.generator }), rerank]
        .filter(Boolean).join(" · ");
      healthLine.className = "health ok";
      applyHealth(data);
      applyWording(data.religious_law);
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
    setStatus(t("status.writing_unchecked"));
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
  renderMarkdown(answer, data.answer || "", (n) => citationLink(turn, n));
  for (const card of turn.element.querySelectorAll(".passage")) {
    card.classList.toggle("cited", turn.citations.some((c) => String(c.n) === card.dataset.n));
  }
  turn.part(".generator").textContent = !data.generator ? ""
    : t(data.model ? "answer.by_model" : "answer.by", { generator: data.generator, model: data.model });
  if (data.language) turn.part(".answer").lang = data.language;
  showWarnings(turn, data);
  showReviewed(turn.element, data.reviewed);  // reviewed answers to like questions, asked before
}

function finish(turn, done) {
  if (done.timings_ms && typeof done.timings_ms.total === "number") {
    turn.part(".timing").textContent = t("turn.timing", { ms: Math.round(done.timings_ms.total) });
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
  setStatus(t("status.searching"));
  let failed = false;
  const handlers = {
    meta: (meta) => showMeta(turn, meta),
    sources: (sources) => { showSources(turn, sources); setStatus(t("status.writing")); },
    delta: (delta) => appendDelta(turn, delta.text || ""),
    answer: (data) => { showAnswer(turn, data); setStatus(t(data.declined ? "status.declined" : "status.ready")); },
    done: (done) => { finish(turn, done); refreshHistory(); },
    error: (error) => { failed = true; showTurnError(turn, error.error || t("status.failed")); },
  };
  try {
    const filters = scopeFilters();  // a work or section chosen in the catalog
    await ask({ question, session_id: sessionId, ...querySettings(), ...(filters ? { filters } : {}) },
              (name, data) => handlers[name] && handlers[name](data), controller.signal);
    if (!turn.answered && !failed) showTurnError(turn, t("status.incomplete"));
  } catch (err) {
    if (err.name === "AbortError") {
      turn.part(".answer").classList.add("stopped");
      showTurnError(turn, t("status.stopped_unchecked"));
      setStatus(t("status.stopped"));
    } else {
      showTurnError(turn, t("status.unreachable"));
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
  note.textContent = t("turn.from_history_at", { date: formatDate(entry.created_at) });
  note.hidden = false;
  showReview(turn.part(".review-note"), entry);
  setStatus("");
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const question = input.value.trim();
  if (!question) {
    setStatus(t("status.no_question"), true);
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
  setStatus(t("status.new_conversation"));
  input.focus();
});
document.addEventListener("library-changed", () => checkHealth());

setRunning(null);
checkHealth();
startAccount().then(() => {  // on a shared server, once signed in
  checkHealth();  // what the reader may see: the library's words follow the works they read
  startView();  // a reader's view or a reviewer's, as the reader's role uses them
  startHistory(openEntry);
  input.focus();
});
