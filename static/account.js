// Who is reading. On load the page asks GET /api/me: a personal server (no users) answers at once and the page is
// its owner's; on a shared server a 401 replaces the chat with the sign-in form until POST /api/session accepts a
// name and password. Elements marked data-permission="…" are shown only to readers whose role has it, and those
// marked data-shared only on a shared server. The profile panel (PATCH /api/me) and the sign-out button live here.
// Does not: keep the CSRF token (api.js holds it) or manage other users (users.js).
import { readJson, request, sendJson, setCsrfToken } from "./api.js";
import { known, t } from "./i18n.js";
import { setProfileLanguage } from "./settings.js";

const layout = document.getElementById("app");
const signIn = document.getElementById("sign-in");
const signInForm = document.getElementById("sign-in-form");
const nameInput = document.getElementById("sign-in-name");
const passwordInput = document.getElementById("sign-in-password");
const signInStatus = document.getElementById("sign-in-status");
const bar = document.getElementById("account-bar");
const accountName = document.getElementById("account-name");
const accountRole = document.getElementById("account-role");
const signOutButton = document.getElementById("sign-out");
const profilePanel = document.getElementById("profile-panel");
const profileForm = document.getElementById("profile");
const profileStatus = document.getElementById("profile-status");
const profileSummary = document.getElementById("profile-summary");
const settingLanguage = document.getElementById("setting-language");
const field = (name) => document.getElementById(`profile-${name}`);

let me = null;  // the body of /api/me: mode, user, permissions
let started = false;  // the page has been shown to a reader
let onReady = () => {};

// Whether the reader may do permission ("upload", "review", "users", ...); a personal server's owner may do all.
export function may(permission) {
  if (!me || me.mode !== "shared") return true;
  return (me.permissions || []).includes(permission);
}

// Whether the server is shared (users sign in).
export function isShared() {
  return Boolean(me && me.mode === "shared");
}

// A role in the page's words ("learner" is "לומד" on a Hebrew page); a role the page has no words for, as it is.
export function roleName(role) {
  return known(`role.${role}`) ? t(`role.${role}`) : role;
}

function say(element, text, isError = false) {
  element.textContent = text;
  element.classList.toggle("error", isError);
}

function showSignIn(message = "") {
  layout.hidden = true;
  bar.hidden = true;
  signIn.hidden = false;
  say(signInStatus, message, Boolean(message));
  nameInput.focus();
}

// Show the page to the reader of body (null: /api/me could not say, so the server decides each request).
function reveal(body) {
  me = body;
  setCsrfToken(body && body.csrf_token);
  const shared = isShared();
  for (const element of document.querySelectorAll("[data-permission], [data-shared]")) {
    const permitted = !element.dataset.permission || may(element.dataset.permission);
    element.hidden = !permitted || (element.dataset.shared !== undefined && !shared);
  }
  bar.hidden = !shared;
  if (body && body.user) showUser(body.user);
  signIn.hidden = true;
  layout.hidden = false;
  if (!started) {
    started = true;
    onReady(me);
  }
}

function showUser(user) {
  accountName.textContent = user.display_name || user.name;
  accountRole.textContent = roleName(user.role);
  setProfileLanguage(user.answer_language);
  if (!isShared()) return;
  field("display-name").value = user.display_name || "";
  field("community").value = user.community || "";
  field("customs").value = (user.customs || []).join(", ");
  field("poskim").value = (user.poskim || []).join(", ");
  field("tiers").value = (user.tiers || []).join(", ");
  fillLanguages(user.answer_language || "auto");
  profileSummary.textContent = user.community ? `· ${user.community}` : "";
}

// The profile's language choices: those of the settings panel (from /api/health), and the profile's own.
function fillLanguages(value) {
  const select = field("language");
  select.textContent = "";
  for (const option of settingLanguage.options) {
    select.appendChild(new Option(option.value === "auto" ? t("settings.auto") : option.textContent, option.value));
  }
  if (![...select.options].some((option) => option.value === value)) select.appendChild(new Option(value, value));
  select.value = value;
}

async function load() {
  let response;
  try {
    response = await request("/api/me");
  } catch (err) {
    reveal(null);
    return;
  }
  if (response.status === 401) {
    showSignIn();
    return;
  }
  reveal(response.ok ? await readJson(response) : null);  // a server without /api/me has no users
}

// Ask the server who is reading; resolves with /api/me's body (null if it cannot say) once the page may be used.
export function startAccount() {
  return new Promise((resolve) => {
    onReady = resolve;
    load();
  });
}

signInForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  say(signInStatus, t("signin.signing_in"));
  let response;
  try {
    response = await sendJson("/api/session", "POST", { name: nameInput.value.trim(), password: passwordInput.value });
  } catch (err) {
    say(signInStatus, t("common.unreachable"), true);
    return;
  }
  const data = await readJson(response);
  passwordInput.value = "";
  if (!response.ok) {
    say(signInStatus, data.error, true);
    passwordInput.focus();
    return;
  }
  if (started) {  // signed in again after the session ended: start afresh as whoever signed in
    window.location.reload();
    return;
  }
  setCsrfToken(data.csrf_token);
  say(signInStatus, "");
  load();
});

signOutButton.addEventListener("click", async () => {
  try {
    await request("/api/session", { method: "DELETE" });
  } finally {
    window.location.reload();  // forget the conversation and the token; /api/me then asks for a sign-in
  }
});

// A request answered 401: the session ended or was revoked (api.js).
document.addEventListener("signed-out", () => {
  if (started && isShared()) showSignIn(t("signin.session_ended"));
});

profileForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const list = (name) => field(name).value.split(",").map((item) => item.trim()).filter(Boolean);
  const body = { display_name: field("display-name").value.trim() || null, community: field("community").value.trim() || null,
                 customs: list("customs"), poskim: list("poskim"), answer_language: field("language").value };
  say(profileStatus, t("common.saving"));
  let response;
  try {
    response = await sendJson("/api/me", "PATCH", body);
  } catch (err) {
    say(profileStatus, t("common.unreachable"), true);
    return;
  }
  const data = await readJson(response);
  if (!response.ok) {
    say(profileStatus, data.error, true);
    return;
  }
  me = { ...me, user: data.user };
  showUser(data.user);
  say(profileStatus, t("profile.saved"));
});

document.addEventListener("language-changed", () => {  // the role's name and the language choices in new words
  if (!me || !me.user) return;
  accountRole.textContent = roleName(me.user.role);
  if (isShared()) fillLanguages(field("language").value || me.user.answer_language || "auto");
});

profilePanel.addEventListener("toggle", () => {
  if (profilePanel.open && me && me.user) fillLanguages(field("language").value || me.user.answer_language || "auto");
});
