// One operation: its phases, figures and accounts live, its report, and (for admins) cancel,
// resume, pace and verify.
import { call, follow } from './api.js';
import { clear, download, el, formatBytes, formatNumber, formatTime, table } from './dom.js';

const PHASES = ['PROVISIONING', 'DATA', 'SHARES'];

export function operationView(view, id, admin) {
  const head = el('div', {});
  const accounts = el('div', { class: 'table-wrap' });
  const report = el('div', {});
  const actions = el('div', {});
  const message = el('p', { role: 'status', id: 'op-message' });
  view.append(el('h2', {}, 'Operation ', el('code', {}, id)), head, message, actions,
    el('h3', {}, 'Accounts'), accounts, el('h3', {}, 'Report'), report);
  let ended = false;

  function render(op) {
    clear(head);
    const current = op.phase;
    head.append(
      el('p', {}, 'State: ', el('strong', { class: 'state-' + op.state, id: 'op-state' }, op.state),
        '  Source: ', op.source),
      el('ol', { class: 'timeline', 'aria-label': 'Phases' }, PHASES.map(p => el('li',
        { class: p === current && !isEnded(op) ? 'current' : '' },
        p.toLowerCase() + phaseTime(op, p)))),
      el('dl', { class: 'figures' },
        el('dt', {}, 'Accounts'), el('dd', {}, op.counts.accountsDone + ' of ' + op.counts.accounts
          + (op.counts.accountsFailed ? ', ' + op.counts.accountsFailed + ' failed' : '')),
        el('dt', {}, 'Items'), el('dd', { id: 'op-items' }, formatNumber(op.counts.itemsRestored) + ' restored, '
          + formatNumber(op.counts.itemsSkipped) + ' skipped, ' + formatNumber(op.counts.itemsFailed) + ' failed'),
        el('dt', {}, 'Bytes'), el('dd', {}, formatBytes(op.counts.bytesRestored)),
        el('dt', {}, 'Rate'), el('dd', {}, op.rates ? formatNumber(Math.round(op.rates.itemsPerSecond))
          + ' items/s, ' + formatBytes(op.rates.bytesPerSecond) + '/s' : ''),
        el('dt', {}, 'ETA'), el('dd', {}, op.eta ? formatTime(op.eta) : ''),
        el('dt', {}, 'Started'), el('dd', {}, formatTime(op.startedAt)),
        el('dt', {}, 'Ended'), el('dd', {}, formatTime(op.finishedAt))));
  }

  async function refreshDetails(op) {
    const list = await call('GET', '/api/v1/restores/' + encodeURIComponent(id) + '/accounts');
    clear(accounts);
    accounts.append(table(['Account', 'State', 'Restored', 'Skipped', 'Failed', 'Bytes'],
      list.map(a => [a.accountName, el('span', { class: 'state-' + a.state }, a.state),
        formatNumber(a.itemsRestored), formatNumber(a.itemsSkipped), formatNumber(a.itemsFailed),
        formatBytes(a.bytesRestored)])));
    if (isEnded(op)) await renderReport();
  }

  async function renderReport() {
    const r = await call('GET', '/api/v1/restores/' + encodeURIComponent(id) + '/report');
    const rows = [];
    for (const a of r.accounts) {
      for (const p of a.unrestored) rows.push({ account: a.account, kind: 'unrestored', ...p });
      for (const p of a.repaired) rows.push({ account: a.account, kind: 'repaired', ...p });
    }
    for (const p of r.general) rows.push({ account: '', kind: 'general', ...p });
    const reasons = [...new Set(rows.map(x => x.reason))].sort();
    const filter = el('select', { id: 'reason-filter' }, el('option', { value: '' }, 'All reasons'),
      reasons.map(x => el('option', { value: x }, x)));
    const body = el('div', { class: 'table-wrap', id: 'report-table' });
    const draw = () => {
      clear(body);
      const shown = rows.filter(x => !filter.value || x.reason === filter.value);
      body.append(shown.length === 0 ? el('p', {}, 'Nothing to report.') : table(
        ['Account', 'Item', 'Phase', 'Reason', 'Detail'],
        shown.map(x => [x.account, x.itemId ? String(x.itemId) : '', x.phase, x.reason, x.detail])));
    };
    filter.addEventListener('change', draw);
    const json = el('button', { type: 'button', class: 'secondary', id: 'download-json' }, 'Download JSON');
    json.addEventListener('click', () => download('report-' + id + '.json', 'application/json', JSON.stringify(r, null, 2)));
    const csv = el('button', { type: 'button', class: 'secondary', id: 'download-csv' }, 'Download CSV');
    csv.addEventListener('click', () => download('report-' + id + '.csv', 'text/csv', toCsv(rows)));
    clear(report);
    report.append(el('div', { class: 'row' },
      el('div', {}, el('label', { for: 'reason-filter' }, 'Reason'), filter), json, csv), body);
    draw();
  }

  let last = null;
  let stop = () => {};
  const listen = () => {
    stop();
    ended = false;
    stop = follow(id, (name, op) => {
      if (name === 'closed') return;
      if (name === 'error' || !op) { message.textContent = 'The progress stream was interrupted; reload to follow again.'; return; }
      last = op;
      render(op);
      if (name === 'end' && !ended) {
        ended = true;
        refreshDetails(op).catch(e => { message.textContent = e.message; });
      }
    });
  };
  // A resumed operation runs again: follow it again.
  if (admin) actions.append(adminActions(id, message, listen));
  listen();
  const timer = setInterval(() => { if (last && !ended) refreshDetails(last).catch(() => {}); }, 3000);
  call('GET', '/api/v1/restores/' + encodeURIComponent(id))
    .then(op => { if (!last) render(op); return refreshDetails(op); })
    .catch(e => { message.textContent = e.message; });
  return () => { stop(); clearInterval(timer); };
}

function isEnded(op) {
  return ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'].includes(op.state);
}

function phaseTime(op, phase) {
  const ms = { PROVISIONING: op.phases.provisioningMs, DATA: op.phases.dataMs, SHARES: op.phases.sharesMs }[phase];
  return ms === null || ms === undefined ? '' : ' (' + (ms / 1000).toFixed(1) + ' s)';
}

function toCsv(rows) {
  const cell = v => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
  };
  const header = ['account', 'kind', 'itemId', 'phase', 'reason', 'location', 'detail'];
  return [header.join(','), ...rows.map(r => header.map(h => cell(r[h])).join(','))].join('\r\n') + '\r\n';
}

function adminActions(id, message, resumed) {
  const path = '/api/v1/restores/' + encodeURIComponent(id);
  const act = (label, buttonId, fn) => {
    const b = el('button', { type: 'button', id: buttonId }, label);
    b.addEventListener('click', async () => {
      message.textContent = '';
      try { message.textContent = await fn(); } catch (e) { message.textContent = e.message; }
    });
    return b;
  };
  const items = el('input', { id: 'pace-items', type: 'number', min: '1', step: 'any', inputmode: 'decimal' });
  const mb = el('input', { id: 'pace-mb', type: 'number', min: '1', step: 'any', inputmode: 'decimal' });
  const verifyOut = el('div', { id: 'verify-result' });
  call('GET', path + '/pace').then(p => {
    items.value = p.maxItemsPerSecond ?? '';
    mb.value = p.maxMbPerSecond ?? '';
  }).catch(() => {});
  return el('div', {},
    el('div', { class: 'row' },
      act('Cancel', 'cancel', async () => { await call('POST', path + '/cancel'); return 'Cancelling: it stops within seconds.'; }),
      act('Resume', 'resume', async () => { await call('POST', path + '/resume'); resumed(); return 'Resumed.'; }),
      el('div', {}, el('label', { for: 'pace-items' }, 'Items per second'), items),
      el('div', {}, el('label', { for: 'pace-mb' }, 'MB per second'), mb),
      act('Apply pace', 'apply-pace', async () => {
        const body = { maxItemsPerSecond: items.value ? Number(items.value) : null, maxMbPerSecond: mb.value ? Number(mb.value) : null };
        const p = await call('PUT', path + '/pace', body);
        return 'Pace: ' + (p.maxItemsPerSecond ?? 'no bound') + ' items/s, ' + (p.maxMbPerSecond ?? 'no bound') + ' MB/s.';
      }),
      act('Verify', 'verify', async () => {
        const v = await call('POST', path + '/verify');
        clear(verifyOut);
        verifyOut.append(el('p', { id: 'verify-summary' }, v.differenceCount === 0
          ? 'Verified: no differences (' + formatNumber(v.items) + ' items, ' + v.accounts + ' accounts).'
          : v.differenceCount + ' differences:'), el('ul', {}, v.differences.map(d => el('li', {}, d))));
        return '';
      })),
    verifyOut);
}
