// A reader's view and a reviewer's. A reader sees answers and their passages; each passage's scores (BM25, dense,
// fused, cross-encoder) wait behind its "Details". The reviewer's view adds what reviewing and keeping the library
// need: every passage's details open, the review controls under answers, the review queue's filter, and the book
// manager's Remove and Re-index buttons (html.reviewer-view in style.css). Its switch in Settings is shown only to
// readers whose role reviews or manages the library (account.js); it starts on for such a role on a shared server,
// off on a personal one (its owner may do everything, but mostly reads), and is kept in localStorage.
// Does not: grant anything; the server checks every permission whatever the page shows.
import { isShared, may } from "./account.js";

const KEY = "evidenz.reviewer-view";
const root = document.documentElement;
const box = document.getElementById("setting-reviewer-view");
const statusFilter = document.getElementById("history-filter");

// Whether the page shows the reviewer's view.
export function reviewerView() {
  return root.classList.contains("reviewer-view");
}

function show(on) {
  root.classList.toggle("reviewer-view", on);
  box.checked = on;
  for (const details of document.querySelectorAll(".passage-details")) details.open = on;
  if (!on && statusFilter.value) {  // the queue's filter is hidden now: list every answer again
    statusFilter.value = "";
    statusFilter.dispatchEvent(new Event("change"));
  }
}

function remembered() {
  try {
    return localStorage.getItem(KEY);
  } catch (err) {
    return null;
  }
}

// Choose the view for the reader /api/me named (account.js has it); call once the page is shown.
export function startView() {
  const uses = ["review", "remove", "reindex"].some((permission) => may(permission));
  box.closest("label").hidden = !uses;
  const kept = remembered();
  show(uses && (kept === null ? isShared() : kept === "1"));
}

box.addEventListener("change", () => {
  try {
    localStorage.setItem(KEY, box.checked ? "1" : "0");
  } catch (err) {
    // not kept: the view holds until the page is reloaded
  }
  show(box.checked);
});
