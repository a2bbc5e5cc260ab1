// The replay page, replay.html?game=<id>&move=<n>: a finished game step by step, every card face up,
// from GET /api/games/{id}/replay/views (public once the deal may be shown: no token needed).
// replay.html?race=<id> is its race mode (race-replay.js): a finished race's racers side by side.
// Controls, keyboard, speed, scrub bar, move list, share link and the solver's review; the board
// is drawn by render.js like the play page's.

import { installCardSprite } from "./cards.js";
import { gameInfo, loadCatalog } from "./games.js";
import { ReplayPlayer } from "./replay-player.js";
import { renderStep, skeleton } from "./replay-view.js";

const root = document.getElementById("replay");

function toast(text, kind = "info") {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

function announce(text) {
  document.getElementById("announcer").textContent = text;
}

function showProblem(title, text, retry = false) {
  root.innerHTML = `<section class="panel problem"><h1></h1><p class="reason"></p>
    <p>${retry ? '<button type="button" class="retry">Try again</button> ' : ""}<a href="/#/">Back to the start page</a></p></section>`;
  root.querySelector("h1").textContent = title;
  root.querySelector(".reason").textContent = text;
  root.querySelector(".retry")?.addEventListener("click", () => start());
}

async function load(gameId) {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/replay/views`);
  const body = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, body };
}

/** The page's link to a step: this page with ?game and ?move, nothing else. */
export function stepUrl(gameId, step) {
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set("game", gameId);
  url.searchParams.set("move", String(step));
  return url.toString();
}

async function share(url) {
  try {
    if (navigator.share) {
      await navigator.share({ title: document.title, url });
      return;
    }
  } catch (error) {
    if (error?.name === "AbortError") return; // the person closed the share sheet
  }
  try {
    await navigator.clipboard.writeText(url);
    toast("Link copied to the clipboard");
    return;
  } catch {
    // no clipboard here (an insecure origin, a refused permission): show the link to copy by hand
  }
  const field = document.querySelector(".share-fallback") ?? document.createElement("input");
  field.className = "share-fallback";
  field.readOnly = true;
  field.setAttribute("aria-label", "Link to this move");
  field.value = url;
  document.querySelector(".replay-links").append(field);
  field.focus();
  field.select();
  toast("Copy the link from the field");
}

function attach(parts, data, player) {
  parts.controls.addEventListener("click", (event) => {
    const control = event.target.closest("[data-control]")?.dataset.control;
    const actions = { first: () => player.first(), back: () => player.back(), play: () => player.toggle(),
      forward: () => player.forward(), end: () => player.end() };
    actions[control]?.();
  });
  parts.speed.addEventListener("change", () => player.setSpeed(parts.speed.value));
  parts.scrub.addEventListener("input", () => player.seek(parts.scrub.value));
  root.addEventListener("click", (event) => {
    const seek = event.target.closest("[data-seek]")?.dataset.seek;
    const cell = event.target.closest(".strip .cell")?.dataset.step;
    if (seek !== undefined || cell !== undefined) player.seek(seek ?? cell);
  });
  parts.share.addEventListener("click", () => share(stepUrl(data.game_id, player.step)));
  const keys = { ArrowLeft: () => player.back(), ArrowRight: () => player.forward(), Home: () => player.first(),
    End: () => player.end(), " ": () => player.toggle() };
  const onKey = (event) => {
    const action = keys[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    // The scrub bar moves with its own keys, a menu and a text field keep theirs.
    if (event.target.closest("select, input:not([type=range]), textarea")) return;
    if (event.target.matches("input[type=range]") && event.key !== " ") return;
    event.preventDefault(); // Space would also press the focused button: it plays or pauses instead
    action();
  };
  const onKeyUp = (event) => {
    if (event.key === " " && event.target.closest("button")) event.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  document.addEventListener("keyup", onKeyUp);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => renderStep(parts, data, player), 100);
  });
}

async function start() {
  const raceId = new URLSearchParams(location.search).get("race");
  if (raceId) { // a race's racers side by side: a mode of this page, in a module of its own
    const { openRaceReplay } = await import("./race-replay.js");
    await openRaceReplay(root, raceId, { toast, announce, showProblem, share });
    return;
  }
  const gameId = new URLSearchParams(location.search).get("game");
  if (!gameId) {
    showProblem("No game named", "Open a replay from “My games” on the start page, or from a shared link.");
    return;
  }
  let answer;
  try {
    [answer] = await Promise.all([load(gameId), loadCatalog().catch(() => null)]);
  } catch (error) {
    showProblem("The replay did not load", String(error.message ?? error), true);
    return;
  }
  if (!answer.ok) {
    const titles = { 403: "Not public yet", 404: "No such game", 503: "The server is busy" };
    showProblem(titles[answer.status] ?? "The replay did not load", answer.body.message ?? `HTTP ${answer.status}`,
      answer.status === 503);
    root.querySelector(".problem").dataset.code = answer.body.code ?? "";
    return;
  }
  const data = answer.body;
  const title = gameInfo(data.game).title;
  document.title = `${title}: replay · Patience Arena`;
  const parts = skeleton(root, data, title);
  const player = new ReplayPlayer(data.steps.length - 1, () => {
    renderStep(parts, data, player);
    history.replaceState(null, "", stepUrl(data.game_id, player.step));
    if (!player.playing) announce(parts.position.textContent); // not a word a second while it plays
  });
  const asked = Number(new URLSearchParams(location.search).get("move") ?? 0);
  player.step = Math.max(0, Math.min(player.last, Number.isFinite(asked) ? Math.round(asked) : 0));
  attach(parts, data, player);
  renderStep(parts, data, player);
  // Read-only handle for tests and the curious: the data and the playback shown.
  window.replay = { data, player };
}

installCardSprite();
start();
