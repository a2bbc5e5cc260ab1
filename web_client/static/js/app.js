// Routing by location hash: "#/" the start page (the daily hub, a new casual or practice game, my
// games), "#/play/<game id>" the play page. The leaderboard and statistics are pages of their own.

import { confirmAbandon } from "./abandon.js";
import { mountAccount } from "./account.js";
import { createGame, identity, myGames } from "./api.js";
import { failedText, whileBusy } from "./busy.js";
import { installCardSprite } from "./cards.js";
import { mountDailyHub } from "./daily.js";
import { defaultPreset, gameInfo, loadCatalog, presetTitle, withoutDefaults } from "./games.js";
import { escapeHtml } from "./html.js";
import { toast } from "./notice.js";
import { openPlayPage } from "./play.js";
import { formatTime } from "./render.js";
import { mountSoundToggle } from "./sound.js";

const app = document.getElementById("app");
let leavePage = () => {};

export { toast };

export function setConnection(status) {
  const el = document.getElementById("connection");
  // Only the play page holds a live connection: elsewhere ("idle") the indicator shows nothing at all.
  const text = { idle: "", connecting: "Connecting…", online: "Connected",
    reconnecting: "Offline — connecting…", failed: "Not connected to this game" }[status] ?? status;
  el.dataset.connection = status;
  el.querySelector(".text").textContent = text;
}

/** Start a new game and open it; keeps the chosen variant without null ("default") fields. A new game
 * resigns an unfinished casual or practice one: the player is asked first (unless `asked`: the caller
 * did), and may stay with it. True when the page is leaving for the new game. */
export async function startGame(gameId, variant, seed = null, { asked = false } = {}) {
  if (!asked && !(await confirmAbandon(`a new game of ${gameInfo(gameId).title}`))) return false;
  const summary = await createGame(gameId, withoutDefaults(variant), seed);
  location.hash = `#/play/${summary.id}`;
  return true;
}

/** The game's presets as one menu; a game with a single form has nothing to choose. */
function variantFields(game) {
  if (game.presets.length < 2) return '<p class="hint">This game has a single form.</p>';
  const chosen = defaultPreset(game);
  return `
    <label class="field">Variant
      <select name="preset">
        ${game.presets.map((preset, i) => `
          <option value="${i}" ${i === chosen ? "selected" : ""}>${escapeHtml(preset.title)}</option>`).join("")}
      </select>
    </label>`;
}

function readVariant(form, game) {
  const menu = form.elements.preset;
  return menu ? game.presets[Number(menu.value)].variant : game.default_variant;
}

function summaryItem(summary) {
  const when = new Date(summary.created_at_ms).toLocaleString();
  const status = { in_progress: "in play", won: "won", lost: "lost", abandoned: "resigned" }[summary.status]
    ?? summary.status;
  const time = summary.elapsed_ms == null ? "" : ` · ${formatTime(summary.elapsed_ms)}`;
  const variant = escapeHtml(presetTitle(summary.game, summary.variant));
  const deal = summary.deal_number == null ? "" : ` · deal ${escapeHtml(summary.deal_number)}`;
  const kind = summary.kind && summary.kind !== "casual" ? `<span class="badge kind">${escapeHtml(summary.kind)}</span>` : "";
  // The server sends the seed exactly when the deal may be public: then the replay is too.
  const replay = summary.seed == null ? "" : `<a class="replay-link" href="replay.html?game=${encodeURIComponent(summary.id)}"
    data-replay-link="${escapeHtml(summary.id)}" aria-label="Replay of this game">Replay</a>`;
  return `<li><a href="#/play/${encodeURIComponent(summary.id)}" data-game-link="${escapeHtml(summary.id)}">
    <strong>${escapeHtml(gameInfo(summary.game).title)}</strong> <span class="variant">${variant}</span>
    <span class="badge status-${escapeHtml(summary.status)}">${escapeHtml(status)}</span>${kind}
    <span class="meta">${escapeHtml(summary.moves)} moves${time}${deal} · ${when}</span></a>${replay}</li>`;
}

async function showStartPage(current) {
  let games;
  try {
    games = await loadCatalog();
  } catch (error) {
    if (!current()) return () => {};
    app.innerHTML = `<section class="panel"><h1>New game</h1><p class="reason"></p>
      <p><button type="button" class="retry">Try again</button></p></section>`;
    app.querySelector(".reason").textContent = `The server's games could not be loaded: ${error.message}`;
    app.querySelector(".retry").addEventListener("click", () => route());
    return () => {};
  }
  if (!current()) return () => {}; // the player went elsewhere while the game list loaded
  app.innerHTML = `
    <section id="daily" class="daily" aria-labelledby="daily-title"><p class="hint">Loading today's challenges…</p></section>
    <section class="start">
      <form id="new-game" class="panel">
        <h2>New game</h2>
        <fieldset class="game-choice"><legend>Game</legend>
          ${games.map((game, i) => `
            <label class="game-option">
              <input type="radio" name="game" value="${escapeHtml(game.id)}" ${i === 0 ? "checked" : ""}>
              <span class="title">${escapeHtml(game.title)}</span><span class="blurb">${escapeHtml(game.blurb)}</span>
            </label>`).join("")}
        </fieldset>
        <div class="variant-fields"></div>
        <label class="field">Deal number (optional)
          <input name="seed" type="number" min="0" step="1" inputmode="numeric" placeholder="random">
        </label>
        <button type="submit" class="primary">Deal</button>
      </form>
      <section class="panel my-games" aria-labelledby="my-games-title">
        <h2 id="my-games-title">My games</h2>
        <ul id="my-games-list"><li class="hint">Loading…</li></ul>
      </section>
    </section>`;
  const form = app.querySelector("#new-game");
  const chosen = () => gameInfo(form.elements.game.value);
  const showVariant = () => { form.querySelector(".variant-fields").innerHTML = variantFields(chosen()); };
  form.addEventListener("change", (event) => { if (event.target.name === "game") showVariant(); });
  showVariant();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seedText = form.elements.seed.value.trim();
    try {
      // Digits go as they were typed (a BigInt): a 64-bit deal number is more than a JS number holds exactly.
      const seed = seedText === "" ? null : /^\d+$/.test(seedText) ? BigInt(seedText) : Number(seedText);
      // One deal at a time: a second game would resign the first (busy.js).
      await whileBusy(form, "#new-game button[type=submit]", () => startGame(chosen().id, readVariant(form, chosen()), seed));
    } catch (error) {
      toast(failedText("The game did not start", error), "error");
    }
  });
  const hub = mountDailyHub(app.querySelector("#daily"));
  try {
    await identity();
    const mine = await myGames();
    const list = app.querySelector("#my-games-list");
    if (list) list.innerHTML = mine.length ? mine.map(summaryItem).join("") : '<li class="hint">No games yet.</li>';
  } catch (error) {
    toast(`Could not load your games: ${error.message}`, "error");
  }
  return hub.leave;
}

let routeCount = 0;

async function route() {
  leavePage();
  leavePage = () => {};
  const mine = ++routeCount; // a newer hash change while this page loads wins
  const match = location.hash.match(/^#\/play\/(.+)$/);
  const current = () => mine === routeCount;
  let leave;
  if (match) {
    leave = await openPlayPage(app, decodeURIComponent(match[1]), { toast, setConnection, startGame, current });
  } else {
    setConnection("idle");
    leave = await showStartPage(current);
  }
  if (mine !== routeCount) {
    leave();
    return;
  }
  leavePage = leave;
  app.focus({ preventScroll: true });
}

installCardSprite();
mountSoundToggle(); // the game pages' sound effects: the toggle stays in the top bar on every route
window.addEventListener("hashchange", route);
// After a sign-up, sign-in or sign-out the page is drawn again for the player it now is.
mountAccount({ onChange: () => route() });
route();
