// HTTP: the guest identity (kept in localStorage), creating games and listing mine.

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

async function errorText(response) {
  try {
    const body = await response.json();
    return body.detail || body.message || body.error || JSON.stringify(body);
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

/** The guest identity {player_id, token}, created on first use. */
export async function identity() {
  const known = storedIdentity();
  if (known) return known;
  const response = await fetch("/api/players/guest", { method: "POST" });
  if (!response.ok) throw new ApiError(response.status, await errorText(response));
  const fresh = await response.json();
  localStorage.setItem(IDENTITY_KEY, JSON.stringify(fresh));
  return fresh;
}

export const currentToken = () => storedIdentity()?.token ?? null;

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
    // The server no longer knows this token (a new server secret): become a new guest once.
    localStorage.removeItem(IDENTITY_KEY);
    return request(method, path, body, true);
  }
  if (!response.ok) throw new ApiError(response.status, await errorText(response));
  return response.status === 204 ? null : response.json();
}

export const createGame = (game, variant, seed = null) => request("POST", "/api/games", { game, variant, seed });
export const myGames = () => request("GET", "/api/games");
export const getGame = (id) => request("GET", `/api/games/${encodeURIComponent(id)}`);

export function socketUrl(gameId) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const token = encodeURIComponent(currentToken() ?? "");
  return `${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}?token=${token}`;
}
