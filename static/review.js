// Reviews of answers: the note an answer's review leaves (approved, rejected, or corrected with the text it should
// read), and a reviewer's controls under every answer (POST /api/history/<id>/review). The controls are shown only
// to readers whose role may review (posek, reviewer, admin), in the reviewer's view (view.js); the server refuses
// everyone else anyway.
// Server strings are set as text.
import { may } from "./account.js";
import { readJson, sendJson } from "./api.js";
import { refreshHistory } from "./history.js";
import { t } from "./i18n.js";

const REVIEWED = ["approved", "rejected", "corrected"];  // each with its note, "review.note.<status>"
const CHOICES = ["unreviewed", "approved", "corrected", "rejected"];  // each with its label, "review.choice.<status>"

// Show an answer's review in note (its .review-note element): {review_status, corrected_text}.
export function showReview(note, review) {
  const reviewed = REVIEWED.includes(review.review_status);
  note.textContent = reviewed ? t(`review.note.${review.review_status}`) : "";
  note.className = "review-note";
  note.hidden = !reviewed;
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
  status.setAttribute("aria-label", t("review.label"));
  for (const value of CHOICES) status.appendChild(new Option(t(`review.choice.${value}`), value));
  const text = document.createElement("textarea");
  text.className = "review-text";
  text.dir = "auto";
  text.rows = 3;
  text.maxLength = 20000;
  text.value = review.corrected_text || answerText;
  text.setAttribute("aria-label", t("review.text_label"));
  status.value = CHOICES.includes(review.review_status) ? review.review_status : "unreviewed";
  text.hidden = status.value !== "corrected";
  const save = document.createElement("button");
  save.type = "submit";
  save.className = "secondary";
  save.textContent = t("review.save");
  const confirmation = document.createElement("span");
  confirmation.className = "review-saved";
  confirmation.setAttribute("role", "status");
  confirmation.setAttribute("aria-live", "polite");
  status.addEventListener("change", () => { text.hidden = status.value !== "corrected"; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { status: status.value };
    if (status.value === "corrected") body.corrected_text = text.value;
    confirmation.textContent = t("common.saving");
    let response;
    try {
      response = await sendJson(`/api/history/${encodeURIComponent(id)}/review`, "POST", body);
    } catch (err) {
      response = null;
    }
    const data = response ? await readJson(response) : { error: t("common.unreachable") };
    confirmation.classList.toggle("error", !response || !response.ok);
    if (!response || !response.ok) {
      confirmation.textContent = data.error;
      return;
    }
    showReview(note, data);
    confirmation.textContent = t("review.saved", { status: t(`review.${data.review_status}`) });
    refreshHistory();
  });
  const label = document.createElement("span");
  label.textContent = t("review.verdict");
  form.append(label, status, save, confirmation, text);
  return form;
}
