// Asks first: a new casual or practice game resigns the player's unfinished casual or practice game
// (the server does it, and it counts as a loss), so before starting one the page names that game
// (title, variant, moves) and lets the player go back to it instead. Daily attempts and race games
// are never abandoned that way, so they are not asked about.

import { myGames } from "./api.js";
import { gameInfo, loadCatalog, presetTitle } from "./games.js";

const ABANDONED_KINDS = new Set(["casual", "practice"]);

/** My newest unfinished casual or practice game (what a new one would resign), and how many there are. */
export async function unfinishedGames() {
  const mine = await myGames();
  return mine.filter((game) => ABANDONED_KINDS.has(game.kind ?? "casual") && game.status === "in_progress");
}

function dialogElement() {
  let dialog = document.getElementById("abandon-dialog");
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = "abandon-dialog";
  dialog.setAttribute("aria-labelledby", "abandon-title");
  dialog.setAttribute("aria-describedby", "abandon-text");
  dialog.innerHTML = `
    <form method="dialog">
      <h2 id="abandon-title"></h2>
      <p id="abandon-text"></p>
      <div class="dialog-actions">
        <button value="go" class="primary" data-abandon="go">Resign it and start</button>
        <button value="resume" data-abandon="resume">Go back to it</button>
        <button value="cancel" data-abandon="cancel">Cancel</button>
      </div>
    </form>`;
  document.body.append(dialog);
  return dialog;
}

function describe(game, others) {
  const title = gameInfo(game.game).title;
  const variant = presetTitle(game.game, game.variant);
  const moves = `${game.moves} ${game.moves === 1 ? "move" : "moves"}`;
  const kind = game.kind === "practice" ? "practice game" : "game";
  const more = others ? ` (and ${others} more unfinished)` : "";
  const started = new Date(game.created_at_ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return `Your ${kind} of ${title} (${variant}, ${moves}, started ${started}) is not finished${more}.`;
}

/**
 * Resolve true when nothing would be abandoned or the player agrees; false when they cancel or go
 * back to the unfinished game (the page then opens it). `what` names the new game, e.g. "a new game".
 */
export async function confirmAbandon(what = "a new game") {
  const open = await unfinishedGames();
  if (!open.length) return true;
  await loadCatalog().catch(() => null); // without it the game is named by its id
  const [game] = open;
  const dialog = dialogElement();
  dialog.dataset.gameId = game.id;
  dialog.querySelector("#abandon-title").textContent = `Resign your unfinished ${gameInfo(game.game).title}?`;
  const named = document.createElement("strong");
  named.textContent = what;
  dialog.querySelector("#abandon-text")
    .replaceChildren(`${describe(game, open.length - 1)} Starting `, named, " resigns it, and it counts as a loss.");
  dialog.returnValue = "";
  dialog.showModal();
  dialog.querySelector("[data-abandon=resume]").focus();
  const answer = await new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
  });
  if (answer === "resume") location.href = `./#/play/${encodeURIComponent(game.id)}`;
  return answer === "go";
}
