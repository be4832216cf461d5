// The chat page: ask /api/query, show the answer with its citations and the evidence passages.
// Every string from the server is inserted as text (textContent or text nodes), never as HTML;
// markup comes only from the page's own <template> elements.
"use strict";

const form = document.getElementById("ask");
const input = document.getElementById("question");
const sendButton = document.getElementById("send");
const statusLine = document.getElementById("status");
const healthLine = document.getElementById("health");
const conversation = document.getElementById("conversation");
const turnTemplate = document.getElementById("turn-template");
const passageTemplate = document.getElementById("passage-template");

const TYPE_LABELS = {
  factual_lookup: "Factual lookup",
  explanation: "Explanation",
  reasoning: "Reasoning",
  calculation: "Calculation",
};
let turnCount = 0;

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
      healthLine.textContent = `Ready · ${data.library.chunks.toLocaleString()} passages · answers by ${data.generator} · ${rerank}`;
      healthLine.className = "health ok";
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

document.addEventListener("library-changed", () => checkHealth());

// The answer as text nodes, with each [n] made a link to passage n of this turn.
function renderAnswer(container, text, turnId, passageCount) {
  container.textContent = "";
  const parts = text.split(/\[(\d+)\]/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      const text = i + 1 < parts.length ? part.trimEnd() : part; // no gap before a superscript marker
      if (text) container.appendChild(document.createTextNode(text));
      return;
    }
    const n = Number(part);
    const link = document.createElement("a");
    link.className = "cite";
    link.textContent = `[${n}]`;
    if (n >= 1 && n <= passageCount) link.href = `#${turnId}-p${n}`;
    container.appendChild(link);
  });
}

function renderPassage(passage, turnId, reranked) {
  const item = passageTemplate.content.firstElementChild.cloneNode(true);
  item.id = `${turnId}-p${passage.n}`;
  item.querySelector(".passage-n").textContent = `[${passage.n}]`;
  item.querySelector(".passage-title").textContent = passage.title;
  item.querySelector(".passage-ref").textContent = passage.ref ? `· ${passage.ref}` : "";
  item.querySelector(".passage-text").textContent = passage.chunk;
  const finalScore = reranked ? `cross-encoder ${passage.ce_score.toFixed(3)}` : `hybrid ${passage.ce_score.toFixed(3)}`;
  item.querySelector(".scores").textContent =
    `${finalScore} · BM25 ${passage.bm25_score.toFixed(2)} · dense ${passage.dense_score.toFixed(3)}`;
  return item;
}

function renderTurn(question, data) {
  turnCount += 1;
  const turnId = `turn-${turnCount}`;
  const turn = turnTemplate.content.firstElementChild.cloneNode(true);
  turn.id = turnId;
  turn.querySelector(".question").textContent = question;
  turn.querySelector(".query-type").textContent = TYPE_LABELS[data.query_type] || data.query_type;
  turn.querySelector(".generator").textContent = `answered by ${data.generator}`;
  turn.querySelector(".timing").textContent = `${Math.round(data.timings_ms.total)} ms`;
  const answer = turn.querySelector(".answer");
  renderAnswer(answer, data.answer, turnId, data.passages.length);
  for (const link of answer.querySelectorAll("a.cite")) {  // what was checked, on hover
    const citation = data.citations.find((c) => `[${c.n}]` === link.textContent);
    if (!citation) { link.classList.add("unverified"); link.title = "not checked against its passage"; continue; }
    const checks = [citation.ref || citation.title];
    if (citation.support !== null && citation.support !== undefined) checks.push(`support ${citation.support.toFixed(2)}`);
    if (citation.quote_verified) checks.push("quote found verbatim");
    link.title = checks.join(" · ");
  }
  answer.classList.toggle("declined", data.declined);
  const warning = turn.querySelector(".warning");
  const notes = [];
  if (data.degraded) notes.push(data.degraded_reason || "The configured model failed; this answer was written offline.");
  if (data.invalid_citations.length) notes.push(`Removed citations to passages that were not given: ${data.invalid_citations.join(", ")}.`);
  if (data.removed_claims && data.removed_claims.length) {
    notes.push(`Removed ${data.removed_claims.length} sentence(s) that no cited passage supports: ${data.removed_claims.join(" ")}`);
  }
  if (notes.length) {
    warning.textContent = notes.join(" ");
    warning.hidden = false;
  }
  const list = turn.querySelector(".passages");
  data.passages.forEach((p) => list.appendChild(renderPassage(p, turnId, data.reranked)));
  if (!data.passages.length) turn.querySelector(".evidence-heading").textContent = "No passages matched.";
  conversation.appendChild(turn);
  turn.scrollIntoView({ behavior: "smooth", block: "start" });
}

async function ask(question) {
  sendButton.disabled = true;
  setStatus("Searching the library and writing the answer…");
  try {
    const response = await fetch("/api/query", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question }),
    });
    let data;
    try {
      data = await response.json();
    } catch (err) {
      data = { error: `The server answered ${response.status} without a readable body.` };
    }
    if (!response.ok) {
      setStatus(data.error || `The server answered ${response.status}.`, true);
      return;
    }
    setStatus("");
    input.value = "";
    renderTurn(question, data);
  } catch (err) {
    setStatus("The server cannot be reached; check that Evidenz is running.", true);
  } finally {
    sendButton.disabled = false;
    input.focus();
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const question = input.value.trim();
  if (!question) {
    setStatus("Write a question first.", true);
    return;
  }
  ask(question);
});

input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

checkHealth();
input.focus();
