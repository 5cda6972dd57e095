// Following the player's games, loaded by api.js on a player's pages (an
// account's or a guest's). Every such page goes to a game of theirs as it
// starts, as a rematch does: a tournament's pairing, a friend joining by
// the invitation, a challenge taken in another tab. The account's event
// stream (GET /api/me/events) tells of the starts, and a page follows
//   - a game that starts while it is open (after the stream's ready, the
//     end of what was pending when it connected), unless the game is by
//     correspondence, where a move takes days, and is not the one the
//     page waits for (following.awaited: the invitation it shows);
//   - a live game before both first moves, whenever it is told: each
//     player has seconds for theirs or the game is aborted (a
//     tournament's replayed, then forfeited), so a page opened then
//     takes its player there too (checked first: what is told may be old).
// A page where its player plays a game that is not by correspondence
// (following.stay) stays, and offers the new game in its header. A hidden
// page notifies, where the player allowed it on a game page. One page of
// the browser holds the stream, elected by a Web Lock, and tells the
// others through a BroadcastChannel: over HTTP/1.1 a browser opens six
// connections at most to a site, for all its tabs.

import { api, el, $, colorName, other, playerName, rulesWords, clockWords, following } from './api.js';

let on = false, gone = false;

export function follow() {
  if (on || !window.EventSource) return;
  on = true;
  const ch = window.BroadcastChannel ? new BroadcastChannel('alak:games') : null;
  if (ch) ch.addEventListener('message', (m) => m.data.ev && take(m.data.ev, m.data.fresh));
  if (ch && navigator.locks) {
    navigator.locks.request('alak:games', () => new Promise(() => lead(ch)));
    ch.postMessage({ hello: true }); // the leader, if any, answers with the games under way
  } else lead(null);
}

// lead holds the stream for the browser's pages. The browser reopens a
// stream that breaks; one the server refused is opened again later.
function lead(ch) {
  const active = new Map(), known = new Set();
  let ready = false, wait = 5000;
  const open = () => {
    const es = new EventSource('/api/me/events');
    es.addEventListener('open', () => { wait = 5000; });
    es.addEventListener('error', () => {
      if (es.readyState !== EventSource.CLOSED) return;
      setTimeout(open, wait);
      wait = Math.min(2 * wait, 300000);
    });
    es.addEventListener('game_start', (e) => {
      const ev = JSON.parse(e.data), fresh = ready && !known.has(ev.id);
      known.add(ev.id);
      active.set(ev.id, ev);
      take(ev, fresh);
      if (ch) ch.postMessage({ ev, fresh });
    });
    es.addEventListener('game_end', (e) => active.delete(JSON.parse(e.data).id));
    // The page's root says so too: what it is told from now on is new.
    es.addEventListener('ready', () => { ready = true; document.documentElement.dataset.follow = 'ready'; });
  };
  open();
  if (ch) ch.addEventListener('message', (m) => m.data.hello && active.forEach((ev) => ch.postMessage({ ev, fresh: false })));
}

// take is told of a game that started: the page follows it or not.
async function take(ev, fresh) {
  const due = ev.clock.startsWith('live:') && ev.ply < 2;
  if (gone || location.pathname === '/g/' + ev.id ||
    !(due || (fresh && (!ev.clock.startsWith('days:') || following.awaited === ev.id)))) return;
  if (!fresh) {
    try {
      const { data } = await api('GET', '/api/games/' + ev.id);
      if (data.state !== 'active' || data.ply >= 2 || gone) return;
    } catch { return; }
  }
  // The game page's switch (notify.js) allows the notification.
  if (fresh && document.visibilityState === 'hidden' && localStorage.getItem('alak:notify') === 'on' && window.Notification && Notification.permission === 'granted') {
    const c = ev.color, t = ev.tournament;
    new Notification('Your game starts · alak', { tag: 'alak-start-' + ev.id,
      body: `${t ? `${t.name}, round ${t.round}: ` : ''}${colorName(c)} against ${playerName(ev.players[other(c)])}, ${rulesWords(ev)}, ${clockWords(ev.clock)}.` });
  }
  if (following.stay()) {
    const a = $('#game-started') || el('a', { id: 'game-started', class: 'button small' });
    a.href = '/g/' + ev.id;
    a.textContent = 'Your new game';
    if (!a.isConnected && $('#next-game')) $('#next-game').before(a);
    return;
  }
  gone = true;
  location.href = '/g/' + ev.id;
}
