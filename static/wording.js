// Words that fit the library. The words of religious law ("Posek view", "siman", "poskim", the apocrypha tier) are
// shown only where the library holds such a work (/api/health's religious_law); a Wikipedia library reads in
// general words. Elements marked data-religious-law are shown only then; data-law / data-general (and
// data-law-placeholder / data-general-placeholder) give an element's two wordings. And counts that agree with their
// number: "1 passage", "2 passages".
// Does not: decide what the library holds (the server does) or translate the page.
let religiousLaw = false;

// "1 passage", "1,234 passages": n with the word in its number (plural: when adding "s" is wrong).
export function count(n, word, plural = `${word}s`) {
  return `${Number(n).toLocaleString()} ${n === 1 ? word : plural}`;
}

// Whether the library holds a work of religious law, as the last health check said.
export function holdsReligiousLaw() {
  return religiousLaw;
}

// Word the page for a library that holds (or does not hold) a work of religious law.
export function applyWording(holds) {
  religiousLaw = Boolean(holds);
  for (const element of document.querySelectorAll("[data-religious-law]")) {
    element.hidden = !religiousLaw;
    if (element instanceof HTMLOptionElement) element.disabled = !religiousLaw;
  }
  for (const element of document.querySelectorAll("[data-law][data-general]")) {
    element.textContent = religiousLaw ? element.dataset.law : element.dataset.general;
  }
  for (const element of document.querySelectorAll("[data-law-placeholder][data-general-placeholder]")) {
    element.placeholder = religiousLaw ? element.dataset.lawPlaceholder : element.dataset.generalPlaceholder;
  }
  for (const select of document.querySelectorAll("select")) {  // a choice just hidden is no longer chosen
    const chosen = select.selectedOptions[0];
    if (chosen && chosen.hidden) select.value = [...select.options].find((o) => !o.hidden).value;
  }
}
