// Words that fit the library. The words of religious law ("Posek view", "siman", "poskim", the apocrypha tier) are
// shown only where the library holds such a work (/api/health's religious_law); a Wikipedia library reads in
// general words. Elements marked data-religious-law are shown only then; a key with ".law" and ".general" variants
// (static/i18n/<language>.json) gives an element its two wordings, in every language the page speaks (i18n.js).
// Does not: decide what the library holds (the server does) or choose the page's language.
import { setWording, t } from "./i18n.js";

let religiousLaw = false;

// "1 passage", "2 passages" in the page's language: noun is a key under "count." with plural forms.
export function count(n, noun) {
  return t(`count.${noun}`, { n: Number(n) });
}

// Whether the library holds a work of religious law, as the last health check said.
export function holdsReligiousLaw() {
  return religiousLaw;
}

// Word the page for a library that holds (or does not hold) a work of religious law.
export function applyWording(holds) {
  religiousLaw = Boolean(holds);
  setWording(religiousLaw ? "law" : "general");
  for (const element of document.querySelectorAll("[data-religious-law]")) {
    element.hidden = !religiousLaw;
    if (element instanceof HTMLOptionElement) element.disabled = !religiousLaw;
  }
  for (const select of document.querySelectorAll("select")) {  // a choice just hidden is no longer chosen
    const chosen = select.selectedOptions[0];
    if (chosen && chosen.hidden) select.value = [...select.options].find((o) => !o.hidden).value;
  }
}
