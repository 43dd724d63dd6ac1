// The console: sign-in, the operations, one operation, starting a restore. Plain modules, no
// build step; the page is built with DOM calls (no HTML from data), under a strict CSP.
import { call, credential, signIn, signOut, stream } from './api.js';
import { el, formatBytes, formatNumber, formatTime, clear, table } from './dom.js';
import { startView } from './start.js';
import { operationView } from './operation.js';

// Counted for the browser tests (and visible to anyone looking): the CSP should refuse nothing.
window.cspViolations = 0;
document.addEventListener('securitypolicyviolation', () => { window.cspViolations += 1; });

const STATES = ['QUEUED', 'RUNNING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];
const state = { me: null, stop: null };

function show(signedIn) {
  document.getElementById('sign-in').hidden = signedIn;
  document.getElementById('view').hidden = !signedIn;
  document.getElementById('nav').hidden = !signedIn;
}

async function route() {
  if (state.stop) { state.stop(); state.stop = null; }
  if (!credential()) { show(false); document.getElementById('credential').focus(); return; }
  if (!state.me) {
    try { state.me = await call('GET', '/api/v1/me'); } catch (e) { signOut(); show(false); return; }
  }
  show(true);
  const admin = state.me.role === 'ADMIN';
  document.getElementById('who').textContent = state.me.name + ' (' + state.me.role.toLowerCase() + ')';
  document.getElementById('nav-start').hidden = !admin;
  const view = document.getElementById('view');
  clear(view);
  const hash = location.hash || '#/operations';
  try {
    if (hash.startsWith('#/operations/')) {
      state.stop = operationView(view, decodeURIComponent(hash.slice('#/operations/'.length)), admin);
    } else if (hash === '#/start' && admin) {
      await startView(view, state.me);
    } else {
      state.stop = operationsView(view);
    }
  } catch (e) {
    view.append(el('p', { class: 'error', role: 'alert' }, e.message));
  }
}

/**
 * The operations, newest first, a page at a time; live through the page's progress stream, or
 * read every 2 s when the stream cannot be had.
 */
function operationsView(view) {
  const params = new URLSearchParams(location.hash.split('?')[1] || '');
  let page = Number(params.get('page') || 0);
  const filter = el('select', { id: 'state-filter' },
    el('option', { value: '' }, 'All'), ...STATES.map(s => el('option', { value: s }, s)));
  filter.value = params.get('state') || '';
  const body = el('div', { class: 'table-wrap' });
  const prev = el('button', { type: 'button', class: 'secondary', id: 'prev' }, 'Previous');
  const next = el('button', { type: 'button', class: 'secondary', id: 'next' }, 'Next');
  view.append(el('h2', {}, 'Operations'),
    el('div', { class: 'row' }, el('div', {}, el('label', { for: 'state-filter' }, 'State'), filter)),
    body, el('div', { class: 'row' }, prev, next));
  const go = () => { location.hash = '#/operations?page=' + page + (filter.value ? '&state=' + filter.value : ''); };
  filter.addEventListener('change', () => { page = 0; go(); });
  prev.addEventListener('click', () => { page = Math.max(0, page - 1); go(); });
  next.addEventListener('click', () => { page += 1; go(); });
  const q = '?size=20&page=' + page + (filter.value ? '&state=' + filter.value : '');
  function render(list) {
    prev.disabled = page === 0;
    next.disabled = !list.hasMore;
    clear(body);
    body.append(table(['Operation', 'State', 'Phase', 'Accounts', 'Items', 'Failed', 'Rate', 'ETA', 'Started'],
      list.items.map(o => [
        el('a', { href: '#/operations/' + encodeURIComponent(o.id) }, o.id.slice(0, 8)),
        el('span', { class: 'state-' + o.state }, o.state),
        o.phase || '',
        o.counts.accountsDone + ' / ' + o.counts.accounts,
        formatNumber(o.counts.itemsRestored),
        formatNumber(o.counts.itemsFailed),
        o.rates ? formatNumber(Math.round(o.rates.itemsPerSecond)) + ' items/s, ' + formatBytes(o.rates.bytesPerSecond) + '/s' : '',
        o.eta ? formatTime(o.eta) : '',
        formatTime(o.startedAt || o.createdAt)])));
  }
  let timer = null;
  // data-source says how the page is kept live: 'stream', or 'poll' where no stream could be had.
  const poll = () => call('GET', '/api/v1/restores' + q).then(list => { body.dataset.source = 'poll'; render(list); });
  const stop = stream('/api/v1/restores/events' + q, (name, list) => {
    if (name === 'page') { body.dataset.source = 'stream'; render(list); return; }
    if (timer === null) {
      poll().catch(e => { clear(body); body.append(el('p', { class: 'error', role: 'alert' }, e.message)); });
      timer = setInterval(() => poll().catch(() => {}), 2000);
    }
  });
  return () => { stop(); if (timer !== null) clearInterval(timer); };
}

document.getElementById('sign-in-form').addEventListener('submit', async event => {
  event.preventDefault();
  const error = document.getElementById('sign-in-error');
  error.textContent = '';
  try {
    state.me = await signIn(document.getElementById('credential').value);
    document.getElementById('credential').value = '';
    if (!location.hash) location.hash = '#/operations'; else route();
  } catch (e) {
    error.textContent = e.message;
  }
});
document.getElementById('sign-out').addEventListener('click', () => {
  signOut();
  state.me = null;
  location.hash = '';
  route();
});
window.addEventListener('hashchange', route);
route();

