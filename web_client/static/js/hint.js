// Hints in practice games: the Hint button, the hinted move marked on the board, the "Assisted" badge.
// The server computes every hint (with the whole deal, which this page never holds) and decides
// whether the game may have one; this module only asks, shows the answer and marks what it names.

import { askHint } from "./api.js";
import { describeMove } from "./moves.js";
import { pileById } from "./state.js";

const NO_LINE = "No winning line from here.";
const UNSETTLED = "No hint: the search could not settle this position within its budget.";
// describeMove tells a logged move in the past tense; a hint is advice.
const ADVICE = { paired: "pair", moved: "move", picked: "pick", dealt: "deal", turned: "turn", took: "take" };

/** The toolbar button and the status badge, added to the play page's skeleton. */
export const HINT_BUTTON = `<button type="button" data-hint hidden aria-keyshortcuts="h">Hint</button>`;
export const HINT_PARTS = `<span data-status="assisted" class="badge assisted" hidden
  title="A hint was taken in this game">Assisted</span>`;
export const HINT_LINE = `<p class="hint-text" data-hint-text role="status" hidden></p>`;

/** Hints exist only in practice games (a chosen deal, or a daily's deal again after its reveal). */
export const hintsOffered = (summary) => summary.kind === "practice";

function topCards(view, pileId, count) {
  const cards = pileById(view, pileId)?.cards ?? [];
  return count > 0 ? cards.slice(-count) : [];
}

/** The cards a hinted move names, read from the view the hint was given for. */
function hintedCards(view, move) {
  if (move.type === "pair") return [...topCards(view, `t${move.a}`, 1), ...topCards(view, `t${move.b}`, 1)];
  if (move.type === "move") return topCards(view, move.src, move.count ?? 1);
  if (move.type === "luck") return (pileById(view, "stock")?.cards ?? []).filter((card) => card.id === move.card);
  return [];
}

/** (pile id, how many of its top cards) for each pile a hinted move touches. */
function hintedPiles(move) {
  switch (move.type) {
    case "pair": return [[`t${move.a}`, 1], [`t${move.b}`, 1]];
    case "move": return [[move.src, move.count ?? 1], [move.dst, 0]];
    case "luck": return [[move.dst, 0]];
    case "deal": case "recycle": return [["stock", 0]];
    default: return [];
  }
}

/** The sentence for an answer: the move in words, or why there is none. */
export function hintText(view, answer) {
  if (answer.result === "unwinnable") return NO_LINE;
  if (answer.result !== "winnable" || !answer.move) return UNSETTLED;
  const { label } = describeMove({ move: answer.move, cards: hintedCards(view, answer.move) });
  return `Hint: ${label.replace(/^\w+/, (verb) => ADVICE[verb] ?? verb)}.`;
}

/** Ask the server; the answer is kept on the state until the game moves on. Throws ApiError. */
export async function requestHint(state) {
  const answer = await askHint(state.gameId, state.version);
  state.assisted = state.assisted || answer.assisted;
  state.hint = { ...answer, text: hintText(state.view, answer) };
  return state.hint;
}

/** After each render: the button, the badge, the hint line, and the hinted move marked on the board. */
export function renderHint(parts, state, offered) {
  const button = parts.actions.querySelector("[data-hint]");
  button.hidden = !offered || state.role !== "player";
  button.disabled = state.hintPending || state.pending !== null || state.view?.status !== "in_progress";
  parts.status.querySelector("[data-status=assisted]").hidden = !state.assisted;
  const current = state.hint && state.hint.version === state.version ? state.hint : null;
  const line = parts.hintLine;
  line.hidden = !current;
  line.textContent = current?.text ?? "";
  for (const marked of parts.actions.querySelectorAll(".hinted")) marked.classList.remove("hinted");
  if (!current?.move) return;
  for (const [pileId, count] of hintedPiles(current.move)) {
    const pile = parts.board.querySelector(`.pile[data-pile="${CSS.escape(pileId)}"]`);
    if (!pile) continue;
    pile.classList.add("hinted");
    pile.setAttribute("aria-label", `${pile.getAttribute("aria-label")}, in the hint`);
    for (const face of pile.querySelectorAll(".card.face")) {
      if (Number(face.dataset.depth) <= count) face.classList.add("hinted");
    }
  }
  if (current.move.type === "luck") {
    parts.board.querySelector(`.luck-tray [data-card-id="${current.move.card}"]`)?.classList.add("hinted");
  }
  parts.actions.querySelector(`[data-action="${current.move.type}"]`)?.classList.add("hinted");
}
