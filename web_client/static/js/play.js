// The play page: status line, action buttons, the board, the end-of-game dialog, and the glue
// between the socket (server state) and rendering/input.

import { confirmAbandon } from "./abandon.js";
import { ApiError, getGame, identity, playAgain, socketUrl } from "./api.js";
import { failedText } from "./busy.js";
import { renderDeal } from "./deal.js";
import { glide, refuse, soundFor } from "./feedback.js";
import { gameInfo, loadCatalog, withoutDefaults } from "./games.js";
import { mountGhost } from "./ghost.js";
import { HINT_BUTTON, HINT_LINE, HINT_PARTS, hintsOffered, renderHint, requestHint } from "./hint.js";
import { escapeHtml } from "./html.js";
import { attachInput } from "./input.js";
import { formatTime, renderBoard, renderClock, renderStatus } from "./render.js";
import { howToPlay } from "./rules.js";
import { GameLink } from "./socket.js";
import { ACTION_TYPES, actionOf, canPlay, createState, legalAction } from "./state.js";

const ACTION_LABELS = { deal: "Deal", recycle: "Recycle", cast: "Cast", undo: "Undo", finish: "Finish", resign: "Resign" };
const ACTION_KEYS = { d: "deal", r: "recycle", c: "cast", u: "undo", f: "finish" };

const SHORTCUTS = `
  <details class="panel help"><summary>Keyboard shortcuts</summary>
    <dl>
      <dt>Tab, ← →</dt><dd>go from pile to pile (↑ ↓ between rows)</dd>
      <dt>Enter or Space</dt><dd>select the pile's movable cards; on a highlighted pile: move there</dd>
      <dt>↑ ↓ on a selected pile</dt><dd>more or fewer cards of the run</dd>
      <dt>Esc</dt><dd>clear the selection</dd>
      <dt>D</dt><dd>deal / draw from the stock</dd><dt>R</dt><dd>recycle the waste</dd>
      <dt>C</dt><dd>cast a spell</dd><dt>U or Ctrl+Z</dt><dd>undo</dd>
      <dt>F</dt><dd>finish: play the rest at once, when it needs no choice</dd>
      <dt>H</dt><dd>a hint (practice games only; the game is then marked assisted)</dd>
    </dl>
    <p>Mouse: click a card then a highlighted pile, or drag it there; double-click sends a card to a foundation.</p>
  </details>`;

function skeleton(app, gameTitle) {
  const title = escapeHtml(gameTitle); // an unknown game's title is its id, as the server sent it
  app.innerHTML = `
    <section class="play">
      <div class="play-head">
        <h1 class="game-title">${title}</h1>
        <p class="status" role="status" aria-live="off">
          <span data-status="state"></span> · <span data-status="moves"></span> ·
          <span class="clock">time <span data-status="time">0:00</span></span>
          <span data-status="info"></span><span data-status="role" class="role"></span> ${HINT_PARTS}
        </p>
        <div class="actions" role="toolbar" aria-label="Game actions">
          ${ACTION_TYPES.map((type) => `<button type="button" data-action="${type}" aria-describedby="why-${type}" hidden>${ACTION_LABELS[type]}</button>
            <span id="why-${type}" class="visually-hidden" data-why="${type}"></span>`).join("")}
          ${HINT_BUTTON}
        </div>
      </div>
      ${HINT_LINE}
      <div class="board" id="board" aria-label="${title} board"></div>
      <details class="panel deal" hidden>
        <summary>The deal, as dealt (deal number <span class="deal-seed"></span>)</summary>
        <div class="board deal-board" aria-label="${title}: the deal as dealt, every card face up"></div>
      </details>
      ${SHORTCUTS}
    </section>`;
  return {
    board: app.querySelector("#board"),
    status: app.querySelector(".status"),
    actions: app.querySelector(".actions"),
    deal: app.querySelector(".deal"),
    hintLine: app.querySelector("[data-hint-text]"),
  };
}

function announce(text) {
  const el = document.getElementById("announcer");
  el.textContent = "";
  requestAnimationFrame(() => { el.textContent = text; });
}

/**
 * Which buttons show and which are enabled, both from the server's view.actions: a button shows
 * when the game has that action now, is enabled exactly when the server says it is available, and
 * otherwise carries the server's reason as its tooltip and accessible description. No rule and no
 * status is read here: the engine says why Deal, Cast or Resign is refused.
 */
function renderActions(toolbar, state) {
  const view = state.view;
  for (const button of toolbar.querySelectorAll("[data-action]")) {
    const type = button.dataset.action;
    const action = actionOf(view, type);
    const why = toolbar.querySelector(`[data-why="${type}"]`);
    button.hidden = action === null || state.role === "spectator";
    button.disabled = !action?.available || !canPlay(state);
    const reason = action && !action.available ? action.reason : "";
    if (reason) button.title = reason;
    else button.removeAttribute("title");
    why.textContent = reason ? `Not available: ${reason}` : "";
    if (type === "resign" && button.dataset.confirm) button.textContent = "Really resign?";
    else button.textContent = ACTION_LABELS[type];
  }
}

const END_TEXT = {
  won: ["You won!", (v, t) => `Won in ${v.moves} moves and ${t} (server time).`],
  lost: ["No moves left", (v) => `The game is stuck after ${v.moves} moves.`],
  abandoned: ["Game resigned", (v) => `You gave up after ${v.moves} moves.`],
};

function showEndDialog(state) {
  const view = state.view;
  const [title, text] = END_TEXT[view.status];
  const dialog = document.getElementById("end-dialog");
  dialog.dataset.outcome = view.status;
  dialog.querySelector("#end-title").textContent = title;
  dialog.querySelector("#end-text").textContent = text(view, formatTime(state.elapsedMs));
  dialog.querySelector("[data-end-action=undo]").hidden = legalAction(view, "undo") === null;
  // The server names the deal exactly when it may be played again (never a daily's before its reveal).
  dialog.querySelector("[data-end-action=retry]").hidden = state.dealNumber === null || state.role !== "player";
  const replay = dialog.querySelector(".end-replay"); // public once the server reveals the deal number
  replay.hidden = state.seed === null;
  replay.href = `replay.html?game=${encodeURIComponent(state.gameId)}`;
  if (!dialog.open) dialog.showModal();
}

// A next game made over the open socket (c2s.new_game), waiting for its page: the summary, the
// s2c.new_game frame (its first snapshot) and the socket itself, moved to it. The page opens with them:
// no GET of the summary, no new socket. One at a time; one no page took soon is closed.
const HANDOVER_WAIT_MS = 10000;
let handover = null; // {gameId, summary, first, socket, timer}

function handOver(answer) {
  const { socket, ...first } = answer;
  dropHandover();
  const timer = setTimeout(dropHandover, HANDOVER_WAIT_MS);
  handover = { gameId: answer.summary.id, summary: answer.summary, first, socket, timer };
}

function dropHandover() {
  if (!handover) return;
  clearTimeout(handover.timer);
  handover.socket.close();
  handover = null;
}

/** The handover for this game, taken (then this page holds its socket); another game's is closed. */
function takeHandover(gameId) {
  if (handover?.gameId !== gameId) {
    dropHandover();
    return null;
  }
  const taken = handover;
  clearTimeout(taken.timer);
  handover = null;
  return taken;
}

/** The next game over the open socket, and the page goes to it: true when the page is leaving. False when
 * the game must go over HTTP (no open socket, no answer, the store away); the server's refusal is thrown. */
async function nextGameOverSocket(link, game, variant) {
  let answer;
  try {
    answer = await link.newGame({ game, variant: withoutDefaults(variant), seed: null });
  } catch (error) {
    if (error.overHttp) return false;
    if (error.code === "left") return true; // the page went elsewhere meanwhile: nothing more to start
    throw error;
  }
  handOver(answer);
  location.hash = `#/play/${answer.summary.id}`;
  return true;
}

export async function openPlayPage(app, gameId, { toast, setConnection, startGame, current }) {
  const handed = takeHandover(gameId); // before any wait: the socket is this page's from here on
  let summary;
  try {
    await identity();
    summary = handed?.summary ?? await getGame(gameId);
    await loadCatalog().catch(() => null); // without it the game shows by its id, with no extra buttons
  } catch (error) {
    handed?.socket.close();
    if (!current()) return () => {};
    app.innerHTML = `<section class="panel"><h1>Game not found</h1><p class="reason"></p>
      <p><a href="#/">Back to the start page</a></p></section>`;
    app.querySelector(".reason").textContent = error instanceof ApiError ? error.message : String(error);
    return () => {};
  }
  if (!current()) { // the player went elsewhere while the game loaded
    handed?.socket.close();
    return () => {};
  }
  const game = gameInfo(summary.game);
  const parts = skeleton(app, game.title);
  howToPlay(app.querySelector(".play"), summary.game);
  const state = createState(gameId);
  state.assisted = summary.assisted === true;
  const offered = hintsOffered(summary);
  let shownEnd = null;
  const render = () => {
    glide(parts.board, () => renderBoard(parts.board, state));
    renderStatus(parts.status, state);
    renderActions(parts.actions, state);
    renderDeal(parts.deal, state);
    renderHint(parts, state, offered);
  };
  const link = new GameLink(state, {
    url: () => socketUrl(gameId),
    onChange: (reason) => {
      render();
      const status = state.view?.status;
      const ended = status && status !== "in_progress" && state.role === "player";
      soundFor(reason, null);
      if (ended && shownEnd !== `${status}:${state.version}` && reason !== "pending") {
        shownEnd = `${status}:${state.version}`;
        soundFor(null, status);
        showEndDialog(state);
      }
    },
    onNotice: (text, kind) => {
      toast(text, kind);
      announce(text);
      if (kind === "error") refuse(parts.board);
    },
    onConnection: setConnection,
  });
  const ctx = {
    state,
    render,
    announce,
    refuse: (text) => { announce(text); refuse(parts.board, text); },
    send: (intent) => {
      if (!link.sendMove(intent)) announce("Wait: the last move is still on its way.");
    },
  };
  attachInput(ctx, parts.board);

  const act = (type) => {
    if (!canPlay(state) || !actionOf(state.view, type)?.available) return; // only what the server offers now
    const intent = legalAction(state.view, type) ?? { type }; // finish is many moves: offered, never in legal
    if (type === "resign") {
      const button = parts.actions.querySelector("[data-action=resign]");
      if (!button.dataset.confirm) { // a second press within 4 s confirms
        button.dataset.confirm = "1";
        setTimeout(() => { delete button.dataset.confirm; render(); }, 4000);
        render();
        return;
      }
      delete button.dataset.confirm;
    }
    ctx.send(intent);
  };
  const hint = async () => {
    if (!offered || !canPlay(state) || state.hintPending || state.view.status !== "in_progress") return;
    state.hintPending = true;
    render();
    try {
      const answer = await requestHint(state);
      announce(answer.text);
    } catch (error) {
      toast(error.message, "error");
    } finally {
      state.hintPending = false;
      if (current()) render();
    }
  };
  parts.actions.addEventListener("click", (event) => {
    const type = event.target.closest("[data-action]")?.dataset.action;
    if (type) act(type);
    if (event.target.closest("[data-hint]")) hint();
  });
  const onKey = (event) => {
    if (event.target.closest("input, select, textarea, dialog") || event.altKey || event.metaKey) return;
    const key = event.key.toLowerCase();
    if (key === "h" && !event.ctrlKey) {
      event.preventDefault();
      hint();
      return;
    }
    const type = event.ctrlKey ? (key === "z" ? "undo" : null) : ACTION_KEYS[key];
    if (!type) return;
    const button = parts.actions.querySelector(`[data-action=${type}]`);
    if (button && !button.hidden && !button.disabled) {
      event.preventDefault();
      act(type);
    }
  };
  const dialog = document.getElementById("end-dialog");
  let starting = false; // a new game is being asked for: a second click (a scripted one) starts nothing
  const onDialog = async (event) => {
    const action = event.target.closest("[data-end-action]")?.dataset.endAction;
    if (!action || starting) return;
    dialog.close();
    if (action === "undo") act("undo");
    if (action === "start") location.hash = "#/";
    if (action === "retry") {
      starting = true;
      try {
        // This game is over, but another (another tab's) may be unfinished: a new practice game resigns it.
        if (!(await confirmAbandon(`this deal of ${game.title} again`))) return;
        const again = await playAgain(gameId);
        location.hash = `#/play/${again.id}`;
      } catch (error) {
        toast(failedText("The deal did not start again", error), "error");
      } finally {
        starting = false;
      }
    }
    if (action === "again") {
      starting = true;
      try {
        // Asked before anything is sent; then over the open socket, else (or when it cannot tell) over HTTP.
        if (!(await confirmAbandon(`a new game of ${game.title}`))) return;
        const variant = state.view?.variant ?? summary.variant;
        if (!(await nextGameOverSocket(link, summary.game, variant))) {
          await startGame(summary.game, variant, null, { asked: true });
        }
      } catch (error) {
        toast(failedText("The new game did not start", error), "error");
      } finally {
        starting = false;
      }
    }
  };
  let resizeTimer = null;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(render, 100);
  };
  parts.deal.addEventListener("toggle", render); // drawn to the panel's width once it is open
  document.addEventListener("keydown", onKey);
  dialog.addEventListener("click", onDialog);
  window.addEventListener("resize", onResize);
  const clock = setInterval(() => renderClock(parts.status, state), 250);
  // Read-only handle for tests and the curious: the state the page renders.
  window.arena = { state, link };
  render();
  if (handed) link.adopt(handed.socket, handed.first);
  else link.open();
  const leaveGhost = mountGhost(app, summary, state); // a ghost race: the ghost's panel (ghost.js)

  return () => {
    leaveGhost();
    link.close();
    clearInterval(clock);
    document.removeEventListener("keydown", onKey);
    dialog.removeEventListener("click", onDialog);
    window.removeEventListener("resize", onResize);
    if (dialog.open) dialog.close();
    delete window.arena;
  };
}
