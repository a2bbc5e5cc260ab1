// Short notices for the player: a toast at the foot of the page (every page has the #toast element).

export function toast(text, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

/** A server message as a sentence: capitalised, with a full stop. */
export function sentence(text) {
  const clean = String(text ?? "").trim();
  if (!clean) return "";
  const first = clean[0].toUpperCase() + clean.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
