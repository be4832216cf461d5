// The admin's users panel: list the users (GET /api/users) with their role and tiers, create one (POST
// /api/users: name, password, role), change a role (PATCH /api/users/<id>), disable or enable a user. Shown only
// to admins of a shared server (account.js hides it from the rest); the server refuses everyone else anyway.
// Server strings are set as text.
import { readJson, request, sendJson } from "./api.js";
import { roleName } from "./account.js";
import { t } from "./i18n.js";
import { count } from "./wording.js";

const panel = document.getElementById("users-panel");
const form = document.getElementById("new-user");
const roleSelect = document.getElementById("new-user-role");
const createButton = document.getElementById("new-user-button");
const statusLine = document.getElementById("users-status");
const table = document.querySelector("#users tbody");
const summary = document.getElementById("users-summary");
let roles = [];

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

function cell(content) {
  const td = document.createElement("td");
  if (typeof content === "string") td.textContent = content;
  else td.appendChild(content);
  return td;
}

function roleChoice(user) {
  const select = document.createElement("select");
  select.className = "user-role";
  select.setAttribute("aria-label", t("users.role_of", { name: user.name }));
  for (const role of roles) select.appendChild(new Option(roleName(role), role));
  select.value = user.role;
  select.addEventListener("change", async () => {
    const changed = await change(user, { role: select.value }, t("users.now", { name: user.name, role: roleName(select.value) }));
    if (!changed) select.value = user.role;
  });
  return select;
}

function stateButton(user) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.textContent = t(user.disabled ? "users.enable" : "users.disable");
  button.addEventListener("click", () => change(user, { disabled: !user.disabled },
    t(user.disabled ? "users.enabled" : "users.disabled", { name: user.name })));
  return button;
}

function userRow(user) {
  const row = document.createElement("tr");
  row.dataset.name = user.name;
  const name = document.createElement("bdi");
  name.textContent = user.name;
  row.appendChild(cell(name));
  row.lastChild.title = user.display_name || "";
  row.appendChild(cell(roleChoice(user)));
  const tiers = cell(user.tiers.join(", "));
  tiers.className = "user-tiers";
  if (user.tiers_from_role) tiers.title = t("users.role_tiers");
  row.appendChild(tiers);
  const state = cell(`${t(user.disabled ? "users.state.disabled" : "users.state.active")} `);
  state.appendChild(stateButton(user));
  row.appendChild(state);
  return row;
}

// Send changes to a user and redraw the list; whether the server took them.
async function change(user, changes, done) {
  say(t("common.saving"));
  const response = await sendJson(`/api/users/${user.id}`, "PATCH", changes);
  const data = await readJson(response);
  if (!response.ok) {
    say(data.error, true);
    return false;
  }
  say(done);
  await refreshUsers(false);
  return true;
}

async function refreshUsers(clearStatus = true) {
  const response = await request("/api/users");
  const data = await readJson(response);
  if (!response.ok) {
    say(data.error, true);
    return;
  }
  if (clearStatus) say("");
  roles = data.roles || [];
  if (!roleSelect.options.length) {
    for (const role of roles) roleSelect.appendChild(new Option(roleName(role), role));
    roleSelect.value = roles.includes("learner") ? "learner" : roles[0];
  }
  table.textContent = "";
  for (const user of data.users || []) table.appendChild(userRow(user));
  summary.textContent = `· ${count(data.users.length, "users")}`;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const values = Object.fromEntries(new FormData(form));
  const body = { name: values.name.trim().toLowerCase(), password: values.password, role: values.role };
  createButton.disabled = true;
  say(t("users.creating", { name: body.name }));
  try {
    const response = await sendJson("/api/users", "POST", body);
    const data = await readJson(response);
    if (!response.ok) {
      say(data.error, true);
      return;
    }
    form.reset();
    roleSelect.value = roles.includes("learner") ? "learner" : roles[0];
    await refreshUsers(false);
    say(t("users.created", { name: data.user.name, role: roleName(data.user.role) }));
  } catch (err) {
    say(t("common.unreachable"), true);
  } finally {
    createButton.disabled = false;
  }
});

panel.addEventListener("toggle", () => {
  if (panel.open) refreshUsers();
});
document.addEventListener("language-changed", () => { if (panel.open) refreshUsers(); });
