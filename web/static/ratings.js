// Ratings on the shared pages: a seat's rating on the game
// page's cards and its change at the end, the lobby's challenger rating
// and rating filter, the create form's "rated" box. The pages call these
// small hooks; the profile and the leaderboard have modules of their own.

import { $ } from './api.js';

// signed writes a change with its sign: +162, −41 (a true minus), ±0.
export function signed(x) {
  const n = Math.round(x);
  if (n === 0) return '±0';
  return (n > 0 ? '+' : '−') + Math.abs(n);
}

// cardRating fills a player card's rating: "1500?" when the seat was
// taken, then "1662? (+162)" once a rated game is over.
export function cardRating(span, g, c) {
  if (!span) return;
  const r = g.ratings && g.ratings[c];
  span.textContent = '';
  span.classList.remove('up', 'down');
  if (!r) return;
  span.textContent = g.rated ? r.shown : r.shown + ' · unrated';
  span.title = `rating ${r.rating}, deviation ${r.rd}${r.provisional ? ' (provisional)' : ''}`;
  if (r.rating_change != null) {
    span.textContent = `${Math.round(r.rating_after)}${r.provisional ? '?' : ''} (${signed(r.rating_change)})`;
    span.title = `rating ${r.rating} before the game, ${r.rating_after} after`;
    span.classList.add(r.rating_change >= 0 ? 'up' : 'down');
  }
}

// endWords is the sentence a finished rated game adds to its result:
// " Ratings: ada +162, bo −162."
export function endWords(g) {
  if (!g.rated || !g.ratings || g.state !== 'finished') return '';
  const parts = ['x', 'o'].filter((c) => g.ratings[c] && g.ratings[c].rating_change != null)
    .map((c) => `${g.players[c].name} ${signed(g.ratings[c].rating_change)}`);
  return parts.length ? ` Ratings: ${parts.join(', ')}.` : '';
}

// lobbyRating is a challenger's rating in the lobby: "1662?, rated".
export function lobbyRating(g, seat) {
  const r = g.ratings && g.ratings[seat];
  return (r ? r.shown : '') + (g.rated ? (r ? ', rated' : 'rated') : (r ? ', unrated' : 'unrated'));
}

// lobbyFilter returns whether a lobby game's challenger is in the rating
// range of the lobby's filter (#lobby-filter: min and max, either empty).
export function lobbyFilter() {
  const f = $('#lobby-filter');
  const lo = f ? parseFloat(f.elements.min.value) : NaN, hi = f ? parseFloat(f.elements.max.value) : NaN;
  return (g, seat) => {
    const r = g.ratings && g.ratings[seat];
    if (Number.isNaN(lo) && Number.isNaN(hi)) return true;
    if (!r) return false;
    return (Number.isNaN(lo) || r.rating >= lo) && (Number.isNaN(hi) || r.rating <= hi);
  };
}

// lobbyEmpty is the empty lobby's sentence while the filter is set.
export function lobbyEmpty() {
  const f = $('#lobby-filter');
  return f && (f.elements.min.value || f.elements.max.value) ? 'No open challenge in this rating range.' : '';
}

// onLobbyFilter calls reload when the filter changes.
export function onLobbyFilter(reload) {
  const f = $('#lobby-filter');
  if (!f) return;
  f.addEventListener('input', reload);
  f.addEventListener('submit', (e) => { e.preventDefault(); reload(); });
}

// ratedChoice is what the create form sends of the "rated" box: nothing
// when it is ticked (the server rates what can be rated), false when not.
export function ratedChoice(form) {
  const box = form.elements.rated;
  return box && !box.checked ? { rated: false } : {};
}
