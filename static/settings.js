// The settings panel: provider, model, number of sources and answer language, and the mode beside the question
// box (practical, deep research, posek view), kept in localStorage and sent with every question. The choices
// come from /api/health ("providers", "languages"); an answer language left to "auto" is the profile's when it
// names one (account.js calls setProfileLanguage).
// A language is named in its own words and, when they differ, in the page's: "עברית (Hebrew)" (Intl.DisplayNames).
// Does not: check the values beyond the form's own limits; the server validates and says what is wrong.
import { pageLanguage, t } from "./i18n.js";

const KEY = "evidenz.settings";
const FALLBACK_LANGUAGES = ["en", "he"];
const form = document.getElementById("settings");
const providerSelect = document.getElementById("setting-provider");
const modelInput = document.getElementById("setting-model");
const topKInput = document.getElementById("setting-top-k");
const languageSelect = document.getElementById("setting-language");
const summary = document.getElementById("settings-summary");
const modeSelect = document.getElementById("mode");
const MODES = ["practical", "deep", "posek"];
let profileLanguage = null;

// A language's name: "עברית (Hebrew)" on an English page, "English (אנגלית)" on a Hebrew one; its code if unknown.
export function languageName(code) {
  const name = (language) => {
    try {
      return new Intl.DisplayNames([language], { type: "language", fallback: "none" }).of(code);
    } catch (err) {
      return undefined;  // not a language code Intl reads
    }
  };
  const own = name(code);
  const ours = name(pageLanguage);
  if (!own) return ours || code;
  return ours && ours !== own ? `${own} (${ours})` : own;
}

function saved() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch (err) {
    return {};
  }
}

function option(value, label) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = label;
  return element;
}

// The settings as the query body takes them; empty fields are left to the server's defaults.
export function querySettings() {
  const settings = {};
  if (providerSelect.value) settings.provider = providerSelect.value;
  if (modelInput.value.trim()) settings.model = modelInput.value.trim();
  const topK = Number(topKInput.value);
  if (topKInput.value && Number.isInteger(topK) && topK >= 1 && topK <= 20) settings.top_k = topK;
  const language = languageSelect.value || "auto";
  settings.language = language === "auto" && profileLanguage ? profileLanguage : language;
  settings.mode = modeSelect.value;
  return settings;
}

function current() {
  return { provider: providerSelect.value, model: modelInput.value.trim(), top_k: topKInput.value,
           language: languageSelect.value, mode: modeSelect.value };
}

function autoLabel() {
  return profileLanguage ? t("settings.auto_profile", { language: languageName(profileLanguage) }) : t("settings.auto");
}

function showSummary(value) {
  const parts = [value.provider || t("settings.default_writer"), value.model,
                 value.top_k ? t("count.sources", { n: Number(value.top_k) }) : "",
                 value.language === "auto" ? profileLanguage : value.language].filter(Boolean);
  summary.textContent = `· ${parts.join(" · ")}`;
}

function save() {
  localStorage.setItem(KEY, JSON.stringify(current()));
  showSummary(current());
}

// Fill the choices from /api/health's body and restore what was saved; call again when health changes.
export function applyHealth(health) {
  const stored = saved();
  const providers = health.providers || {};
  const names = Array.isArray(providers) ? providers : Object.keys(providers);
  providerSelect.textContent = "";
  providerSelect.appendChild(option("", t("settings.server_default", { generator: health.generator || "offline" })));
  for (const name of names) {
    const status = Array.isArray(providers) ? null : providers[name];
    const circuit = status && status.circuit && status.circuit !== "closed" ? ` ${t("settings.circuit", { state: status.circuit })}` : "";
    const failed = status && status.last_call && !status.last_call.ok ? ` ${t("settings.last_call_failed")}` : "";
    providerSelect.appendChild(option(name, `${name}${circuit || failed}`));
  }
  providerSelect.value = names.includes(stored.provider) ? stored.provider : "";
  const languages = health.languages && health.languages.length ? health.languages : FALLBACK_LANGUAGES;
  languageSelect.textContent = "";
  languageSelect.appendChild(option("auto", autoLabel()));
  for (const code of languages) languageSelect.appendChild(option(code, languageName(code)));
  languageSelect.value = languages.includes(stored.language) ? stored.language : "auto";
  modelInput.value = stored.model || "";
  topKInput.value = stored.top_k || "";
  modeSelect.value = MODES.includes(stored.mode) ? stored.mode : "practical";
  showSummary(current());  // not saved: a provider missing from this server stays chosen for when it is back
}

// The answer language of the reader's profile ("auto" or null: none), used where the settings say "auto".
export function setProfileLanguage(code) {
  profileLanguage = code && code !== "auto" ? code : null;
  languageSelect.options[0].textContent = autoLabel();
  showSummary(current());
}

form.addEventListener("change", save);
modeSelect.addEventListener("change", save);
form.addEventListener("input", save);
form.addEventListener("submit", (event) => event.preventDefault());
applyHealth({});  // usable before /api/health answers
