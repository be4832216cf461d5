// Reviewed answers to similar questions: under a new answer, each answer a reviewer approved or corrected to a
// question like it, asked before (the answer's "reviewed" list, web/similar.py), marked reviewed, with its
// question, its reviewer and the date. The earlier question is shown because a question on the same subject may
// still ask something else. The text is plain: its [n] markers name the earlier answer's passages, not these.
// Server strings are set as text; the look is the review note's (style.css).
import { isShared } from "./account.js";

const MARKS = { approved: "Approved", corrected: "Corrected" };

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function reviewedItem(item) {
  const section = element("section", `reviewed-answer review-note review-${item.review_status}`);
  section.dataset.id = item.id;
  section.appendChild(element("h3", "reviewed-heading", "Reviewed answer to a similar question"));
  const asked = element("p", "reviewed-question", "");
  asked.append("Asked before: ", element("q", "", item.question));
  asked.lastChild.dir = "auto";
  section.appendChild(asked);
  const mark = element("p", "reviewed-mark", "");
  const date = new Date(item.reviewed_at * 1000).toLocaleDateString();
  mark.append(element("span", `review review-${item.review_status}`, MARKS[item.review_status] || "Reviewed"),
              ` by ${item.reviewer || (isShared() ? "a reviewer" : "the owner")}, ${date}`);
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
  aside.setAttribute("aria-label", "Reviewed answers to similar questions");
  for (const item of reviewed) aside.appendChild(reviewedItem(item));
  turnElement.querySelector(".answer").after(aside);
}
