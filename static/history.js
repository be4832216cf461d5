// The history sidebar: past answers from GET /api/history, searched as you type (debounced), each opened with
// GET /api/history/<id>; and the feedback buttons under every answer (POST /api/history/<id>/feedback).
// Server strings are set as text. Does not: render an answer (app.js is given the entry to show).
import { readJson, request, sendJson } from "./api.js";

const list = document.getElementById("history-list");
const search = document.getElementById("history-search");
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
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
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
  const status = document.createElement("span");
  status.className = `review review-${reviewStatus(entry)}`;
  status.textContent = reviewStatus(entry);
  details.append(`${when(entry.created_at ?? entry.at ?? entry.time)} · ${entry.generator || "?"} · `, status);
  open.append(question, details);
  open.addEventListener("click", () => openEntry(entry.id));
  item.appendChild(open);
  return item;
}

// Fetch the list for the search box's text and show it.
export async function refreshHistory() {
  const asked = ++latestRequest;  // answers of older searches that arrive late are dropped
  const query = encodeURIComponent(search.value.trim());
  let response;
  try {
    response = await request(`/api/history?limit=${PAGE}&q=${query}`);
  } catch (err) {
    statusLine.textContent = "History cannot be reached.";
    return;
  }
  const data = await readJson(response);
  if (asked !== latestRequest) return;
  if (!response.ok) {
    statusLine.textContent = response.status === 404 ? "History is not available on this server." : data.error;
    return;
  }
  list.textContent = "";
  for (const entry of data.items || []) list.appendChild(entryItem(entry));
  const shown = (data.items || []).length;
  summary = statusLine.textContent = !shown ? (query ? "Nothing matches." : "No questions yet.")
    : data.total > shown ? `${shown} of ${data.total.toLocaleString()} shown` : `${shown} answer${shown === 1 ? "" : "s"}`;
}

async function openEntry(id) {
  statusLine.textContent = "Opening…";
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
export function feedbackRow(id) {
  const row = document.createElement("div");
  row.className = "feedback";
  const label = document.createElement("span");
  label.textContent = "Was this answer right?";
  const comment = document.createElement("input");
  comment.type = "text";
  comment.className = "feedback-comment";
  comment.dir = "auto";
  comment.maxLength = 2000;
  comment.placeholder = "Comment (optional)";
  comment.setAttribute("aria-label", "Comment on this answer (optional)");
  const confirmation = document.createElement("span");
  confirmation.className = "feedback-status";
  confirmation.setAttribute("role", "status");
  confirmation.setAttribute("aria-live", "polite");
  const buttons = [["up", "Yes, a good answer"], ["down", "No, a wrong or poor answer"]].map(([rating, text]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `rate rate-${rating}`;
    button.appendChild(thumb(rating));
    button.title = text;
    button.setAttribute("aria-label", text);
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", async () => {
      confirmation.textContent = "Sending…";
      confirmation.classList.remove("error");
      const body = { rating };
      if (comment.value.trim()) body.comment = comment.value.trim();
      let response;
      try {
        response = await sendJson(`/api/history/${encodeURIComponent(id)}/feedback`, "POST", body);
      } catch (err) {
        confirmation.textContent = "The server cannot be reached; try again.";
        confirmation.classList.add("error");
        return;
      }
      const data = await readJson(response);
      confirmation.classList.toggle("error", !response.ok);
      if (!response.ok) {
        confirmation.textContent = data.error;
        return;
      }
      for (const other of row.querySelectorAll(".rate")) other.setAttribute("aria-pressed", String(other === button));
      confirmation.textContent = `Thank you: feedback saved (${rating === "up" ? "good" : "poor"} answer${body.comment ? ", with your comment" : ""}).`;
    });
    return button;
  });
  row.append(label, ...buttons, comment, confirmation);
  return row;
}

// Start the sidebar; open(entry) shows an entry the user picked.
export function startHistory(open) {
  onOpen = open;
  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(refreshHistory, SEARCH_DELAY_MS);
  });
  refreshHistory();
}
