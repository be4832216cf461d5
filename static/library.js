// The book manager: upload files with a progress bar, follow their ingest jobs, list, re-index and remove documents.
// The reader's own books come first (the server orders them); the built-in library's documents are marked as
// such and, being read-only unless the server says otherwise, have no Remove button.
// As in app.js, every string from the server is inserted as text, never as HTML. Remove and Re-index are shown
// only to readers whose role may (account.js): on the reader's own uploads always, on other documents only in the
// reviewer's view (view.js); the upload form is hidden from readers who may not upload.
import { may } from "./account.js";
import { changeHeaders, readJson, request } from "./api.js";
import { DAY, formatDate, formatNumber, t } from "./i18n.js";
import { count } from "./wording.js";

const panel = document.getElementById("library-panel");
const uploadForm = document.getElementById("upload");
const uploadButton = document.getElementById("upload-button");
const progressBar = document.getElementById("upload-progress");
const uploadStatus = document.getElementById("upload-status");
const statsLine = document.getElementById("library-stats");
const docTable = document.querySelector("#documents tbody");
const docSearch = document.getElementById("doc-search");
const moreLine = document.getElementById("documents-more");
const STAGES = ["queued", "parsing", "chunking", "embedding", "indexing", "warming"];  // an ingest job's, each with its words

function say(text, isError = false) {
  uploadStatus.textContent = text;
  uploadStatus.classList.toggle("error", isError);
}

async function refreshDocuments() {
  document.dispatchEvent(new Event("library-changed"));
  const query = encodeURIComponent(docSearch.value.trim());
  const [docs, stats] = await Promise.all([
    request(`/api/documents?limit=100&q=${query}`).then(readJson),
    request("/api/stats").then(readJson),
  ]);
  if (stats.documents !== undefined) {
    statsLine.textContent = `· ${count(stats.documents, "documents")} · ${count(stats.chunks, "passages")}`;
  }
  if (!docs.documents) return;
  docTable.textContent = "";
  for (const doc of docs.documents) docTable.appendChild(documentRow(doc));
  moreLine.textContent = docs.total > docs.documents.length
    ? t("library.more", { shown: docs.documents.length, total: docs.total }) : "";
}

function documentRow(doc) {
  const row = document.createElement("tr");
  row.classList.toggle("yours", Boolean(doc.yours));  // the reader's own upload: its buttons in the reader's view too
  const title = document.createElement("td");
  const bdi = document.createElement("bdi");
  bdi.textContent = doc.title;
  title.appendChild(bdi);
  title.title = doc.filename || doc.id;
  row.appendChild(title);
  for (const value of [doc.format, doc.language || "", formatNumber(doc.chunk_count), added(doc.created_at)]) {
    const cell = document.createElement("td");
    cell.textContent = value;
    row.appendChild(cell);
  }
  row.lastChild.className = "added";
  const actions = document.createElement("td");
  if (doc.filename && may("reindex")) actions.appendChild(button(t("library.reindex"), "reindex", () => reindex(doc)));
  if (may("remove") && !doc.read_only) actions.appendChild(button(t("library.remove"), "remove", () => remove(doc)));
  if (doc.built_in) {
    const mark = document.createElement("span");
    mark.className = "built-in";
    mark.textContent = t("library.built_in");
    mark.title = t(doc.read_only ? "library.built_in_read_only" : "library.built_in_note");
    actions.appendChild(mark);
  }
  row.appendChild(actions);
  return row;
}

// The day a document was added, as the page's language writes dates.
function added(seconds) {
  return seconds ? formatDate(seconds, DAY) : "";
}

// A button of the page's own (type=button) that calls onClick; providers.js uses it too.
export function button(label, className, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

async function remove(doc) {
  if (!window.confirm(t("library.confirm_remove", { title: doc.title, passages: count(doc.chunk_count, "passages") }))) return;
  const response = await request(`/api/documents/${encodeURIComponent(doc.id)}`, { method: "DELETE" });
  const data = await readJson(response);
  const removed = () => t("library.removed", { title: doc.title, passages: count(data.chunks_removed, "passages") });
  say(response.ok ? removed() : data.error, !response.ok);
  refreshDocuments();
}

async function reindex(doc) {
  const response = await request(`/api/documents/${encodeURIComponent(doc.id)}/reindex`, { method: "POST" });
  const data = await readJson(response);
  if (!response.ok) { say(data.error, true); return; }
  followJob(data, t("library.reindexing", { title: doc.title }));
}

// Upload with XMLHttpRequest: fetch cannot report upload progress.
function upload(formData) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/documents");
    for (const [name, value] of Object.entries(changeHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) progressBar.value = Math.round((50 * event.loaded) / event.total);
    };
    xhr.onload = () => {
      let data;
      try { data = JSON.parse(xhr.responseText); } catch (err) { data = { error: t("common.server_answered", { status: xhr.status }) }; }
      if (xhr.status === 401) document.dispatchEvent(new Event("signed-out"));  // as api.js's request does
      resolve({ ok: xhr.status === 202, data });
    };
    xhr.onerror = () => resolve({ ok: false, data: { error: t("common.unreachable") } });
    xhr.send(formData);
  });
}

async function followJob(job, label) {
  progressBar.hidden = false;
  for (;;) {
    const half = job.total ? (50 * job.done) / job.total : 0;
    progressBar.value = 50 + half;
    if (job.status === "done") {
      progressBar.value = 100;
      const what = job.stage === "unchanged" ? t("library.unchanged") : t("library.indexed", { passages: count(job.total, "passages") });
      say(`${t("library.job", { label, state: what })}${job.warnings.length ? " " + job.warnings.join(" ") : ""}`);
      break;
    }
    if (job.status === "failed") { say(t("library.job_failed", { label, error: job.error }), true); break; }
    const stage = STAGES.includes(job.stage) ? t(`stage.${job.stage}`) : job.stage;
    say(t(job.total ? "library.job_progress" : "library.job_stage", { label, stage, done: job.done, total: job.total }));
    await new Promise((r) => setTimeout(r, 700));
    const response = await request(job.url);
    job = await readJson(response);
    if (!response.ok) { say(job.error, true); break; }
  }
  uploadButton.disabled = false;
  refreshDocuments();
}

uploadForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const formData = new FormData(uploadForm);
  for (const [key, value] of [...formData.entries()]) if (value === "") formData.delete(key);
  const file = formData.get("file");
  if (!file || !file.name) { say(t("library.choose_file"), true); return; }
  uploadButton.disabled = true;
  progressBar.hidden = false;
  progressBar.value = 0;
  say(t("library.uploading", { name: file.name }));
  const { ok, data } = await upload(formData);
  if (!ok) { say(data.error, true); uploadButton.disabled = false; progressBar.hidden = true; return; }
  uploadForm.reset();
  followJob(data, file.name);
});

let searchTimer;
docSearch.addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(refreshDocuments, 250); });
panel.addEventListener("toggle", () => { if (panel.open) refreshDocuments(); });
document.addEventListener("language-changed", () => { if (panel.open) refreshDocuments(); });
