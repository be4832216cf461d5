// Reviews of answers: the note an answer's review leaves (approved, rejected, or corrected with the text it should
// read), and a reviewer's controls under every answer (POST /api/history/<id>/review). The controls are shown only
// to readers whose role may review (posek, reviewer, admin); the server refuses everyone else anyway.
// Server strings are set as text.
import { may } from "./account.js";
import { readJson, sendJson } from "./api.js";
import { refreshHistory } from "./history.js";

const REVIEWS = { approved: "Approved by a reviewer.", rejected: "Rejected by a reviewer.",
                  corrected: "Corrected by a reviewer. The corrected answer:" };
const CHOICES = [["unreviewed", "Not reviewed"], ["approved", "Approved"], ["corrected", "Corrected"],
                 ["rejected", "Rejected"]];

// Show an answer's review in note (its .review-note element): {review_status, corrected_text}.
export function showReview(note, review) {
  note.textContent = REVIEWS[review.review_status] || "";
  note.className = "review-note";
  note.hidden = !REVIEWS[review.review_status];
  if (note.hidden) return;
  if (review.corrected_text) {
    const corrected = document.createElement("span");
    corrected.className = "corrected";
    corrected.dir = "auto";
    corrected.textContent = review.corrected_text;
    note.append(" ", corrected);
  }
  note.classList.add(`review-${review.review_status}`);
}

// A reviewer's form for the answer with history id: a status, the corrected text (for "Correct", the answer's own
// text to start from), and Save; what was saved is shown in note. review: the answer's present review, if any.
// Null for readers who may not review.
export function reviewControls(id, note, answerText = "", review = {}) {
  if (!may("review")) return null;
  const form = document.createElement("form");
  form.className = "review-controls";
  const status = document.createElement("select");
  status.className = "review-status";
  status.setAttribute("aria-label", "Review of this answer");
  for (const [value, label] of CHOICES) status.appendChild(new Option(label, value));
  const text = document.createElement("textarea");
  text.className = "review-text";
  text.dir = "auto";
  text.rows = 3;
  text.maxLength = 20000;
  text.value = review.corrected_text || answerText;
  text.setAttribute("aria-label", "The answer as it should read");
  status.value = CHOICES.some(([value]) => value === review.review_status) ? review.review_status : "unreviewed";
  text.hidden = status.value !== "corrected";
  const save = document.createElement("button");
  save.type = "submit";
  save.className = "secondary";
  save.textContent = "Save review";
  const confirmation = document.createElement("span");
  confirmation.className = "review-saved";
  confirmation.setAttribute("role", "status");
  confirmation.setAttribute("aria-live", "polite");
  status.addEventListener("change", () => { text.hidden = status.value !== "corrected"; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { status: status.value };
    if (status.value === "corrected") body.corrected_text = text.value;
    confirmation.textContent = "Saving…";
    let response;
    try {
      response = await sendJson(`/api/history/${encodeURIComponent(id)}/review`, "POST", body);
    } catch (err) {
      response = null;
    }
    const data = response ? await readJson(response) : { error: "The server cannot be reached; try again." };
    confirmation.classList.toggle("error", !response || !response.ok);
    if (!response || !response.ok) {
      confirmation.textContent = data.error;
      return;
    }
    showReview(note, data);
    confirmation.textContent = `Review saved: ${data.review_status}.`;
    refreshHistory();
  });
  const label = document.createElement("span");
  label.textContent = "Reviewer's verdict:";
  form.append(label, status, save, confirmation, text);
  return form;
}
