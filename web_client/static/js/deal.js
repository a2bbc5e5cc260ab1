// The deal as it was dealt, shown once the game has ended (the server reveals it with the seed so
// anyone can check it). The board's shape is each game's own; this walks it generically and shows
// every list of cards it finds, named by where it lies ("columns 3", "stock").

import { faceElement } from "./cards.js";

const isCard = (value) => value && typeof value === "object" && "id" in value && "rank" in value && "suit" in value;

/** "piles" -> "pile": item i of a list named in the plural is named in the singular. */
const singular = (path) => path.replace(/(\w{3,})s$/, "$1");

/** [{label, cards}] for every list of cards inside `value`, in order. */
export function cardRows(value, path = "", rows = []) {
  if (Array.isArray(value)) {
    if (value.length && value.every(isCard)) rows.push({ label: path || "cards", cards: value });
    else value.forEach((item, i) => cardRows(item, `${singular(path)} ${i + 1}`.trim(), rows));
  } else if (value && typeof value === "object" && !isCard(value)) {
    for (const [key, inner] of Object.entries(value)) {
      const name = key === "cards" ? path : `${path} ${key.replaceAll("_", " ")}`.trim();
      cardRows(inner, name, rows);
    }
  }
  return rows;
}

/** Fill the deal panel, or hide it while the deal is still secret. */
export function renderDeal(panel, state) {
  const deal = state.deal;
  panel.hidden = !deal;
  if (!deal || panel.dataset.shownFor === state.gameId) return;
  panel.dataset.shownFor = state.gameId;
  const list = panel.querySelector(".deal-rows");
  list.replaceChildren();
  for (const row of cardRows(deal)) {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "deal-label";
    name.textContent = row.label;
    const cards = document.createElement("span");
    cards.className = "deal-cards";
    cards.setAttribute("role", "list");
    cards.setAttribute("aria-label", row.label);
    for (const card of row.cards) {
      const face = faceElement(card);
      face.setAttribute("role", "listitem");
      cards.append(face);
    }
    item.append(name, cards);
    list.append(item);
  }
  panel.querySelector(".deal-seed").textContent = state.seed ?? "";
}
