// The show/hide-all-sources toggle: with sources hidden, every answer shows its text and citations alone, and a
// click on a citation opens that answer's evidence again. The choice is kept in localStorage.
// Does not: fetch or change any answer.
import { t } from "./i18n.js";

const KEY = "evidenz.sources-hidden";
const toggle = document.getElementById("sources-toggle");
const conversation = document.getElementById("conversation");

function show(hidden) {
  conversation.classList.toggle("sources-hidden", hidden);
  for (const turn of conversation.querySelectorAll(".turn.sources-shown")) turn.classList.remove("sources-shown");
  toggle.textContent = t(hidden ? "sources.show" : "sources.hide");
  toggle.setAttribute("aria-pressed", String(hidden));
}

// Show one answer's evidence while the others stay hidden (a citation of it was followed).
export function revealSources(turnElement) {
  turnElement.classList.add("sources-shown");
}

toggle.addEventListener("click", () => {
  const hidden = !conversation.classList.contains("sources-hidden");
  localStorage.setItem(KEY, hidden ? "1" : "");
  show(hidden);
});
document.addEventListener("language-changed", () => show(conversation.classList.contains("sources-hidden")));
show(Boolean(localStorage.getItem(KEY)));
