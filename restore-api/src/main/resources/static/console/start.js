// Starting a restore: the source (a form built from the installed kinds' options), what it holds,
// which accounts and how, a dry run, then the start.
import { call } from './api.js';
import { clear, el, formatBytes, formatNumber, formatTime, table } from './dom.js';

export async function startView(view, me) {
  const kinds = await call('GET', '/api/v1/kinds/sources');
  const kind = el('select', { id: 'source-kind' }, kinds.map(k => el('option', { value: k.name }, k.name)));
  const place = el('input', { id: 'source-location', type: 'text', size: '60', required: true });
  const options = el('div', { id: 'source-options', class: 'row' });
  const drawOptions = () => {
    clear(options);
    const k = kinds.find(x => x.name === kind.value);
    for (const o of k.options) {
      const id = 'option-' + o.name;
      const input = o.allowed.length
        ? el('select', { id, 'data-option': o.name }, el('option', { value: '' }, o.defaultValue ? 'default (' + o.defaultValue + ')' : ''),
          o.allowed.map(a => el('option', { value: a }, a)))
        : el('input', { id, type: 'text', 'data-option': o.name, placeholder: o.defaultValue || '' });
      options.append(el('div', {}, el('label', { for: id, title: o.description }, o.name + (o.required ? ' (required)' : '')), input));
    }
  };
  kind.addEventListener('change', drawOptions);
  drawOptions();

  const inspectButton = el('button', { type: 'button', id: 'inspect' }, 'Inspect');
  const inspection = el('div', { id: 'inspection' });
  const message = el('p', { class: 'error', role: 'alert', id: 'start-message' });
  const policy = el('select', { id: 'policy' }, ['merge', 'skip', 'replace', 'new-account'].map(p => el('option', { value: p }, p)));
  const asOf = el('input', { id: 'as-of', type: 'datetime-local', step: '1' });
  const into = el('input', { id: 'into', type: 'email', placeholder: 'restore into this account instead' });
  const items = el('input', { id: 'items', type: 'text', inputmode: 'numeric', placeholder: '1201, 1202' });
  const folders = el('input', { id: 'folders', type: 'text', placeholder: '/Inbox/Projects' });
  // Mailing the owners needs the service's SMTP server: offered only where there is one.
  const ownersText = me && me.canNotifyOwners
    ? "the service's recipients and each account's owner"
    : "each account's owner (the service has no SMTP server)";
  const notify = el('select', { id: 'notify' },
    el('option', { value: 'service' }, "the service's recipients"),
    el('option', { value: 'owners', disabled: !(me && me.canNotifyOwners) }, ownersText),
    el('option', { value: 'none' }, 'nobody'));
  const dryRunButton = el('button', { type: 'button', id: 'dry-run', disabled: true }, 'Dry run');
  const startButton = el('button', { type: 'button', id: 'start', disabled: true }, 'Start the restore');
  const plan = el('div', { id: 'plan' });

  view.append(el('h2', {}, 'Start a restore'),
    el('div', { class: 'row' },
      el('div', {}, el('label', { for: 'source-kind' }, 'Source kind'), kind),
      el('div', {}, el('label', { for: 'source-location' }, 'Location (a path, or s3://bucket/prefix)'), place)),
    options, el('div', { class: 'row' }, inspectButton), message, inspection,
    el('div', { class: 'row' },
      el('div', {}, el('label', { for: 'policy' }, 'If the account exists'), policy),
      el('div', {}, el('label', { for: 'as-of' }, 'As of (your time zone; empty: the latest)'), asOf),
      el('div', {}, el('label', { for: 'into' }, 'Into another account'), into)),
    el('div', { class: 'row' },
      el('div', {}, el('label', { for: 'items' }, 'Only these items (ids, comma-separated)'), items),
      el('div', {}, el('label', { for: 'folders' }, 'Only these folders (paths, comma-separated)'), folders),
      el('div', {}, el('label', { for: 'notify' }, 'When it ends, tell'), notify)),
    el('div', { class: 'row' }, dryRunButton, startButton), plan);

  const source = () => {
    const opts = {};
    for (const input of options.querySelectorAll('[data-option]')) {
      if (input.value) opts[input.getAttribute('data-option')] = input.value;
    }
    return { kind: kind.value, location: place.value.trim(), options: opts };
  };
  const chosen = () => [...inspection.querySelectorAll('input[data-account]:checked')].map(c => c.getAttribute('data-account'));
  const body = () => {
    const b = { source: source(), conflictPolicy: policy.value };
    const accounts = chosen();
    if (accounts.length) b.accounts = accounts;
    if (asOf.value) b.asOf = new Date(asOf.value).toISOString();
    if (into.value.trim()) b.into = into.value.trim();
    const list = input => input.value.split(',').map(x => x.trim()).filter(x => x);
    if (list(items).length) b.items = list(items).map(Number);
    if (list(folders).length) b.folders = list(folders);
    if (notify.value === 'none') b.notifyService = false;
    if (notify.value === 'owners') b.notifyOwners = true;
    return b;
  };
  const guard = fn => async () => {
    message.textContent = '';
    try { await fn(); } catch (e) {
      const fields = e.problem && e.problem.errors ? ' (' + e.problem.errors.map(x => x.field + ': ' + x.message).join('; ') + ')' : '';
      message.textContent = e.message + fields;
    }
  };

  inspectButton.addEventListener('click', guard(async () => {
    const r = await call('POST', '/api/v1/sources/inspect', { source: source() });
    clear(inspection);
    inspection.append(
      el('p', { id: 'inspection-summary' }, r.accounts.length + ' accounts, ' + formatNumber(r.items) + ' items, ' + formatBytes(r.bytes)
        + (r.earliest ? '; point in time from ' + formatTime(r.earliest) + ' to ' + formatTime(r.latest) : '')),
      el('div', { class: 'table-wrap' }, table(['Restore', 'Account', 'Items', 'By type', 'Bytes', 'Deleted'],
        r.accounts.map(a => {
          const id = 'account-' + a.id;
          return [el('input', { type: 'checkbox', id, 'data-account': a.name, 'aria-label': 'restore ' + a.name }),
            el('label', { for: id }, a.name + (a.system ? ' (system)' : '')), formatNumber(a.items),
            Object.entries(a.itemsByType).map(([t, n]) => t + ' ' + n).join(', '), formatBytes(a.bytes), formatNumber(a.deleted)];
        }))),
      r.unreadable.length ? el('p', { class: 'error' }, 'Cannot be read: ' + r.unreadable.join(', ')) : '');
    dryRunButton.disabled = false;
  }));

  dryRunButton.addEventListener('click', guard(async () => {
    const p = await call('POST', '/api/v1/restores/dry-run', body());
    clear(plan);
    plan.append(el('h3', {}, 'Dry run'),
      el('p', { id: 'plan-summary' }, p.accounts.length + ' accounts, ' + formatNumber(p.items) + ' items, ' + formatBytes(p.bytes) + ' into ' + p.target),
      el('div', { class: 'table-wrap' }, table(['Account', 'Becomes', 'Action', 'Items', 'By type', 'Bytes'],
        p.accounts.map(a => [a.account, a.into, a.action, formatNumber(a.items),
          Object.entries(a.itemsByType).map(([t, n]) => t + ' ' + n).join(', '), formatBytes(a.bytes)]))));
    startButton.disabled = false;
  }));

  startButton.addEventListener('click', guard(async () => {
    const op = await call('POST', '/api/v1/restores', body());
    location.hash = '#/operations/' + encodeURIComponent(op.id);
  }));
}
