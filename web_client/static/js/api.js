// HTTP: the player's identity (a guest's or a signed-in account's token, kept in localStorage and
// refreshed once half its lifetime has passed), accounts, games, hints, the one-use tickets a game socket
// connects with, and the daily challenges.

import { parseJson, stringifyJson } from "./json.js";

// The key predates accounts: a signed-in account's token is kept under it too.
const IDENTITY_KEY = "arena.guest";
// A 401 with one of these codes refuses the token itself (expired, signed out, another server's):
// the client starts anew as a guest. Any other 401 (a wrong password) is an answer to show.
const TOKEN_REFUSALS = new Set(["unauthorized", "bad_token", "token_expired", "token_revoked"]);

export class ApiError extends Error {
  /** `code` is the server's error code (a program branches on it), `message` its text for a person. */
  constructor(status, message, code = "") {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function storedIdentity() {
  try {
    const identity = JSON.parse(localStorage.getItem(IDENTITY_KEY) ?? "null");
    return identity?.token ? identity : null;
  } catch {
    return null; // a damaged entry: a new guest replaces it
  }
}

/** Half of the token's lifetime has passed (an identity from before tokens expired counts as due). */
function refreshDue({ issued_at_ms: issued, expires_at_ms: expires }) {
  if (!Number.isFinite(issued) || !Number.isFinite(expires)) return true;
  return Date.now() >= issued + (expires - issued) / 2;
}

/** The server's `{code, message}` (or a framework's `{detail}`) as an ApiError. */
async function errorOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    return new ApiError(response.status, `${response.status} ${response.statusText}`);
  }
  const text = body?.message || body?.detail || body?.error || JSON.stringify(body);
  return new ApiError(response.status, text, body?.code ?? "");
}

function keep(fresh) {
  localStorage.setItem(IDENTITY_KEY, JSON.stringify(fresh));
  return fresh;
}

async function newGuest() {
  const response = await fetch("/api/players/guest", { method: "POST" });
  if (!response.ok) throw await errorOf(response);
  return keep(await response.json());
}

async function refreshed(known) {
  let response;
  try {
    response = await fetch("/api/session/refresh", { method: "POST", headers: { Authorization: `Bearer ${known.token}` } });
  } catch {
    return known; // offline: the token still works for a while; refresh next time
  }
  if (response.status === 401) {
    localStorage.removeItem(IDENTITY_KEY); // expired, signed out, or another server's: start anew
    return newGuest();
  }
  if (!response.ok) return known; // busy (429) or away (503): the token still works; refresh next time
  return keep(await response.json());
}

let pending = null; // one guest creation or refresh at a time, shared by every caller

/** The identity {player_id, token, issued_at_ms, expires_at_ms}: a guest's, created on first use, or an account's. */
export function identity() {
  const known = storedIdentity();
  if (known && !refreshDue(known)) return Promise.resolve(known);
  pending ??= (known ? refreshed(known) : newGuest()).finally(() => { pending = null; });
  return pending;
}

/** `headers`: more request headers (a new game's Idempotency-Key). */
export async function request(method, path, body, { headers: more = {}, retried = false } = {}) {
  const { token } = await identity();
  const headers = { ...more, Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : stringifyJson(body),
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && !retried && (!error.code || TOKEN_REFUSALS.has(error.code))) {
      // The server refuses this token (expired, signed out, or a new server secret): become a new guest once.
      localStorage.removeItem(IDENTITY_KEY);
      return request(method, path, body, { headers: more, retried: true });
    }
    throw error;
  }
  return response.status === 204 ? null : parseJson(await response.text());
}

// A new game comes with a one-use ticket for its first socket: kept here until that socket opens (or it
// expires), so opening a new game costs no POST /api/tickets.
const spareTickets = new Map(); // game id -> {ticket, until}

// A new game whose answer was lost (the network) or `503` (the store away, perhaps after the game was made) is
// asked for again after these pauses (ms, jittered), with the same Idempotency-Key: the server answers it with
// the game the first ask made, if it made one, and never makes a second that would resign it.
const CREATE_AGAIN_MS = [400, 1500];

/** A request key: 32 hex digits (crypto.randomUUID needs a secure context; a LAN address over http is none). */
function requestKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function createGame(game, variant, seed = null) {
  const headers = { "Idempotency-Key": requestKey() };
  let summary;
  for (let repeat = 0; ; repeat += 1) {
    try {
      summary = await request("POST", "/api/games", { game, variant, seed }, { headers });
      break;
    } catch (error) {
      const unknown = !(error instanceof ApiError) || error.status === 503; // made or not, nobody knows
      if (!unknown || repeat >= CREATE_AGAIN_MS.length) throw error;
      await new Promise((done) => setTimeout(done, CREATE_AGAIN_MS[repeat] * (0.8 + Math.random() * 0.4)));
    }
  }
  if (summary?.ticket) {
    // Used a little before it expires: the socket may take a moment to open.
    spareTickets.set(summary.id, { ticket: summary.ticket, until: Date.now() + summary.ticket_expires_in_ms - 2000 });
  }
  return summary;
}
export const myGames = () => request("GET", "/api/games");
export const getGame = (id) => request("GET", `/api/games/${encodeURIComponent(id)}`);
/** "Play this deal again": a new practice game on the deal of one of my games (refused for a daily still secret). */
export const playAgain = (id) => request("POST", `/api/games/${encodeURIComponent(id)}/again`);
/** A hint for the position at `version` (practice games only; the game is then marked assisted). */
export const askHint = (id, version) => request("POST", `/api/games/${encodeURIComponent(id)}/hint`, { version });

/** The game socket's address with a fresh one-use ticket: the token itself never goes in a URL. */
export async function socketUrl(gameId) {
  const spare = spareTickets.get(gameId);
  spareTickets.delete(gameId);
  const { ticket } = spare && spare.until > Date.now() ? spare : await request("POST", "/api/tickets");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}?ticket=${encodeURIComponent(ticket)}`;
}

// Accounts -------------------------------------------------------------------------------------

/** Display names: {players: [{player, name (null for a guest)}]}, at most 32 ids at once. */
export const playerNames = (ids) => request("GET", `/api/players/names?ids=${ids.map(encodeURIComponent).join(",")}`);

/** Who the token is: {player_id, name (null for a guest), ranked}. */
export const me = () => request("GET", "/api/players/me");

/** A named account. Sent with this guest's token, so the guest becomes the account and keeps its games. */
export async function signUp(name, password) {
  return keep(await request("POST", "/api/accounts", { name, password }));
}

/** The account's own token replaces this browser's identity (a guest's games stay with that guest). */
export async function signIn(name, password) {
  const response = await fetch("/api/session/sign-in", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, password }),
  });
  if (!response.ok) throw await errorOf(response);
  return keep(await response.json());
}

/** Ends the player's tokens on every device; the next request makes a new guest. */
export async function signOut() {
  const known = storedIdentity();
  if (!known) return;
  const response = await fetch("/api/session/sign-out", { method: "POST", headers: { Authorization: `Bearer ${known.token}` } });
  // Refused (already signed out, expired): nothing left to end. Any other failure: the token still works.
  if (!response.ok && response.status !== 401) throw await errorOf(response);
  localStorage.removeItem(IDENTITY_KEY);
}

// Daily challenges -----------------------------------------------------------------------------

/** `<date>/<game>/<variant text>` as a path: each part encoded (a variant text holds "=" and ","). */
const challengePath = (key) => `/api/dailies/${String(key).split("/").map(encodeURIComponent).join("/")}`;

export const dailies = () => request("GET", "/api/dailies");
export const dailyDay = (date) => request("GET", `/api/dailies/${encodeURIComponent(date)}`);
export const attempt = (key) => request("POST", `${challengePath(key)}/attempt`);
export const practice = (key) => request("POST", `${challengePath(key)}/practice`);
export const leaderboard = (key, offset = 0, limit = 20) =>
  request("GET", `${challengePath(key)}/leaderboard?offset=${offset}&limit=${limit}`);
export const myStats = () => request("GET", "/api/players/me/stats");
