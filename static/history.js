// The history sidebar: past answers from GET /api/history, searched as you type (debounced), each opened with
// GET /api/history/<id>; and the feedback buttons under every answer (POST /api/history/<id>/feedback).
// Server strings are set as text. Does not: render an answer (app.js is given the entry to show).
import { readJson, request, sendJson } from "./api.js";
import { formatDate, t } from "./i18n.js";
import { count } from "./wording.js";

const list = document.getElementById("history-list");
const search = document.getElementById("history-search");
const statusFilter = document.getElementById("history-filter");  // the review queue: reviewers pick a status
const statusLine = document.getElementById("history-status");
const SEARCH_DELAY_MS = 250;
const PAGE = 50;
let onOpen = () => {};
let searchTimer = null;
let latestRequest = 0;
let summary = "";  // what the list shows, said again after an entry is opened

// A date for people: unix seconds, milliseconds or ISO text.
function when(value) {
  if (value === undefined || value === null) return "";
  const date = typeof value === "number" ? new Date(value < 1e12 ? value * 1000 : value) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : formatDate(date);
}

function reviewStatus(entry) {
  return entry.review_status || (entry.review && entry.review.status) || entry.status || "unreviewed";
}

function entryItem(entry) {
  const item = document.createElement("li");
  const open = document.createElement("button");
  open.type = "button";
  open.className = "history-entry";
  open.dataset.id = entry.id;
  const question = document.createElement("span");
  question.className = "history-question";
  question.dir = "auto";
  question.textContent = entry.question;
  const details = document.createElement("span");
  details.className = "history-details";
  const review = document.createElement("span");  // with its separator, so that the reader's view hides both
  review.className = `history-review history-review-${reviewStatus(entry)}`;
  const status = document.createElement("span");
  status.className = `review review-${reviewStatus(entry)}`;
  status.textContent = t(`review.${reviewStatus(entry)}`);
  review.append(" · ", status);
  details.append(`${when(entry.created_at ?? entry.at ?? entry.time)} · ${entry.generator || "?"}`, review);
  open.append(question, details);
  open.addEventListener("click", () => openEntry(entry.id));
  item.appendChild(open);
  return item;
}

// Fetch the list for the search box's text and show it.
export async function refreshHistory() {
  const asked = ++latestRequest;  // answers of older searches that arrive late are dropped
  const query = encodeURIComponent(search.value.trim());
  const status = statusFilter.closest("label").hidden ? "" : statusFilter.value;
  let response;
  try {
    response = await request(`/api/history?limit=${PAGE}&q=${query}${status ? `&status=${status}` : ""}`);
  } catch (err) {
    statusLine.textContent = t("history.unreachable");
    return;
  }
  const data = await readJson(response);
  if (asked !== latestRequest) return;
  if (!response.ok) {
    statusLine.textContent = response.status === 404 ? t("history.unavailable") : data.error;
    return;
  }
  list.textContent = "";
  for (const entry of data.items || []) list.appendChild(entryItem(entry));
  const shown = (data.items || []).length;
  summary = statusLine.textContent = !shown ? t(query || status ? "history.nothing_matches" : "history.empty")
    : data.total > shown ? t("history.shown", { shown, total: data.total }) : count(shown, "answers");
}

async function openEntry(id) {
  statusLine.textContent = t("history.opening");
  const response = await request(`/api/history/${encodeURIComponent(id)}`);
  const data = await readJson(response);
  if (!response.ok) {
    statusLine.textContent = data.error;
    return;
  }
  statusLine.textContent = summary;
  for (const button of list.querySelectorAll(".history-entry")) button.classList.toggle("current", button.dataset.id === id);
  onOpen(data);
}

// A thumb up or down drawn as SVG (emoji fonts are missing on many Linux machines). The outline is Feather's
// thumbs-up icon, Copyright (c) 2013-2017 Cole Bemis, MIT License; the down thumb is the same, turned over.
const THUMB = "M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3";

function thumb(rating) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("thumb");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", THUMB);
  if (rating === "down") path.setAttribute("transform", "matrix(1 0 0 -1 0 24)");
  svg.appendChild(path);
  return svg;
}

// The feedback row of an answer with history id: thumb up or down with an optional comment, then a confirmation.
// The first thumb adds the reader's entry; the other thumb, or a comment written after it (sent with Enter, on
// leaving the box, or with "Send comment"), changes that same entry. given: the reader's entry already saved
// ({id, rating, comment}), shown pressed when an answer is opened again from the history.
export function feedbackRow(id, given = null) {
  const row = document.createElement("div");
  row.className = "feedback";
  const label = document.createElement("span");
  label.textContent = t("feedback.question");
  const comment = document.createElement("input");
  comment.type = "text";
  comment.className = "feedback-comment";
  comment.dir = "auto";
  comment.maxLength = 2000;
  comment.placeholder = t("feedback.comment_placeholder");
  comment.setAttribute("aria-label", t("feedback.comment_label"));
  const send = document.createElement("button");
  send.type = "button";
  send.className = "secondary send-comment";
  send.textContent = t("feedback.send");
  send.hidden = true;
  const confirmation = document.createElement("span");
  confirmation.className = "feedback-status";
  confirmation.setAttribute("role", "status");
  confirmation.setAttribute("aria-live", "polite");
  const saved = { entry: given ? given.id : null, rating: given ? given.rating : null,
                  comment: given ? given.comment || "" : "" };
  comment.value = saved.comment;
  const say = (text, isError = false) => {
    confirmation.textContent = text;
    confirmation.classList.toggle("error", isError);
  };

  // One request at a time, in order: a thumb clicked while the comment box sends its change lands last.
  let sending = Promise.resolve();
  const rate = (rating) => { sending = sending.then(() => saveRating(rating)); return sending; };

  async function saveRating(rating) {
    if (rating === saved.rating && comment.value.trim() === saved.comment && saved.entry !== null) {
      say(t("feedback.already"));
      return;
    }
    const body = { rating };
    if (comment.value.trim()) body.comment = comment.value.trim();
    if (saved.entry !== null) body.entry = saved.entry;
    say(t("feedback.sending"));
    let response;
    try {
      response = await sendJson(`/api/history/${encodeURIComponent(id)}/feedback`, "POST", body);
    } catch (err) {
      say(t("common.unreachable"), true);
      return;
    }
    const data = await readJson(response);
    if (response.status === 404 && saved.entry !== null) {  // the entry is gone: the rating is given anew
      saved.entry = null;
      return saveRating(rating);
    }
    if (!response.ok) { say(data.error, true); return; }
    Object.assign(saved, { entry: data.entry, rating, comment: body.comment || "" });
    pressed();
    say(t(`feedback.saved.${rating}${body.comment ? "_comment" : ""}`));
  }

  const buttons = [["up", t("feedback.rate.up")], ["down", t("feedback.rate.down")]].map(([rating, text]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `rate rate-${rating}`;
    button.dataset.rating = rating;
    button.appendChild(thumb(rating));
    button.title = text;
    button.setAttribute("aria-label", text);
    button.addEventListener("click", () => rate(rating));
    return button;
  });
  function pressed() {
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.rating === saved.rating));
    send.hidden = comment.value.trim() === saved.comment;
  }
  // A comment is sent with the thumb already given. Before any thumb it waits to go with the first one; sent
  // explicitly (Enter, "Send comment") the page says so, and never drops it unsaid.
  function sendComment(explicit) {
    if (comment.value.trim() === saved.comment) return;
    if (saved.rating !== null) rate(saved.rating);
    else if (explicit) say(t("feedback.choose_thumb"), true);
  }
  comment.addEventListener("input", () => { send.hidden = comment.value.trim() === saved.comment; });
  comment.addEventListener("change", () => sendComment(false));
  comment.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) { event.preventDefault(); sendComment(true); }
  });
  send.addEventListener("click", () => sendComment(true));
  document.addEventListener("language-changed", () => {  // its words in the page's new language; its state stays
    label.textContent = t("feedback.question");
    comment.placeholder = t("feedback.comment_placeholder");
    comment.setAttribute("aria-label", t("feedback.comment_label"));
    send.textContent = t("feedback.send");
    for (const button of buttons) {
      button.title = t(`feedback.rate.${button.dataset.rating}`);
      button.setAttribute("aria-label", button.title);
    }
  });
  pressed();
  if (given) say(t(`feedback.given.${given.rating === "up" ? "up" : "down"}${given.comment ? "_comment" : ""}`));
  row.append(label, ...buttons, comment, send, confirmation);
  return row;
}

// Start the sidebar; open(entry) shows an entry the user picked.
export function startHistory(open) {
  onOpen = open;
  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(refreshHistory, SEARCH_DELAY_MS);
  });
  statusFilter.addEventListener("change", refreshHistory);
  document.addEventListener("language-changed", refreshHistory);  // its dates and states in the new words
  refreshHistory();
}
