// HTTP and SSE access to Eventide, with the credential the header's field holds.

const TOKEN_KEY = 'eventide.credential';

export function credential() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

export function setCredential(value) {
  sessionStorage.setItem(TOKEN_KEY, value);
}

export async function getJson(path) {
  return request('GET', path);
}

export async function postJson(path, body) {
  return request('POST', path, body);
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (credential()) headers.Authorization = 'Bearer ' + credential();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const problem = json && (json.detail || json.title);
    const errors = json && json.errors ? '\n' + json.errors.map(e => e.field + ': ' + e.message).join('\n') : '';
    throw new Error(response.status + ' ' + (problem || response.statusText) + errors);
  }
  return json;
}

// EventSource cannot send headers: the credential goes as RFC 6750's access_token parameter,
// which Eventide accepts on its GET stream routes only.
function streamUrl(path, params) {
  const url = new URL(path, location.href);
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, v);
  }
  if (credential()) url.searchParams.set('access_token', credential());
  return url.toString();
}

const status = new Set();
export function onConnectionChange(listener) { status.add(listener); }
function connection(state) { status.forEach(l => l(state)); }

/**
 * A pane stream that survives disconnects: it starts with a snapshot, remembers the position of
 * the last event it handled and, whenever the stream ends or fails, opens a new one from that
 * position (lastEventId), so that nothing is missed or seen twice; after a `behind` notice (the
 * log no longer holds its position) it starts over with a snapshot.
 */
export class PaneStream {
  constructor(pipeline, filters, handlers) {
    this.pipeline = pipeline;
    this.filters = filters;
    this.handlers = handlers;
    this.position = null;
    this.closed = false;
    this.retry = 500;
    this.open();
  }

  open() {
    if (this.closed) return;
    const params = { ...this.filters };
    if (this.position === null) params.snapshot = 'true';
    else params.lastEventId = this.position;
    const source = new EventSource(
      streamUrl('/pipelines/' + encodeURIComponent(this.pipeline) + '/panes', params));
    this.source = source;
    let snapshotting = this.position === null;
    let opened = false;
    if (snapshotting) this.handlers.reset();
    source.onopen = () => { opened = true; this.retry = 500; connection('live'); };
    source.addEventListener('snapshot', e => this.handlers.pane(JSON.parse(e.data).pane, true));
    source.addEventListener('snapshot-end', e => {
      snapshotting = false;
      this.position = e.lastEventId;
      this.handlers.snapshotEnd?.(JSON.parse(e.data));
    });
    for (const kind of ['pane', 'retraction']) {
      source.addEventListener(kind, e => {
        this.position = e.lastEventId;
        this.handlers.pane(JSON.parse(e.data), false);
      });
    }
    source.addEventListener('merge', e => {
      this.position = e.lastEventId;
      this.handlers.merge(JSON.parse(e.data));
    });
    // How far windows are final: no id, it is not a position in the log.
    source.addEventListener('progress', e => this.handlers.progress?.(JSON.parse(e.data)));
    source.addEventListener('behind', () => { this.position = null; });
    source.addEventListener('idle', () => {});
    // Whatever ended the stream (the server's idle timeout or shutdown, a lost connection, a
    // restart), a new stream continues from the position; a snapshot cut short starts over.
    source.onerror = async () => {
      source.close();
      if (snapshotting) this.position = null;
      connection('reconnecting');
      // A resume refused outright: EventSource does not say why, HEAD does. A 400 is a position
      // the log no longer reaches (it was started anew): start over with a snapshot.
      if (!opened && this.position !== null) {
        const answer = await fetch(source.url, { method: 'HEAD' }).catch(() => null);
        if (answer?.status === 400) this.position = null;
      }
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  close() {
    this.closed = true;
    this.source?.close();
  }
}

/** The status stream: every pipeline's status once a second, reopened whenever it ends. */
export class StatusStream {
  constructor(handler) {
    this.handler = handler;
    this.closed = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    this.source = new EventSource(streamUrl('/pipelines/status', {}));
    this.source.onopen = () => connection('live');
    this.source.addEventListener('status', e => this.handler(JSON.parse(e.data)));
    this.source.onerror = () => {
      this.source.close();
      connection('reconnecting');
      setTimeout(() => this.open(), 1000);
    };
  }

  close() {
    this.closed = true;
    this.source?.close();
  }
}
