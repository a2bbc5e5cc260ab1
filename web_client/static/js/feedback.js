// What the player sees and hears besides the board itself: a refused move or a bad drop shakes the board
// and says why in a line above it; cards that changed place glide there from where they were (each
// card drawn anew starts at its old place and slides home: a CSS transition of `translate`). No motion
// under prefers-reduced-motion (checked here, and arena's CSS turns the transitions off too).

import { playSound } from "./sound.js";

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const MESSAGE_MS = 3000;

/** Shake the board and, with a text, show it above the board for a few seconds. */
export function refuse(board, text = null) {
  playSound("refused");
  if (text) showMessage(board, text);
  if (reducedMotion.matches) return;
  board.classList.remove("shake");
  void board.offsetWidth; // a new animation even when the last one has not ended
  board.classList.add("shake");
  board.addEventListener("animationend", () => board.classList.remove("shake"), { once: true });
}

function showMessage(board, text) {
  let line = board.previousElementSibling?.classList.contains("move-message") ? board.previousElementSibling : null;
  if (!line) {
    line = document.createElement("p");
    line.className = "move-message";
    line.setAttribute("aria-hidden", "true"); // the page's announcer already says it to screen readers
    board.before(line);
  }
  line.textContent = text;
  line.hidden = false;
  clearTimeout(line.timer);
  line.timer = setTimeout(() => { line.hidden = true; }, MESSAGE_MS);
}

/** Draw the board with `draw()`; every face-up card that moved glides from its old place to its new one. */
export function glide(board, draw) {
  const before = new Map();
  if (!reducedMotion.matches) {
    for (const card of board.querySelectorAll(".card.face[data-card-id]")) {
      before.set(card.dataset.cardId, card.getBoundingClientRect());
    }
  }
  draw();
  if (!before.size) return;
  const moved = [];
  for (const card of board.querySelectorAll(".card.face[data-card-id]")) {
    const was = before.get(card.dataset.cardId);
    if (!was) continue;
    const now = card.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    card.style.translate = `${dx}px ${dy}px`;
    moved.push(card);
  }
  if (!moved.length) return;
  void board.offsetWidth; // the old places are the transitions' start
  for (const card of moved) {
    card.classList.add("glide");
    card.style.translate = "0px 0px";
    card.addEventListener("transitionend", () => card.classList.remove("glide"), { once: true });
  }
}

/** A sound for what the server just said (sounds are off unless the player turned them on). */
export function soundFor(reason, status) {
  if (reason === "accepted") playSound("move");
  if (status === "won" || status === "lost") playSound(status);
}
