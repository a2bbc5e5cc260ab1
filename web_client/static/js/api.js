// HTTP: the guest identity (kept in localStorage, refreshed once half its lifetime has passed),
// creating games, listing mine, hints, and the one-use tickets a game socket connects with.

const IDENTITY_KEY = "arena.guest";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
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

async function errorText(response) {
  try {
    const body = await response.json();
    return body.detail || body.message || body.error || JSON.stringify(body);
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

async function newGuest() {
  const response = await fetch("/api/players/guest", { method: "POST" });
  if (!response.ok) throw new ApiError(response.status, await errorText(response));
  const fresh = await response.json();
  localStorage.setItem(IDENTITY_KEY, JSON.stringify(fresh));
  return fresh;
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
  const fresh = await response.json();
  localStorage.setItem(IDENTITY_KEY, JSON.stringify(fresh));
  return fresh;
}

let pending = null; // one guest creation or refresh at a time, shared by every caller

/** The guest identity {player_id, token, issued_at_ms, expires_at_ms}, created on first use. */
export function identity() {
  const known = storedIdentity();
  if (known && !refreshDue(known)) return Promise.resolve(known);
  pending ??= (known ? refreshed(known) : newGuest()).finally(() => { pending = null; });
  return pending;
}

async function request(method, path, body, retried = false) {
  const { token } = await identity();
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401 && !retried) {
    // The server refuses this token (expired, signed out, or a new server secret): become a new guest once.
    localStorage.removeItem(IDENTITY_KEY);
    return request(method, path, body, true);
  }
  if (!response.ok) throw new ApiError(response.status, await errorText(response));
  return response.status === 204 ? null : response.json();
}

export const createGame = (game, variant, seed = null) => request("POST", "/api/games", { game, variant, seed });
export const myGames = () => request("GET", "/api/games");
export const getGame = (id) => request("GET", `/api/games/${encodeURIComponent(id)}`);
/** A hint for the position at `version` (practice games only; the game is then marked assisted). */
export const askHint = (id, version) => request("POST", `/api/games/${encodeURIComponent(id)}/hint`, { version });

/** The game socket's address with a fresh one-use ticket: the token itself never goes in a URL. */
export async function socketUrl(gameId) {
  const { ticket } = await request("POST", "/api/tickets");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}?ticket=${encodeURIComponent(ticket)}`;
}
