// Shared by every page: the JSON API (docs/api.md), a small DOM builder,
// words for players, results and clocks, and the header (sign out, the
// next game where it is my turn).

export class APIError extends Error {
  constructor(status, code, msg) { super(msg); this.status = status; this.code = code; }
}

// api calls the JSON API; it resolves to {status, data, date} or throws an
// APIError carrying the server's sentence.
export async function api(method, path, body) {
  const opt = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    opt.headers['Content-Type'] = 'application/json';
    opt.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, opt);
  } catch {
    throw new APIError(0, 'offline', 'The server cannot be reached: check the connection and try again.');
  }
  let data = null;
  try { data = await r.json(); } catch { /* SGF, empty */ }
  if (!r.ok) throw new APIError(r.status, data && data.code, sentence((data && data.error) || `The server answered ${r.status}.`));
  return { status: r.status, data, date: r.headers.get('Date') };
}

// sentence writes the server's sentence as a page shows it, from a capital.
const sentence = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// el builds an element: el('a', {href: '/'}, 'text', child...). Attributes
// named on* are not accepted (no inline handlers under the page's policy).
export function el(tag, attrs, ...children) {
  const e = tag.includes(':') ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c != null && c !== false) e.append(c);
  return e;
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const me = () => document.body.dataset.me || '';

export const colorName = (c) => (c === 'x' ? 'Black' : 'White');
export const other = (c) => (c === 'x' ? 'o' : 'x');

// playerName names a seat: the player, or the empty seat.
export function playerName(p) {
  return (p && p.name) ? p.name + (p.bot ? ' (bot)' : '') : 'an empty seat';
}

// botTag is the mark after a bot account's linked name, or
// null for anyone else.
export function botTag(p) {
  return p && p.bot ? el('small', { class: 'bot-tag', title: 'a bot: a program playing through the API', text: 'bot' }) : null;
}

// rulesWords writes a game's rules for a list: "alak 6", "alterigo 5x5".
export function rulesWords(g) {
  const extra = g.rules.split(' ').slice(1).filter((o) => !o.startsWith('size='));
  return `${g.preset} ${g.size}${extra.length ? ' · ' + extra.join(' ') : ''}`;
}

export function clockWords(spec) {
  if (!spec || spec === 'none') return 'no clock';
  if (spec.startsWith('days:')) {
    const n = +spec.slice(5);
    return n === 1 ? '1 day a move' : `${n} days a move`;
  }
  return spec.slice(5).replace('+', ' + ');
}

// resultWords says a listed game's result from the player's side.
export function resultWords(g) {
  if (g.state === 'aborted') return 'aborted';
  if (!g.result) return g.state;
  return g.result + (g.reason ? ` (${g.reason})` : '');
}

// duration writes milliseconds as a clock: 4:05, 0:09.3 under ten
// seconds, 1:02:03 from an hour; days and hours from a day.
export function duration(ms) {
  if (ms < 0) ms = 0;
  if (ms >= 86400000) {
    const d = Math.floor(ms / 86400000), h = Math.floor((ms % 86400000) / 3600000);
    return `${d} d ${h} h`;
  }
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const pad = (n) => String(n).padStart(2, '0');
  if (h) return `${h}:${pad(m)}:${pad(sec)}`;
  if (ms < 10000) return `${m}:${pad(sec)}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${pad(sec)}`;
}

// timeLeft says how long until a deadline: "3 h 20 min", "2 d 4 h".
export function timeLeft(deadline) {
  const ms = new Date(deadline).getTime() - Date.now();
  if (ms <= 0) return 'out of time';
  const min = Math.floor(ms / 60000);
  if (min < 60) return `${min} min`;
  if (min < 1440) return `${Math.floor(min / 60)} h ${min % 60} min`;
  return `${Math.floor(min / 1440)} d ${Math.floor((min % 1440) / 60)} h`;
}

export function dateWords(t) {
  const d = new Date(t);
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

// nextGame points the header's button at the first game where it is my
// turn other than skip (GET /api/me/turns sorts them first), or hides
// it, and sets the header's badge: the games where it is my move plus the
// challenges to me. It is asked again every minute while the page is
// shown, and when the page is shown again.
let skipped = '';
export async function nextGame(skip) {
  if (skip !== undefined) skipped = skip;
  const a = $('#next-game');
  if (!a) return;
  try {
    const { data } = await api('GET', '/api/me/turns');
    const mine = data.games.filter((id) => id !== skipped);
    a.hidden = mine.length === 0;
    if (mine.length) {
      a.href = '/g/' + mine[0];
      a.textContent = mine.length > 1 ? `Next game (${mine.length})` : 'Next game';
      a.title = 'a game where it is your turn';
    }
    badge(data.turns, data.challenges);
  } catch { a.hidden = true; }
}

function badge(turns, challenges) {
  let b = $('#turns-badge');
  if (!b) {
    b = el('a', { id: 'turns-badge', class: 'badge', href: '/#my-games' });
    $('#next-game').before(b);
  }
  const n = turns + challenges;
  b.hidden = n === 0;
  b.textContent = String(n);
  const words = [turns && `${turns} game${turns === 1 ? '' : 's'} where it is your move`, challenges && `${challenges} challenge${challenges === 1 ? '' : 's'} to you`].filter(Boolean).join(', ');
  b.setAttribute('aria-label', words);
  b.title = words;
}

if ($('#next-game')) {
  // The pages with a script of their own call nextGame as they start.
  if (!['home', 'game', 'archive'].includes(document.body.dataset.page)) nextGame();
  setInterval(() => {
    if (document.visibilityState === 'visible') nextGame();
  }, 60000);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') nextGame();
  });
}

// copyInput copies an input's text (an invitation link) and says so on
// the button.
export async function copyInput(input, button) {
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    document.execCommand('copy');
  }
  button.textContent = 'Copied';
}

// follow.js, on a player's pages, takes a page to the player's games as
// they start (stay: a page not to leave; awaited: the invitation's game).
export const following = { stay: () => false, awaited: '' };
export const followGames = () => import('./follow.js').then((m) => m.follow(), () => {});
if (me()) followGames();

const out = $('#sign-out');
if (out) {
  out.addEventListener('click', async () => {
    try { await api('POST', '/api/logout'); } finally { location.href = '/'; }
  });
}
