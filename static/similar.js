// Reviewed answers to similar questions: under a new answer, each answer a reviewer approved or corrected to a
// question like it, asked before (the answer's "reviewed" list, web/similar.py), marked reviewed, with its
// question, its reviewer and the date. The earlier question is shown because a question on the same subject may
// still ask something else. The text is plain: its [n] markers name the earlier answer's passages, not these.
// Server strings are set as text; the look is the review note's (style.css).
import { isShared } from "./account.js";
import { DAY, formatDate, t } from "./i18n.js";

const MARKS = ["approved", "corrected"];  // each with its word, "similar.mark.<status>"

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function reviewedItem(item) {
  const section = element("section", `reviewed-answer review-note review-${item.review_status}`);
  section.dataset.id = item.id;
  section.appendChild(element("h3", "reviewed-heading", t("similar.heading")));
  const asked = element("p", "reviewed-question", "");
  asked.append(`${t("similar.asked_before")} `, element("q", "", item.question));
  asked.lastChild.dir = "auto";
  section.appendChild(asked);
  const mark = element("p", "reviewed-mark", "");
  const date = formatDate(item.reviewed_at, DAY);
  const word = t(MARKS.includes(item.review_status) ? `similar.mark.${item.review_status}` : "similar.mark.reviewed");
  const reviewer = item.reviewer || t(isShared() ? "similar.a_reviewer" : "similar.the_owner");
  mark.append(element("span", `review review-${item.review_status}`, word), ` ${t("similar.by", { reviewer, date })}`);
  section.appendChild(mark);
  const text = element("p", "reviewed-text corrected", item.answer);
  text.dir = "auto";
  section.appendChild(text);
  return section;
}

// Show the reviewed answers (the response's "reviewed") under the answer of a turn's element; none: nothing.
export function showReviewed(turnElement, reviewed) {
  const old = turnElement.querySelector(".reviewed-answers");
  if (old) old.remove();
  if (!reviewed || !reviewed.length) return;
  const aside = element("aside", "reviewed-answers");
  aside.setAttribute("aria-label", t("similar.label"));
  for (const item of reviewed) aside.appendChild(reviewedItem(item));
  turnElement.querySelector(".answer").after(aside);
}
