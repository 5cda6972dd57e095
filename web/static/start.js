// The home page's one-click starts: "Play the computer" (alak
// on 11 points at the level the button names, Black) and "Invite a
// friend" (a link game, its invitation shown as the full form's is);
// and the note under the level list that says the level's algorithm.

import { api, $, following, followGames } from './api.js';

const quick = { rules: 'alak', clock: 'none' };

// showInvitation shows a game by link (the quick start's or the form's)
// and its invitation; the page goes to it when the friend joins (api.js).
export function showInvitation(data) {
  localStorage.setItem('invite:' + data.id, data.invite);
  $('#invite-link').value = data.invite;
  $('#created-go').href = '/g/' + data.id;
  $('#new-game').hidden = true;
  $('#created').hidden = false;
  $('#created').scrollIntoView({ block: 'nearest' });
  $('#invite-link').select();
  following.awaited = data.id;
  followGames();
}

async function start(button, body) {
  const err = $('#quick-error');
  err.textContent = '';
  button.disabled = true;
  try {
    const { data } = await api('POST', '/api/games', { ...quick, ...body });
    if (!data.invite) {
      location.href = '/g/' + data.id;
      return;
    }
    showInvitation(data);
  } catch (x) {
    err.textContent = x.message;
  } finally {
    button.disabled = false;
  }
}

const computer = $('#quick-computer');
computer.addEventListener('click', () => start(computer, { color: 'x', opponent: 'computer:level:' + computer.dataset.level }));
const friend = $('#quick-friend');
friend.addEventListener('click', () => start(friend, { color: 'random', opponent: 'link' }));

const level = $('#new-game select[name=level]');
level.addEventListener('change', () => {
  $('#level-note').textContent = level.selectedOptions[0].dataset.algo;
});
