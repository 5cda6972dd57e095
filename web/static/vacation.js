// Vacation on the home page (issue 29): the days left and a button to
// start or end a vacation, which pauses the clocks of every correspondence
// game of the account (PUT /api/me {"vacation": ...}).

import { api, $ } from './api.js';

const form = $('#vacation');

function show(me) {
  const left = me.vacation_days_left;
  const until = me.vacation_until ? new Date(me.vacation_until).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : '';
  $('.days', form).textContent = me.vacation
    ? `On vacation until ${until} at the latest: your correspondence games are paused.`
    : `${left} day${left === 1 ? '' : 's'} of vacation left (2.5 earned each month, at most 60).`;
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
