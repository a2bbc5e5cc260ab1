// The account area of the top bar (guest, or the signed-in name) and the sign-up / sign-in dialog.
// Signing up with a guest's token makes that guest the account: its games and results come along.
// Errors are the server's {code, message}, shown in the form as a sentence.

import { ApiError, me, signIn, signOut, signUp } from "./api.js";
import { escapeHtml } from "./html.js";
import { sentence, toast } from "./notice.js";

const MODES = {
  "sign-up": {
    title: "Sign up",
    submit: "Sign up",
    password: "new-password",
    hint: "Your guest games and results come with you. A named account's daily attempts are ranked.",
    other: ["sign-in", "I have an account: sign in"],
  },
  "sign-in": {
    title: "Sign in",
    submit: "Sign in",
    password: "current-password",
    hint: "This browser's guest games stay with the guest; sign up instead to keep them.",
    other: ["sign-up", "New here? Sign up"],
  },
};

let who = null; // {player_id, name, ranked} once known
let changed = () => {};

function dialogElement() {
  let dialog = document.getElementById("account-dialog");
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = "account-dialog";
  dialog.setAttribute("aria-labelledby", "account-title");
  dialog.innerHTML = `
    <form class="account-form" novalidate>
      <h2 id="account-title"></h2>
      <p class="hint" data-account-hint></p>
      <label class="field">Name
        <input name="name" autocomplete="username" maxlength="64" autocapitalize="none" spellcheck="false" required>
      </label>
      <label class="field">Password
        <input name="password" type="password" maxlength="256" required>
      </label>
      <p class="form-error" role="alert" hidden></p>
      <div class="dialog-actions">
        <button type="submit" class="primary" data-account-submit></button>
        <button type="button" data-account-cancel>Cancel</button>
      </div>
      <p><button type="button" class="link" data-account-switch></button></p>
    </form>`;
  document.body.append(dialog);
  const form = dialog.querySelector("form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(dialog, form);
  });
  dialog.querySelector("[data-account-cancel]").addEventListener("click", () => dialog.close());
  dialog.querySelector("[data-account-switch]").addEventListener("click", (event) => {
    openAccountDialog(event.currentTarget.dataset.mode);
  });
  return dialog;
}

function showError(form, text) {
  const el = form.querySelector(".form-error");
  el.textContent = text;
  el.hidden = !text;
}

async function submit(dialog, form) {
  const mode = dialog.dataset.mode;
  const name = form.elements.name.value.trim();
  const password = form.elements.password.value;
  if (!name || !password) {
    showError(form, name ? "Enter your password." : "Enter a name.");
    (name ? form.elements.password : form.elements.name).focus();
    return;
  }
  const button = form.querySelector("[data-account-submit]");
  button.disabled = true;
  showError(form, "");
  try {
    await (mode === "sign-up" ? signUp(name, password) : signIn(name, password));
  } catch (error) {
    const text = error instanceof ApiError ? sentence(error.message) : sentence(String(error));
    showError(form, `${MODES[mode].title} failed: ${text}`);
    form.dataset.errorCode = error.code ?? "";
    return;
  } finally {
    button.disabled = false;
  }
  dialog.close();
  await refreshAccount();
  toast(mode === "sign-up" ? `Welcome, ${who?.name ?? name}: your account is ready.` : `Signed in as ${who?.name ?? name}.`);
  changed();
}

/** Open the dialog in "sign-up" or "sign-in" mode. */
export function openAccountDialog(mode = "sign-up") {
  const dialog = dialogElement();
  const spec = MODES[mode];
  const form = dialog.querySelector("form");
  dialog.dataset.mode = mode;
  dialog.querySelector("#account-title").textContent = spec.title;
  dialog.querySelector("[data-account-hint]").textContent = spec.hint;
  dialog.querySelector("[data-account-submit]").textContent = spec.submit;
  form.elements.password.autocomplete = spec.password;
  const other = dialog.querySelector("[data-account-switch]");
  other.dataset.mode = spec.other[0];
  other.textContent = spec.other[1];
  showError(form, "");
  delete form.dataset.errorCode;
  if (!dialog.open) dialog.showModal();
  form.elements.name.focus();
}

function render() {
  const area = document.getElementById("account");
  if (!area) return;
  if (!who) {
    area.innerHTML = "";
    return;
  }
  area.dataset.account = who.name ? "named" : "guest";
  area.innerHTML = who.name
    ? `<span class="who">Signed in as <strong>${escapeHtml(who.name)}</strong></span>
       <button type="button" data-account-open="sign-out">Sign out</button>`
    : `<span class="who">Guest</span>
       <button type="button" data-account-open="sign-up">Sign up</button>
       <button type="button" data-account-open="sign-in">Sign in</button>`;
}

async function doSignOut() {
  try {
    await signOut();
  } catch (error) {
    toast(`Sign-out failed: ${sentence(error.message)}`, "error");
    return;
  }
  toast("Signed out on every device. You play as a new guest now.");
  await refreshAccount();
  changed();
}

/** Ask the server who we are and redraw the area; the identity, or null when the server did not say. */
export async function refreshAccount() {
  try {
    who = await me();
  } catch {
    who = null; // the area stays empty; the page itself says what failed
  }
  render();
  return who;
}

export const currentAccount = () => who;

/** Fill the top bar's #account area; `onChange` runs after a sign-up, sign-in or sign-out. */
export function mountAccount({ onChange } = {}) {
  changed = onChange ?? (() => {});
  document.getElementById("account")?.addEventListener("click", (event) => {
    const action = event.target.closest("[data-account-open]")?.dataset.accountOpen;
    if (action === "sign-out") doSignOut();
    else if (action) openAccountDialog(action);
  });
  return refreshAccount();
}
