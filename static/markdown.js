// Answers as safe markdown: marked renders, DOMPurify sanitizes, then each [n] becomes a citation link.
// Raw HTML in an answer is never kept: marked shows it as its text, and DOMPurify drops whatever markup is
// not on a short list (no script, style, iframe, form, event handler or style attribute), and every image
// that is not from this page's origin (the Content-Security-Policy would block it too). The DOM is built
// from the sanitized fragment and from createElement; no server string reaches innerHTML here. A link that
// leaves this server is shown as text with its destination (unlinkOutside), never as a link.
// Does not: decide what a citation means (citations.js) or fetch anything.
import { t } from "./i18n.js";

const ALLOWED_TAGS = ["p", "br", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "h1", "h2",
  "h3", "h4", "h5", "h6", "hr", "a", "img", "table", "thead", "tbody", "tr", "th", "td"];
const ALLOWED_ATTR = ["href", "src", "alt", "title", "align", "start"];
const BLOCKS = "p, li, h1, h2, h3, h4, h5, h6, blockquote, td, th";  // each gets its own direction
const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;  // [3] or [1, 2]
const HAS_MARKER = /\[\d+(?:\s*,\s*\d+)*\]/;  // the same without /g, whose test() would keep state
const FIRST_LETTER = /\p{L}/u;
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;  // Hebrew, Arabic, Syriac, Thaana, N'Ko...

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function sameOrigin(url) {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch (err) {
    return false;
  }
}

// One marked and one DOMPurify instance of our own, so that these settings and hooks touch nothing else.
function makeRenderer() {
  if (!window.marked || !window.DOMPurify) return null;
  const markdown = new window.marked.Marked({
    gfm: true,
    async: false,
    renderer: {
      // Raw HTML in the markdown is shown as the text it is, never parsed.
      html(token) {
        return token.block ? `<p>${escapeHtml(token.text)}</p>` : escapeHtml(token.text);
      },
    },
  });
  const purifier = window.DOMPurify(window);
  purifier.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName === "IMG" && !sameOrigin(node.getAttribute("src") || "")) {
      node.remove();  // an image from elsewhere would tell that host who reads what
    } else if (node.nodeName === "A" && node.hasAttribute("href")) {
      node.setAttribute("rel", "noopener noreferrer");
      if (!sameOrigin(node.getAttribute("href"))) node.setAttribute("target", "_blank");
    }
  });
  return (text) => purifier.sanitize(markdown.parse(text), {
    ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, RETURN_DOM_FRAGMENT: true,
  });
}

const sanitizedMarkdown = makeRenderer();

// The direction of a text by its first letter, as dir="auto" decides it. An element with dir="auto" skips
// children that have their own dir, so the answer's container needs this once its blocks have theirs.
export function textDirection(text) {
  const letter = text.match(FIRST_LETTER);
  return letter && RIGHT_TO_LEFT.test(letter[0]) ? "rtl" : "ltr";
}

// A link to anywhere but this server becomes plain text that shows where it points: a link inside a document
// is the document's, and an answer must not hand the reader a clickable way to a planted login page.
export function unlinkOutside(root) {
  for (const link of [...root.querySelectorAll("a[href]")]) {
    const href = link.getAttribute("href");
    if (sameOrigin(href) && !/^[a-z][a-z0-9+.-]*:/i.test(href.replace(window.location.origin, ""))) continue;
    const shown = document.createElement("span");
    shown.className = "outside-link";
    shown.textContent = link.textContent.trim() === href ? href : `${link.textContent} (${href})`;
    shown.title = t("markdown.outside_link");
    link.replaceWith(shown);
  }
}

// The direction of the last strong letter of text ("ltr", "rtl"), or null when it has none.
function lastDirection(text) {
  const letters = text.match(/\p{L}/gu);
  if (!letters) return null;
  return RIGHT_TO_LEFT.test(letters[letters.length - 1]) ? "rtl" : "ltr";
}

// A marker after an English sentence in a Hebrew line (or the reverse) would be set by the line's direction, at
// the far side of that sentence, beside the next one: marks of the sentence's own direction on both sides keep
// it, and the full stop after it, on the sentence it belongs to. None when the sentence reads as the line does.
function directionMark(node, index) {
  const own = lastDirection(node.data.slice(0, index));
  const block = node.parentElement && node.parentElement.closest(BLOCKS);
  if (!own || !block || own === textDirection(block.textContent)) return "";
  return own === "rtl" ? "\u200F" : "\u200E";
}

// Replace each [n] in the text nodes of root (outside code and links) by makeLink(n) elements.
export function linkMarkers(root, makeLink) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement && node.parentElement.closest("code, pre, a")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) if (HAS_MARKER.test(walker.currentNode.data)) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const pieces = document.createDocumentFragment();
    let last = 0;
    for (const match of node.data.matchAll(MARKER)) {
      // No space before a superscript marker: "penicillin[1]" reads as "penicillin¹".
      const mark = directionMark(node, match.index);
      pieces.append(node.data.slice(last, match.index).replace(/[ \t]+$/, "") + mark);
      for (const n of match[1].split(",")) pieces.append(makeLink(Number(n)));
      last = match.index + match[0].length;
      if (mark) {  // the sentence's full stop stays with it too
        const stop = node.data.slice(last).match(/^[.,;:!?]+/);
        if (stop) { pieces.append(stop[0]); last += stop[0].length; }
        pieces.append(mark);
      }
    }
    pieces.append(node.data.slice(last));
    node.replaceWith(pieces);
  }
}

// The answer's markdown as sanitized DOM inside container, with [n] made links by makeLink.
export function renderMarkdown(container, text, makeLink) {
  container.textContent = "";
  if (sanitizedMarkdown) {
    container.appendChild(sanitizedMarkdown(text));
    unlinkOutside(container);
    container.normalize();
    for (const block of container.querySelectorAll(BLOCKS)) block.setAttribute("dir", "auto");
  } else {  // static/vendor/ missing (run `make install`): the answer as plain text, still safe
    const paragraph = document.createElement("p");
    paragraph.dir = "auto";
    paragraph.textContent = text;
    container.appendChild(paragraph);
  }
  linkMarkers(container, makeLink);
  container.dir = textDirection(container.textContent);
}

// A passage's text: sanitized markdown when its document was written in markdown (its "## headings" read as
// headings), else plain text. Markers in a passage are its own text, never citations, so none become links.
export function renderPassageText(container, passage) {
  const markdown = passage.format === "markdown" && sanitizedMarkdown && passage.chunk;
  container.classList.toggle("markdown", Boolean(markdown));
  if (!markdown) {
    container.textContent = passage.chunk;
    return;
  }
  container.textContent = "";
  container.appendChild(sanitizedMarkdown(passage.chunk));
  unlinkOutside(container);
  for (const block of container.querySelectorAll(BLOCKS)) block.setAttribute("dir", "auto");
}

export const markdownAvailable = Boolean(sanitizedMarkdown);
