// The player's preferences kept in this browser (localStorage), and the small toggle buttons in the top
// bar that change them. A browser that refuses storage (private mode, a policy) still toggles, for the
// page's lifetime.

const memory = new Map();

export function readPref(key) {
  try {
    return localStorage.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

export function writePref(key, value) {
  memory.set(key, value);
  try {
    localStorage.setItem(key, value);
  } catch {
    // kept in memory only
  }
}

/** A toggle button in the top bar's preferences group (made once per page), its state in aria-pressed. */
export function toggleButton(id, { label, icon, pressed, onToggle }) {
  const bar = document.querySelector(".topbar");
  if (!bar) return null;
  let group = bar.querySelector(".prefs");
  if (!group) {
    group = document.createElement("span");
    group.className = "prefs";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "Preferences");
    const nav = bar.querySelector(".nav");
    if (nav) nav.after(group);
    else bar.append(group);
  }
  const button = document.createElement("button");
  button.type = "button";
  button.id = id;
  button.className = "pref-toggle";
  button.title = label;
  button.setAttribute("aria-label", label);
  button.innerHTML = `<span aria-hidden="true">${icon}</span>`;
  const show = (on) => button.setAttribute("aria-pressed", String(on));
  show(pressed);
  button.addEventListener("click", () => show(onToggle()));
  group.append(button);
  return button;
}
