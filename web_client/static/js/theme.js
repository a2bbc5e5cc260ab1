// The colour theme: light or dark as the system prefers (prefers-color-scheme, in arena.css), unless the
// player chose one with the top bar's toggle; the choice is remembered. Every page loads this module.

import { readPref, toggleButton, writePref } from "./prefs.js";

const KEY = "arena.theme";
const systemLight = window.matchMedia("(prefers-color-scheme: light)");
const root = document.documentElement;

/** "light" or "dark": the theme the page shows now. */
export function currentTheme() {
  return root.dataset.theme ?? (systemLight.matches ? "light" : "dark");
}

function apply() {
  const chosen = readPref(KEY);
  if (chosen === "light" || chosen === "dark") root.dataset.theme = chosen;
  else delete root.dataset.theme;
}

apply();

function mount() {
  const button = toggleButton("theme-toggle", {
    label: "Light theme",
    icon: "☀",
    pressed: currentTheme() === "light",
    onToggle: () => {
      writePref(KEY, currentTheme() === "light" ? "dark" : "light");
      apply();
      return currentTheme() === "light";
    },
  });
  // Following the system until the player chooses: the button shows the system's change too.
  systemLight.addEventListener("change", () => button?.setAttribute("aria-pressed", String(currentTheme() === "light")));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
else mount();
