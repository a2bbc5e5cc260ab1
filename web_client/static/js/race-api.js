// HTTP of live races and the race room socket's address. Every call goes through api.js's request
// (the player's token, the server's {code, message} errors as ApiError); the race decides, not us.

import { request } from "./api.js";

const race = (id) => `/api/races/${encodeURIComponent(id)}`;

/** The games and variants a race may be run on (the daily catalogue's), the seats and the time limits. */
export const raceCatalogue = () => request("GET", "/api/races/catalogue");
export const createRace = (game, variant, seats, timeLimitMs) =>
  request("POST", "/api/races", { game, variant, seats, time_limit_ms: timeLimitMs });
export const getRace = (id) => request("GET", race(id));
export const joinByCode = (code) => request("POST", `/api/races/join/${encodeURIComponent(code)}`);
export const joinRace = (id) => request("POST", `${race(id)}/join`);
export const leaveRace = (id) => request("POST", `${race(id)}/leave`);
export const setReady = (id, ready) => request("POST", `${race(id)}/ready`, { ready });
export const startRace = (id) => request("POST", `${race(id)}/start`);
export const rematch = (id) => request("POST", `${race(id)}/rematch`);
/** What the race changed on its rating board: {rated, changes: [{player, before, after, first_race, mu, sigma, races, provisional}]}. */
export const raceRatings = (id) => request("GET", `${race(id)}/ratings`);

/** The race socket's address with a fresh one-use ticket (the token never goes in a URL). */
export async function raceSocketUrl(id) {
  const { ticket } = await request("POST", "/api/tickets");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/races/${encodeURIComponent(id)}?ticket=${encodeURIComponent(ticket)}`;
}

/** The join link anyone can open: the server's join_path on this page's host. */
export const joinLink = (view) => `${location.origin}${view.join_path}`;
