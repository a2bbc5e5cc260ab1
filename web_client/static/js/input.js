// Player input on the board: click a source then a target, drag and drop, double-click to a
// foundation, and the keyboard (arrows between piles, Enter to select and to move, Escape).
// Every decision is made against view.legal; nothing here knows a game's rules.

import { cardLabel } from "./cards.js";
import {
  canPlay, countsFrom, intentFor, isSource, legalAction, legalMoves, pileById, targetsOf,
} from "./state.js";

const DRAG_THRESHOLD_PX = 6;
const DOUBLE_CLICK_MS = 450;

/** Point at a pile (optionally at a card depth, or a stock card): select, move or deal. */
export function activate(ctx, pileId, { depth = null, card = null } = {}) {
  const { state } = ctx;
  const view = state.view;
  if (!canPlay(state)) return;
  const selection = state.selection;
  if (selection && !(selection.pile === pileId && selection.card === card)) {
    const intent = intentFor(view, selection, pileId);
    if (intent) {
      ctx.send(intent);
      return;
    }
  }
  if (pileId === "stock" && card === null) {
    const action = legalAction(view, "deal") ?? legalAction(view, "recycle");
    if (action) {
      ctx.send(action);
      return;
    }
  }
  if (selection && selection.pile === pileId && selection.card === card
      && (depth === null || depth === selection.count)) {
    select(ctx, null);
    return;
  }
  if (isSource(view, pileId, card)) {
    const counts = countsFrom(view, pileId);
    const count = card !== null ? 1 : counts.includes(depth) ? depth : Math.max(1, ...counts);
    select(ctx, { pile: pileId, count, card });
    return;
  }
  select(ctx, null);
  refuse(ctx, "No move from there.");
}

/** A refused click or drop: the page's feedback (a shake and the words) when it has one, else spoken. */
function refuse(ctx, text) {
  (ctx.refuse ?? ctx.announce)(text);
}

function describeTargets(ctx) {
  const targets = [...targetsOf(ctx.state.view, ctx.state.selection)];
  return targets.length ? `Targets: ${targets.map((id) => pileName(ctx.state.view, id)).join(", ")}.` : "No target.";
}

export function pileName(view, id) {
  const pile = pileById(view, id);
  if (!pile) return id;
  const sameKind = view.piles.filter((p) => p.kind === pile.kind);
  if (sameKind.length === 1) return pile.kind;
  const word = pile.kind === "tableau" ? "pile" : pile.kind;
  return `${word} ${sameKind.indexOf(pile) + 1}`;
}

function select(ctx, selection) {
  ctx.state.selection = selection;
  ctx.render();
  if (!selection) return;
  const pile = pileById(ctx.state.view, selection.pile);
  const cards = selection.card !== null
    ? pile.cards.filter((c) => c.id === selection.card)
    : pile.cards.slice(-selection.count);
  const what = cards.length === 1 ? cardLabel(cards[0]) : `${cards.length} cards from ${cardLabel(cards[0])}`;
  ctx.announce(`Selected ${what}. ${describeTargets(ctx)}`);
}

/** Where a DOM element points: its pile, and the depth or stock card it stands for. */
function pointOf(element) {
  const cardEl = element.closest(".card");
  const pileEl = element.closest("[data-pile]");
  if (!pileEl) return null;
  const pile = pileEl.dataset.pile;
  if (pileEl.classList.contains("card")) return { pile, depth: null, card: Number(pileEl.dataset.cardId) };
  const depth = cardEl?.dataset.depth ? Number(cardEl.dataset.depth) : null;
  return { pile, depth, card: null };
}

function sendToFoundation(ctx, point) {
  const view = ctx.state.view;
  const move = legalMoves(view).find((m) => m.src === point.pile && m.card === point.card
    && pileById(view, m.dst)?.kind === "foundation");
  if (!move || !canPlay(ctx.state)) return false;
  ctx.send(move.intent);
  return true;
}

function startDrag(ctx, drag, event) {
  const { point, origin } = drag;
  const counts = countsFrom(ctx.state.view, point.pile);
  const count = point.card !== null ? 1 : counts.includes(point.depth) ? point.depth : null;
  if (count === null && point.card === null) return false;
  ctx.state.selection = { pile: point.pile, count, card: point.card };
  const pileEl = origin.closest(".pile") ?? origin;
  const cards = point.card !== null ? [origin] : [...pileEl.querySelectorAll(".card.face")].slice(-count);
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  const board = pileEl.closest(".board");
  for (const name of ["--cw", "--ch"]) ghost.style.setProperty(name, board.style.getPropertyValue(name));
  const first = cards[0].getBoundingClientRect();
  for (const card of cards) {
    const rect = card.getBoundingClientRect();
    const copy = card.cloneNode(true);
    copy.style.transform = `translate(${rect.left - first.left}px, ${rect.top - first.top}px)`;
    ghost.append(copy);
  }
  drag.offset = { x: event.clientX - first.left, y: event.clientY - first.top };
  drag.ghost = ghost;
  document.body.append(ghost);
  ctx.render();
  return true;
}

function attachDrag(ctx, board) {
  let drag = null;
  let suppressClick = false;
  board.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !canPlay(ctx.state)) return;
    const origin = event.target.closest(".card.face");
    const point = origin && pointOf(origin);
    if (!point || !isSource(ctx.state.view, point.pile, point.card)) return;
    drag = { point, origin, x: event.clientX, y: event.clientY, ghost: null };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD_PX) return;
      if (!startDrag(ctx, drag, event)) {
        drag = null;
        return;
      }
    }
    drag.ghost.style.left = `${event.clientX - drag.offset.x}px`;
    drag.ghost.style.top = `${event.clientY - drag.offset.y}px`;
  });
  window.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const { ghost } = drag;
    drag = null;
    if (!ghost) return;
    ghost.remove();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    // Only a pile of this board: the revealed deal's board below has piles of the same names.
    const target = under && board.contains(under) ? under.closest("[data-pile]")?.dataset.pile : undefined;
    const intent = target && intentFor(ctx.state.view, ctx.state.selection, target);
    const from = ctx.state.selection?.pile;
    if (intent) ctx.send(intent);
    else select(ctx, null);
    if (!intent && target && target !== from) refuse(ctx, `That cannot go on ${pileName(ctx.state.view, target)}.`);
  });
  // Double clicks are counted here, not by "dblclick": the first click re-renders the board, and
  // the browser only reports a dblclick when both clicks land on the same element.
  let lastClick = null;
  board.addEventListener("click", (event) => {
    if (suppressClick) return;
    const point = pointOf(event.target);
    if (!point) return;
    const key = `${point.pile}:${point.depth}:${point.card}`;
    const now = performance.now();
    const double = lastClick?.key === key && now - lastClick.at < DOUBLE_CLICK_MS;
    lastClick = { key, at: now };
    if (double && event.target.closest(".card.face") && sendToFoundation(ctx, point)) return;
    activate(ctx, point.pile, point);
  });
}

function focusables(board) {
  return [...board.querySelectorAll("[data-focus-key]")];
}

/** The focusable nearest in x in the row above or below (rows: top piles, luck tray, tableau). */
function verticalNeighbour(board, current, direction) {
  const rows = [...board.children].filter((row) => row.querySelector("[data-focus-key]"));
  const index = rows.findIndex((row) => row.contains(current));
  const row = rows[index + direction];
  if (!row) return null;
  const x = current.getBoundingClientRect().left;
  return [...row.querySelectorAll("[data-focus-key]")]
    .reduce((best, el) => (Math.abs(el.getBoundingClientRect().left - x)
      < Math.abs(best.getBoundingClientRect().left - x) ? el : best));
}

function changeCount(ctx, step) {
  const selection = ctx.state.selection;
  const counts = countsFrom(ctx.state.view, selection.pile);
  const next = counts[counts.indexOf(selection.count) + step];
  if (next !== undefined) select(ctx, { ...selection, count: next });
}

function attachKeyboard(ctx, board) {
  board.addEventListener("keydown", (event) => {
    const current = event.target.closest("[data-focus-key]");
    if (!current) return;
    const list = focusables(board);
    const at = list.indexOf(current);
    const selection = ctx.state.selection;
    const here = pointOf(current);
    const onSelected = selection && here && selection.pile === here.pile && here.card === null;
    let next = null;
    if (event.key === "Enter" || event.key === " ") {
      if (here) activate(ctx, here.pile, { depth: onSelected ? selection.count : null, card: here.card });
    } else if (event.key === "ArrowRight") next = list[at + 1];
    else if (event.key === "ArrowLeft") next = list[at - 1];
    else if ((event.key === "ArrowUp" || event.key === "ArrowDown") && onSelected && selection.card === null) {
      changeCount(ctx, event.key === "ArrowUp" ? 1 : -1);
    } else if (event.key === "ArrowUp") next = verticalNeighbour(board, current, -1);
    else if (event.key === "ArrowDown") next = verticalNeighbour(board, current, 1);
    else if (event.key === "Escape") select(ctx, null);
    else if (event.key === "Home") next = list[0];
    else if (event.key === "End") next = list[list.length - 1];
    else return;
    event.preventDefault();
    next?.focus();
  });
}

export function attachInput(ctx, board) {
  attachDrag(ctx, board);
  attachKeyboard(ctx, board);
}
