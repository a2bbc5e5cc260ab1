// The deal as it was dealt, shown once the game has ended (the server reveals it with the seed so
// anyone can check it). The server sends it as a view of the start with every card face up, in the
// same pile shapes as the game's own view, so the board renderer draws it like any board.

import { renderBoard } from "./render.js";

/** Fill the deal panel, or empty and hide it while the deal is still secret. */
export function renderDeal(panel, state) {
  const board = panel.querySelector(".deal-board");
  panel.hidden = !state.deal;
  if (!state.deal) {
    board.replaceChildren();
    return;
  }
  panel.querySelector(".deal-seed").textContent = state.seed ?? "";
  // Nobody plays on it: no selection, no targets, never the player's.
  renderBoard(board, { view: state.deal, role: "spectator", selection: null, pending: null }, { revealed: true });
}
