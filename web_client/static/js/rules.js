// The rules pages. rules.html lists the server's games (GET /api/catalog); rules.html?game=<id> shows
// that game's rules: a page of the folder rules/, written per game in players' words, whose small card
// pictures (data-cards="7-hearts back …") are drawn here by cards.js. The play page shows the same
// page's short "how to play" part (howToPlay). A game with no page of its own shows its blurb.

import { backElement, installCardSprite, faceElement } from "./cards.js";
import { gameInfo, loadCatalog } from "./games.js";
import { escapeHtml } from "./html.js";

const RANKS = { W: 0, A: 1, J: 11, Q: 12, K: 13 };

export const rulesHref = (gameId) => `rules.html?game=${encodeURIComponent(gameId)}`;

/** One game's rules page (HTML text), or null when it has none. */
async function rulesText(gameId) {
  if (!/^[a-z0-9-]+$/.test(gameId)) return null; // a file name of the folder, nothing else
  const response = await fetch(`rules/${gameId}.html`);
  return response.ok ? response.text() : null;
}

function cardOf(token) {
  const at = token.lastIndexOf("-");
  const rank = token.slice(0, at);
  return { id: -1, rank: RANKS[rank] ?? Number(rank), suit: token.slice(at + 1) };
}

/** Draw every `[data-cards]` picture under `root`: the words say it, so the cards themselves are hidden. */
export function drawPictures(root) {
  installCardSprite();
  for (const holder of root.querySelectorAll("[data-cards]")) {
    for (const token of holder.dataset.cards.split(/\s+/).filter(Boolean)) {
      const card = token === "back" ? backElement() : faceElement(cardOf(token));
      card.removeAttribute("role");
      card.removeAttribute("aria-label");
      card.setAttribute("aria-hidden", "true");
      holder.append(card);
    }
    if (holder.hasAttribute("aria-label")) holder.setAttribute("role", "img");
  }
}

/** Add a "How to play" panel to the play page; filled with the game's short part when first opened. */
export function howToPlay(section, gameId) {
  const details = document.createElement("details");
  details.className = "panel how-to-play";
  details.innerHTML = `<summary>How to play</summary><div data-how-to-play></div>
    <p><a href="${rulesHref(gameId)}">All the rules of ${escapeHtml(gameInfo(gameId).title)}</a></p>`;
  section.append(details);
  details.addEventListener("toggle", async () => {
    const body = details.querySelector("[data-how-to-play]");
    if (!details.open || body.dataset.loaded) return;
    body.dataset.loaded = "1";
    const text = await rulesText(gameId).catch(() => null);
    const page = document.createElement("div");
    page.innerHTML = text ?? "";
    const part = page.querySelector("#how-to-play");
    if (!part) {
      body.textContent = gameInfo(gameId).blurb;
      return;
    }
    part.querySelector("h2")?.remove(); // the summary is its title
    part.removeAttribute("id");
    drawPictures(part);
    body.replaceChildren(part);
  });
  return details;
}

function gameList(games, chosen) {
  return `<nav class="rules-games" aria-label="Games"><ul>${games.map((game) => `
    <li><a href="${rulesHref(game.id)}" ${game.id === chosen ? 'aria-current="page"' : ""}>${escapeHtml(game.title)}</a></li>`).join("")}
  </ul></nav>`;
}

async function showRules(app) {
  const chosen = new URLSearchParams(location.search).get("game");
  let games;
  try {
    games = await loadCatalog();
  } catch (error) {
    app.innerHTML = '<section class="panel"><h1>Rules</h1><p class="reason"></p></section>';
    app.querySelector(".reason").textContent = `The games could not be loaded: ${error.message}`;
    return;
  }
  if (!chosen) {
    document.title = "Rules · Patience Arena";
    app.innerHTML = `<h1>Rules</h1><p class="sub">How each game is played. Pick one:</p>
      <ul class="rules-index">${games.map((game) => `
        <li class="panel"><h2><a href="${rulesHref(game.id)}">${escapeHtml(game.title)}</a></h2>
          <p>${escapeHtml(game.blurb)}</p></li>`).join("")}</ul>`;
    return;
  }
  const game = gameInfo(chosen);
  document.title = `${game.title}: rules · Patience Arena`;
  const text = await rulesText(chosen).catch(() => null);
  app.innerHTML = `${gameList(games, chosen)}
    <article class="rules-page panel"><h1>${escapeHtml(game.title)}</h1>
      <p class="sub">${escapeHtml(game.blurb)}</p><div class="rules-text"></div>
      <p class="play-it"><a class="button-link" href="./">Play it from the start page</a></p></article>`;
  const body = app.querySelector(".rules-text");
  if (text === null) body.innerHTML = "<p>This game has no rules page yet; its summary above says how it goes.</p>";
  else body.innerHTML = text;
  drawPictures(body);
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

const app = document.getElementById("app");
if (app?.classList.contains("rules")) showRules(app);
