// Card faces and backs, drawn by the project: one SVG symbol per suit (French and Wizard suits),
// assembled into card elements. Knows how cards look and are named, nothing about rules.

import { escapeHtml } from "./html.js";

const SYMBOLS = {
  hearts: '<path d="M50 90C22 68 5 50 5 31a22 22 0 0 1 45-9 22 22 0 0 1 45 9c0 19-17 37-45 59z"/>',
  diamonds: '<path d="M50 4 86 50 50 96 14 50z"/>',
  spades: '<path d="M50 4C36 28 8 40 8 62a20 20 0 0 0 37 10l-8 24h26l-8-24a20 20 0 0 0 37-10C92 40 64 28 50 4z"/>',
  clubs: '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="58" r="19"/><circle cx="73" cy="58" r="19"/>'
    + '<path d="M45 55 37 96h26l-8-41z"/>',
  moon: '<path d="M60 6a44 44 0 1 0 34 68A36 36 0 1 1 60 6z"/>',
  stars: '<path d="M50 4l12 33h35L69 58l11 35-30-21-30 21 11-35L3 37h35z"/>',
  fire: '<path d="M50 3c8 24 34 36 30 64a30 30 0 0 1-60 0c-3-18 10-28 14-42 6 12 10 16 14 19 4-12 3-25 2-41z"/>',
  ice: '<g fill="none" stroke="currentColor" stroke-width="9" stroke-linecap="round">'
    + '<path d="M50 6v88M12 28l76 44M12 72l76-44M38 12l12 12 12-12M38 88l12-12 12 12"/></g>',
  potions: '<path d="M39 5h22v9h-4v22l28 44a10 10 0 0 1-9 15H24a10 10 0 0 1-9-15l28-44V14h-4z"/>',
  spells: '<path d="M50 3c4 32 14 43 46 47-32 4-42 14-46 47-4-33-14-43-46-47 32-4 42-15 46-47z"/>',
  luck: '<circle cx="33" cy="33" r="18"/><circle cx="67" cy="33" r="18"/><circle cx="33" cy="64" r="18"/>'
    + '<circle cx="67" cy="64" r="18"/><path d="M50 50q10 30 30 46" fill="none" stroke="currentColor" stroke-width="7"/>',
  wizard: '<path d="M52 4 74 72H26z"/><ellipse cx="50" cy="76" rx="42" ry="11"/>'
    + '<path d="M47 30l3-8 3 8 8 1-6 5 2 8-7-4-7 4 2-8-6-5z" fill="#fff"/>',
};

const RANK_NAMES = { 0: "Wizard", 1: "Ace", 11: "Jack", 12: "Queen", 13: "King" };
const RANK_MARKS = { 0: "W", 1: "A", 11: "J", 12: "Q", 13: "K" };

/** Put the suit symbols into the page once, so every card can `<use>` them. */
export function installCardSprite(doc = document) {
  if (doc.getElementById("card-sprite")) return;
  const defs = Object.entries(SYMBOLS)
    .map(([name, body]) => `<symbol id="suit-${name}" viewBox="0 0 100 100">${body}</symbol>`)
    .join("");
  const holder = doc.createElement("div");
  holder.innerHTML = `<svg id="card-sprite" aria-hidden="true" style="display:none">${defs}</svg>`;
  doc.body.prepend(holder.firstChild);
}

export const rankName = (rank) => RANK_NAMES[rank] ?? String(rank);
export const rankMark = (rank) => RANK_MARKS[rank] ?? String(rank);

/** "Queen of hearts", "Wizard of moon". */
export function cardLabel(card) {
  return `${rankName(card.rank)} of ${card.suit}`;
}

function symbol(name, cls) {
  return `<svg class="${cls}" aria-hidden="true" focusable="false"><use href="#suit-${name}"></use></svg>`;
}

/** A face-up card element. Its colour comes from the suit (CSS: .suit-<name>). */
export function faceElement(card) {
  const el = document.createElement("div");
  el.className = `card face suit-${card.suit}${card.rank > 10 ? " court" : ""}${card.rank === 0 ? " wizard" : ""}`;
  el.dataset.cardId = card.id;
  el.dataset.rank = card.rank;
  el.dataset.suit = card.suit;
  el.setAttribute("aria-label", cardLabel(card));
  el.setAttribute("role", "img");
  const mark = escapeHtml(rankMark(card.rank));
  const known = Object.hasOwn(SYMBOLS, card.suit);
  const suit = known ? symbol(card.suit, "pip") : `<span class="pip">${escapeHtml(String(card.suit).slice(0, 2))}</span>`;
  const centre = card.rank === 0 && known
    ? `${symbol("wizard", "centre")}${symbol(card.suit, "centre-small")}`
    : card.rank > 10 && known
      ? `<span class="court-mark">${mark}</span>${symbol(card.suit, "centre-small")}`
      : known ? symbol(card.suit, "centre") : "";
  el.innerHTML =
    `<span class="corner top" aria-hidden="true"><span class="rank">${mark}</span>${suit}</span>`
    + `<span class="middle" aria-hidden="true">${centre}</span>`
    + `<span class="corner bottom" aria-hidden="true"><span class="rank">${mark}</span>${suit}</span>`;
  return el;
}

/** A face-down card: the project's own back (a CSS lattice with a medallion). */
export function backElement() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  el.innerHTML = '<span class="medallion"></span>';
  return el;
}
