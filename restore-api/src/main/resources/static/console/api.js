// The REST API, as the signed-in user: every call carries the credential in a header (never a
// cookie, so no cross-site request can act for the user).
const KEY = 'mailrestore.credential';

export function credential() {
  return sessionStorage.getItem(KEY);
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

/** A token, or user:password for a configured user. */
export function authorization(text) {
  const value = text.trim();
  const colon = value.indexOf(':');
  const utf8 = String.fromCharCode(...new TextEncoder().encode(value));
  return colon > 0 ? 'Basic ' + btoa(utf8) : 'Bearer ' + value;
}

export async function signIn(text) {
  const auth = authorization(text);
  const r = await fetch('/api/v1/me', { headers: { Authorization: auth } });
  if (r.status !== 200) {
    throw new Error(r.status === 401 ? 'The token or the password was refused.' : 'Sign-in failed: HTTP ' + r.status);
  }
  sessionStorage.setItem(KEY, auth);
  return r.json();
}

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem && (problem.detail || problem.title) ? (problem.detail || problem.title) : 'HTTP ' + status);
    this.status = status;
    this.problem = problem;
  }
}

export async function call(method, path, body) {
  const headers = { Authorization: credential() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const json = text ? JSON.parse(text) : null;
  if (r.status >= 400) throw new ApiError(r.status, json);
  return json;
}

/** Follows an operation's progress stream: onEvent(name, operation); returns its stop. */
export function follow(id, onEvent) {
  return stream('/api/v1/restores/' + encodeURIComponent(id) + '/events', onEvent);
}

/**
 * Reads a stream of Server-Sent Events over fetch (which, unlike EventSource, can send the
 * credential): onEvent(name, data) for each event, ('error', null) when it fails, ('closed', null)
 * when the service ends it; returns a function that stops it.
 */
export function stream(path, onEvent) {
  const controller = new AbortController();
  (async () => {
    try {
      const r = await fetch(path, { headers: { Authorization: credential() }, signal: controller.signal });
      if (!r.ok) throw new ApiError(r.status, null);
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5));
          }
          if (data.length) onEvent(name, JSON.parse(data.join('\n')));
        }
      }
      onEvent('closed', null);
    } catch (e) {
      if (e.name !== 'AbortError') onEvent('error', null);
    }
  })();
  return () => controller.abort();
}
