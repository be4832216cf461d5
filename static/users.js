// The admin's users panel: list the users (GET /api/users) with their role and tiers, create one (POST
// /api/users: name, password, role), change a role (PATCH /api/users/<id>), disable or enable a user. Shown only
// to admins of a shared server (account.js hides it from the rest); the server refuses everyone else anyway.
// Server strings are set as text.
import { readJson, request, sendJson } from "./api.js";

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
  select.setAttribute("aria-label", `Role of ${user.name}`);
  for (const role of roles) select.appendChild(new Option(role, role));
  select.value = user.role;
  select.addEventListener("change", async () => {
    const changed = await change(user, { role: select.value }, `${user.name} is now ${select.value}.`);
    if (!changed) select.value = user.role;
  });
  return select;
}

function stateButton(user) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.textContent = user.disabled ? "Enable" : "Disable";
  button.addEventListener("click", () => change(user, { disabled: !user.disabled },
    `${user.name} is ${user.disabled ? "enabled" : "disabled and signed out"}.`));
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
  if (user.tiers_from_role) tiers.title = "the role's tiers";
  row.appendChild(tiers);
  const state = cell(user.disabled ? "disabled " : "active ");
  state.appendChild(stateButton(user));
  row.appendChild(state);
  return row;
}

// Send changes to a user and redraw the list; whether the server took them.
async function change(user, changes, done) {
  say("Saving…");
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
    for (const role of roles) roleSelect.appendChild(new Option(role, role));
    roleSelect.value = roles.includes("learner") ? "learner" : roles[0];
  }
  table.textContent = "";
  for (const user of data.users || []) table.appendChild(userRow(user));
  summary.textContent = `· ${data.users.length} user${data.users.length === 1 ? "" : "s"}`;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const values = Object.fromEntries(new FormData(form));
  const body = { name: values.name.trim().toLowerCase(), password: values.password, role: values.role };
  createButton.disabled = true;
  say(`Creating ${body.name}…`);
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
    say(`Created ${data.user.name} (${data.user.role}); they sign in with the password you gave.`);
  } catch (err) {
    say("The server cannot be reached; try again.", true);
  } finally {
    createButton.disabled = false;
  }
});

panel.addEventListener("toggle", () => {
  if (panel.open) refreshUsers();
});
