// The admin's providers panel: each hosted provider's API key and default model (GET /api/admin/providers), a new
// key or model saved (PUT /api/admin/providers/<name>), or both cleared so the environment's stand (DELETE).
// A key is typed into a password field that is never filled in: the server never sends a key back, only whether
// one is set, where from, and at most its last four characters; the field is emptied once the key is saved.
// Shown to readers who may set providers (admins, a personal server's owner; account.js hides it from the rest);
// the server refuses everyone else anyway. After a change the settings panel's writers are read again.
// Server strings are set as text.
import { readJson, request, sendJson } from "./api.js";
import { t } from "./i18n.js";
import { applyHealth } from "./settings.js";
import { button } from "./library.js";

const panel = document.getElementById("providers-panel");
const statusLine = document.getElementById("providers-status");
const table = document.querySelector("#providers tbody");
const summary = document.getElementById("providers-summary");
const FROM = ["table", "environment"];  // where a key or model comes from, each with its words

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

function cell(...children) {
  const td = document.createElement("td");
  for (const child of children) td.append(child);
  return td;
}

function keyState(provider) {
  if (!provider.key_set) return t("providers.no_key");
  const from = t(FROM.includes(provider.key_from) ? `providers.from.${provider.key_from}` : "providers.set");
  return provider.key_last4 ? t("providers.key_last4", { last4: provider.key_last4, from }) : t("providers.key", { from });
}

function providerRow(provider) {
  const row = document.createElement("tr");
  row.dataset.provider = provider.name;
  const state = document.createElement("span");
  state.className = "provider-state";
  state.textContent = provider.answers ? t("providers.answers") : t("providers.lacks", { what: provider.lacking });
  const name = document.createElement("strong");
  name.textContent = provider.label;
  row.appendChild(cell(name, document.createElement("br"), state));

  const key = document.createElement("input");
  key.type = "password";
  key.className = "provider-key";
  key.autocomplete = "new-password";
  key.maxLength = 512;
  key.placeholder = t(provider.key_set ? "providers.key_replaces" : "providers.key_paste");
  key.setAttribute("aria-label", t("providers.key_label", { provider: provider.label }));
  const keyNote = document.createElement("span");
  keyNote.className = "provider-key-state";
  keyNote.textContent = keyState(provider);
  row.appendChild(cell(keyNote, document.createElement("br"), key));

  const model = document.createElement("input");
  model.className = "provider-model";
  model.maxLength = 100;
  model.spellcheck = false;
  model.value = provider.model_from === "table" ? provider.model : "";
  model.placeholder = provider.environment_model || t("providers.model_placeholder");
  model.setAttribute("aria-label", t("providers.model_label", { provider: provider.label }));
  row.appendChild(cell(model));

  const save = button(t("providers.save"), "provider-save", () => saveProvider(provider, key, model));
  const clear = button(t("providers.clear"), "secondary provider-clear", () => clearProvider(provider));
  clear.disabled = provider.key_from !== "table" && provider.model_from !== "table";
  row.appendChild(cell(save, clear));
  return row;
}

function show(providers) {
  table.textContent = "";
  for (const provider of providers) table.appendChild(providerRow(provider));
  const answering = providers.filter((provider) => provider.answers).map((provider) => provider.name);
  summary.textContent = `· ${t("providers.answering", { list: answering.length ? answering.join(", ") : t("providers.none") })}`;
}

// Read the settings panel's writers again, so a provider just given a key can be chosen.
async function refreshWriters() {
  try {
    const response = await fetch("/api/health");
    const health = await response.json();
    if (health.status === "ok") applyHealth(health);
  } catch (err) {
    // the next page load will show them
  }
}

async function refreshProviders(clearStatus = true) {
  const response = await request("/api/admin/providers");
  const data = await readJson(response);
  if (!response.ok) {
    say(data.error, true);
    return;
  }
  if (clearStatus) say("");
  show(data.providers || []);
}

// Send a change to a provider, then show the list and the writers again; whether the server took it.
async function send(provider, method, body, done) {
  say(t("common.saving"));
  let response;
  try {
    response = method === "DELETE" ? await request(`/api/admin/providers/${provider.name}`, { method })
      : await sendJson(`/api/admin/providers/${provider.name}`, method, body);
  } catch (err) {
    say(t("common.unreachable"), true);
    return false;
  }
  const data = await readJson(response);
  if (!response.ok) {
    say(data.error, true);
    return false;
  }
  await refreshProviders(false);
  say(done(data.provider));
  refreshWriters();
  return true;
}

async function saveProvider(provider, keyInput, modelInput) {
  const body = {};
  if (keyInput.value.trim()) body.api_key = keyInput.value.trim();
  const model = modelInput.value.trim();
  if (model !== (provider.model_from === "table" ? provider.model : "")) body.model = model || null;
  if (!Object.keys(body).length) {
    say(t("providers.nothing_to_save", { provider: provider.label }), true);
    return;
  }
  const saved = await send(provider, "PUT", body, (now) => {
    const what = "api_key" in body ? t("providers.key_saved", { state: keyState(now) }) : t("providers.model_saved");
    return t("providers.saved", { provider: now.label, what, model: now.model || t("providers.no_model") });
  });
  if (saved) keyInput.value = "";  // the key lives in the server's database only
}

function clearProvider(provider) {
  return send(provider, "DELETE", null, (now) => {
    const left = t(now.key_set ? "providers.environment_key_stands" : "providers.no_key_left");
    return t("providers.cleared", { provider: now.label, left });
  });
}

panel.addEventListener("toggle", () => {
  if (panel.open) refreshProviders();
});
document.addEventListener("language-changed", () => { if (panel.open) refreshProviders(); });
