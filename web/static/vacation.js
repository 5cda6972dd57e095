// Vacation on the home page: the days left, the rule by which
// they are earned, and a button to start or end a vacation, which pauses
// the clocks of every correspondence game of the account (PUT /api/me
// {"vacation": ...}).

import { api, $ } from './api.js';

const form = $('#vacation');

const dateWords = (t) => new Date(t).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

function show(me) {
  const left = me.vacation_days_left;
  const until = me.vacation_until ? new Date(me.vacation_until).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : '';
  const next = me.vacation_next_credit ? ` The next 2.5 days come on ${dateWords(me.vacation_next_credit)}.` : '';
  $('.days', form).textContent = me.vacation
    ? `On vacation until ${until} at the latest: your correspondence games are paused.`
    : left > 0 ? `${left} day${left === 1 ? '' : 's'} of vacation left.` : `No vacation left.${next}`;
  $('.rule', form).textContent = 'Every account starts with 7 days of vacation and earns 2.5 more at the end of each month (30 a year), at most 60 banked. On vacation, the clocks of your correspondence games stop; live games go on.';
  const b = $('button', form);
  b.textContent = me.vacation ? 'Back from vacation' : 'Go on vacation';
  b.dataset.on = me.vacation ? '' : '1';
  b.disabled = !me.vacation && left <= 0;
  form.hidden = false;
}

if (form) {
  api('GET', '/api/me').then(({ data }) => show(data)).catch(() => {});
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const err = $('.error', form);
    err.textContent = '';
    try {
      const { data } = await api('PUT', '/api/me', { vacation: $('button', form).dataset.on === '1' });
      show(data);
    } catch (x) {
      err.textContent = x.message;
    }
  });
}
