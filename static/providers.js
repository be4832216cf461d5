// The admin's providers panel: each hosted provider's API key and default model (GET /api/admin/providers), a new
// key or model saved (PUT /api/admin/providers/<name>), or both cleared so the environment's stand (DELETE).
// A key is typed into a password field that is never filled in: the server never sends a key back, only whether
// one is set, where from, and at most its last four characters; the field is emptied once the key is saved.
// Shown to readers who may set providers (admins, a personal server's owner; account.js hides it from the rest);
// the server refuses everyone else anyway. After a change the settings panel's writers are read again.
// Server strings are set as text.
import { readJson, request, sendJson } from "./api.js";
import { applyHealth } from "./settings.js";
import { button } from "./library.js";

const panel = document.getElementById("providers-panel");
const statusLine = document.getElementById("providers-status");
const table = document.querySelector("#providers tbody");
const summary = document.getElementById("providers-summary");
const FROM = { table: "set here", environment: "from the server's environment" };

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
  if (!provider.key_set) return "no key";
  const end = provider.key_last4 ? ` …${provider.key_last4}` : "";
  return `key${end}, ${FROM[provider.key_from] || "set"}`;
}

function providerRow(provider) {
  const row = document.createElement("tr");
  row.dataset.provider = provider.name;
  const state = document.createElement("span");
  state.className = "provider-state";
  state.textContent = provider.answers ? "answers" : `lacks ${provider.lacking}`;
  const name = document.createElement("strong");
  name.textContent = provider.label;
  row.appendChild(cell(name, document.createElement("br"), state));

  const key = document.createElement("input");
  key.type = "password";
  key.className = "provider-key";
  key.autocomplete = "new-password";
  key.maxLength = 512;
  key.placeholder = provider.key_set ? "a new key replaces it" : "paste the API key";
  key.setAttribute("aria-label", `New API key for ${provider.label}`);
  const keyNote = document.createElement("span");
  keyNote.className = "provider-key-state";
  keyNote.textContent = keyState(provider);
  row.appendChild(cell(keyNote, document.createElement("br"), key));

  const model = document.createElement("input");
  model.className = "provider-model";
  model.maxLength = 100;
  model.spellcheck = false;
  model.value = provider.model_from === "table" ? provider.model : "";
  model.placeholder = provider.environment_model || "the model's name";
  model.setAttribute("aria-label", `Default model for ${provider.label}`);
  row.appendChild(cell(model));

  const save = button("Save", "provider-save", () => saveProvider(provider, key, model));
  const clear = button("Clear", "secondary provider-clear", () => clearProvider(provider));
  clear.disabled = provider.key_from !== "table" && provider.model_from !== "table";
  row.appendChild(cell(save, clear));
  return row;
}

function show(providers) {
  table.textContent = "";
  for (const provider of providers) table.appendChild(providerRow(provider));
  const answering = providers.filter((provider) => provider.answers).map((provider) => provider.name);
  summary.textContent = `· ${answering.length ? answering.join(", ") : "none"} answering`;
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
  say("Saving…");
  let response;
  try {
    response = method === "DELETE" ? await request(`/api/admin/providers/${provider.name}`, { method })
      : await sendJson(`/api/admin/providers/${provider.name}`, method, body);
  } catch (err) {
    say("The server cannot be reached; try again.", true);
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
    say(`Nothing to save for ${provider.label}: type a key or a model.`, true);
    return;
  }
  const saved = await send(provider, "PUT", body, (now) => {
    const what = "api_key" in body ? `key saved (${keyState(now)})` : "model saved";
    return `${now.label}: ${what}; it answers with ${now.model || "no model"}.`;
  });
  if (saved) keyInput.value = "";  // the key lives in the server's database only
}

function clearProvider(provider) {
  return send(provider, "DELETE", null, (now) => {
    const left = now.key_set ? "the environment's key stands" : "it has no key";
    return `${now.label}: the key and model set here are cleared; ${left}.`;
  });
}

panel.addEventListener("toggle", () => {
  if (panel.open) refreshProviders();
});
