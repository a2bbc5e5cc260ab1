// DOM from the view: piles laid out by kind (stock, waste, foundations and cleared runs on top,
// the tableau below), cards fanned to fit the window, selection and legal targets highlighted.
// The same renderer draws a revealed deal (every card face up, the stock's cards in order).

import { backElement, cardLabel, faceElement } from "./cards.js";
import { boardGeometry } from "./layout.js";
import { elapsedNow, isSource, legalAction, targetsOf } from "./state.js";

const TOP_KINDS = ["stock", "waste", "foundation", "cleared"];
const KIND_NAMES = { tableau: "pile", foundation: "foundation", stock: "stock", waste: "waste", cleared: "cleared run" };

export function formatTime(ms) {
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "pile 3, 2 face-down cards, Queen of hearts on top" — what a screen reader says for a pile. */
export function pileLabel(pile, number, revealed = false) {
  const name = pile.kind === "stock" || pile.kind === "waste"
    ? KIND_NAMES[pile.kind] : `${KIND_NAMES[pile.kind] ?? pile.kind} ${number}`;
  const parts = [name];
  const total = pile.down + pile.cards.length;
  if (total === 0) return `${name}, empty`;
  if (pile.kind === "stock") {
    const shown = revealed ? ", listed below in order" : pile.cards.length ? ", shown for a pick" : "";
    return `${name}, ${plural(total, "card")}${shown}`;
  }
  if (pile.down) parts.push(plural(pile.down, "face-down card"));
  if (pile.cards.length) {
    const top = pile.cards[pile.cards.length - 1];
    parts.push(pile.kind === "tableau" && pile.cards.length > 1
      ? `${pile.cards.length} face-up cards from ${cardLabel(pile.cards[0])} to ${cardLabel(top)}`
      : `${cardLabel(top)} on top`);
  }
  if (pile.kind !== "tableau") parts.push(plural(total, "card"));
  return parts.join(", ");
}

function pileElement(pile, number, state, targets, revealed) {
  const el = document.createElement("div");
  el.className = `pile kind-${pile.kind}`;
  el.dataset.pile = pile.id;
  el.dataset.focusKey = `pile:${pile.id}`;
  el.tabIndex = 0;
  el.setAttribute("role", "group");
  const selection = state.selection;
  const label = [pileLabel(pile, number, revealed)];
  if (selection?.pile === pile.id && selection.card === null) {
    el.classList.add("selected");
    label.push("selected");
  }
  if (targets.has(pile.id)) {
    el.classList.add("target");
    label.push("press Enter to move here");
  }
  el.setAttribute("aria-label", label.join(", "));
  if (!selection && state.role === "player" && isSource(state.view, pile.id)) el.classList.add("playable");
  if (pile.down + pile.cards.length === 0) el.classList.add("empty");
  return el;
}

function place(card, x, y, z) {
  card.style.transform = `translate(${x}px, ${y}px)`;
  card.style.zIndex = String(z);
  return card;
}

function fanTableau(el, pile, cw, ch, maxHeight, selection) {
  let downStep = ch * 0.13;
  let upStep = ch * 0.27;
  const needed = ch + pile.down * downStep + Math.max(0, pile.cards.length - 1) * upStep;
  if (needed > maxHeight && needed > ch) {
    const squeeze = Math.max(0.25, (maxHeight - ch) / (needed - ch));
    downStep *= squeeze;
    upStep *= squeeze;
  }
  let y = 0;
  let z = 1;
  for (let i = 0; i < pile.down; i += 1, y += downStep) el.append(place(backElement(), 0, y, z++));
  const chosen = selection?.pile === pile.id ? (selection.count ?? 1) : 0;
  pile.cards.forEach((card, i) => {
    const face = faceElement(card);
    face.dataset.depth = pile.cards.length - i; // 1 = top card: the group size a click here picks
    if (pile.cards.length - i <= chosen) face.classList.add("selected");
    el.append(place(face, 0, y, z++));
    if (i < pile.cards.length - 1) y += upStep;
  });
  el.style.height = `${Math.max(ch, y + ch)}px`;
}

function stackPile(el, pile, cw, ch, selection, canRecycle, revealed) {
  // In play the stock always looks like a stock: its visible cards (a luck pick) are laid out in the
  // tray. Revealed, it shows the card that comes off next, and the tray lists them all.
  const stockShown = revealed ? pile.cards.slice(-1) : [];
  const shown = pile.kind === "waste" ? pile.cards.slice(-3) : pile.kind === "stock" ? stockShown : pile.cards.slice(-1);
  const total = pile.down + pile.cards.length;
  if (pile.kind === "stock" && total && !revealed) el.append(place(backElement(), 0, 0, 1));
  shown.forEach((card, i) => {
    const face = faceElement(card);
    face.dataset.depth = shown.length - i;
    if (selection?.pile === pile.id && i === shown.length - 1) face.classList.add("selected");
    el.append(place(face, pile.kind === "waste" ? i * cw * 0.3 : 0, 0, i + 2));
  });
  if ((total > 1 && pile.kind !== "cleared") || (pile.kind === "stock" && total)) { // a cleared run is always whole
    const badge = document.createElement("span");
    badge.className = "count";
    badge.setAttribute("aria-hidden", "true");
    badge.textContent = String(total);
    el.append(badge);
  }
  if (pile.kind === "stock" && total === 0 && canRecycle) el.classList.add("recycle-mark");
}

/** The stock's cards while the view shows them (a luck pick): each is a choice. */
function luckTray(stock, state) {
  const tray = document.createElement("div");
  tray.className = "luck-tray";
  tray.setAttribute("role", "group");
  tray.setAttribute("aria-label", `stock cards to pick from, ${plural(stock.cards.length, "card")}`);
  for (const card of stock.cards) {
    const face = faceElement(card);
    face.tabIndex = 0;
    face.setAttribute("role", "button");
    face.setAttribute("aria-label", `${cardLabel(card)}, in the stock`);
    face.dataset.pile = "stock";
    face.dataset.focusKey = `stock:${card.id}`;
    if (state.selection?.card === card.id) face.classList.add("selected");
    if (isSource(state.view, "stock", card.id)) face.classList.add("playable");
    tray.append(face);
  }
  return tray;
}

/** A revealed stock's cards, bottom to top (the last comes off first): to look at, not to pick. */
function stockTray(stock) {
  const tray = document.createElement("div");
  tray.className = "stock-tray";
  tray.setAttribute("role", "list");
  tray.setAttribute("aria-label", `the stock as dealt, ${plural(stock.cards.length, "card")}, the last one comes off first`);
  for (const card of stock.cards) {
    const face = faceElement(card);
    face.setAttribute("role", "listitem");
    tray.append(face);
  }
  return tray;
}

/**
 * Rebuild the board; focus stays on the pile or card that had it. `revealed`: the view is a deal
 * shown with every card face up (engine.revealed_view), drawn whole and never played on.
 * `unseen`: ids of cards shown face up that the player could not see at that point (a replay's
 * step); they are drawn marked, so a viewer tells what the player knew from what was hidden.
 */
export function renderBoard(board, state, { revealed = false, unseen = null } = {}) {
  const view = state.view;
  // Only this board's own focus: the page draws a second board (the revealed deal) with the same keys.
  const focusKey = board.contains(document.activeElement) ? document.activeElement.dataset?.focusKey : undefined;
  board.replaceChildren();
  if (!view) return;
  board.classList.toggle("busy", state.pending !== null);
  board.classList.toggle("spectating", state.role === "spectator");
  // Stock and waste at the left, foundations and cleared runs at the right, whatever the order sent.
  const top = view.piles.filter((p) => TOP_KINDS.includes(p.kind))
    .sort((a, b) => TOP_KINDS.indexOf(a.kind) - TOP_KINDS.indexOf(b.kind));
  const tableau = view.piles.filter((p) => p.kind === "tableau");
  const others = view.piles.filter((p) => p.kind !== "tableau" && !TOP_KINDS.includes(p.kind));
  const { cw, ch } = boardGeometry(board, tableau.length, top.length + others.length + 1);
  const targets = state.role === "player" && !revealed ? targetsOf(view, state.selection) : new Set();
  const numbers = {};
  const numberOf = (pile) => (numbers[pile.kind] = (numbers[pile.kind] ?? 0) + 1);

  if (top.length + others.length) {
    const row = document.createElement("div");
    row.className = "row top-row";
    // Foundations and cleared runs as one group at the right: on a phone it wraps below as a whole.
    const group = document.createElement("div");
    group.className = "pile-group right-side";
    for (const pile of [...top, ...others]) {
      const el = pileElement(pile, numberOf(pile), state, targets, revealed);
      stackPile(el, pile, cw, ch, state.selection, legalAction(view, "recycle") !== null, revealed);
      (pile.kind === "foundation" || pile.kind === "cleared" ? group : row).append(el);
    }
    if (group.childElementCount) row.append(group);
    board.append(row);
    const stock = top.find((p) => p.kind === "stock");
    if (stock?.cards.length) board.append(revealed ? stockTray(stock) : luckTray(stock, state));
  }
  const row = document.createElement("div");
  row.className = "row tableau-row";
  const rowTop = board.getBoundingClientRect().top + (board.firstChild?.offsetHeight ?? 0);
  const maxHeight = revealed ? Infinity : Math.max(ch * 3, window.innerHeight - rowTop - 40);
  for (const pile of tableau) {
    const el = pileElement(pile, numberOf(pile), state, targets, revealed);
    fanTableau(el, pile, cw, ch, maxHeight, state.selection);
    row.append(el);
  }
  board.append(row);
  if (unseen?.size) markUnseen(board, unseen);
  if (focusKey) board.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
}

function markUnseen(board, unseen) {
  for (const face of board.querySelectorAll(".card.face")) {
    if (!unseen.has(Number(face.dataset.cardId))) continue;
    face.classList.add("unseen");
    face.setAttribute("aria-label", `${face.getAttribute("aria-label")}, face down for the player then`);
  }
}

const STATUS_TEXT = { in_progress: "In play", won: "Won", lost: "No moves left", abandoned: "Resigned" };

export function renderStatus(el, state) {
  const view = state.view;
  if (!view) {
    el.querySelector("[data-status=state]").textContent = "Loading the game…";
    return;
  }
  const undos = view.undos ? `, ${plural(view.undos, "undo")}` : "";
  const extras = [...(view.notes ?? [])]; // the engine's own words for the game's state
  el.querySelector("[data-status=state]").textContent = STATUS_TEXT[view.status] ?? view.status;
  el.querySelector("[data-status=moves]").textContent = `${plural(view.moves, "move")}${undos}`;
  el.querySelector("[data-status=time]").textContent = formatTime(elapsedNow(state));
  const dealNumber = state.dealNumber ?? (view.status !== "in_progress" ? state.seed : null);
  if (dealNumber !== null) extras.push(`deal number ${dealNumber}`);
  el.querySelector("[data-status=info]").textContent = extras.join(" · ");
  el.querySelector("[data-status=role]").textContent = state.role === "spectator" ? "Watching" : "";
  el.dataset.state = view.status;
}

export function renderClock(el, state) {
  const time = el.querySelector("[data-status=time]");
  if (time && state.view) time.textContent = formatTime(elapsedNow(state));
}
