// The live view's connection to a running `queuelab serve` (its control
// API under /_queuelab/, docs/server.md): the journal read in pages
// (GET journal?from=N, at most 1000 calls each), then its stream
// (journal/live?from=N, Server-Sent Events: the calls since the last
// message and the server's virtual `now`). Each page or message is handed
// on in order, the calls from where the last ended; a stream that breaks
// is closed and opened again from there after a wait that doubles
// (RETRY_MS to RETRY_MAX_MS), so a server that went away costs a request
// every few seconds and never holds the tab. A server answering with
// another run (it was restarted without --data) starts the view again.
// No DOM: page/live.js draws what this reports.

/** The first wait before connecting again, and the longest. */
export const RETRY_MS = 1000;
export const RETRY_MAX_MS = 15000;

/** A journal's identity: the same server run has the same scenario, seed and options (startEpochMs is its start's wall clock). */
const identityOf = (j) => JSON.stringify([j.scenario, j.seed, j.options]);

/** Whether `j` reads as a Queuelab journal page (a server that is something else answers otherwise). */
const isJournal = (j) => j && Array.isArray(j.calls) && Number.isSafeInteger(j.from) && Number.isSafeInteger(j.recorded) && Number.isFinite(j.now);

/**
 * How far a page or message lets the view play: the server's `now` once
 * every call up to it is here, else only to the last call it brought
 * (later calls at that moment come with the next page); never past the
 * first call the server did not record (its journal was full).
 */
export function reachOf(page) {
  const complete = page.from + page.calls.length >= page.recorded;
  const t = complete ? page.now : (page.calls.at(-1)?.t ?? 0);
  return page.unrecordedFrom != null ? Math.min(t, page.unrecordedFrom) : t;
}

export class LiveFeed {
  /**
   * `base`: the server's URL (ending in "/"). `begin(head)`: a run to show
   * from its start (the journal's scenario, seed and options); `take(page)`:
   * a journal page or message to append, false when its calls do not follow
   * on; `changed()`: the connection's state moved (state()).
   * @param {URL} base
   * @param {{ begin: (head: any) => boolean, take: (page: any) => boolean, changed?: () => void, EventSource?: typeof EventSource, fetch?: typeof fetch }} hooks
   */
  constructor(base, { begin, take, changed = () => {}, EventSource: Source = globalThis.EventSource, fetch: get = globalThis.fetch.bind(globalThis) }) {
    this.base = base;
    this.begin = begin;
    this.take = take;
    this.changed = changed;
    this.Source = Source;
    this.get = get;
    this.status = "connecting"; // connecting, live, lost, refused
    this.identity = null; // the run shown (identityOf)
    this.next = 0; // the journal's calls read so far
    this.paused = false; // the server's clock stands still
    this.calls = 0; // the calls the server has made (recorded and not)
    this.error = "";
    this.wait = RETRY_MS;
    this.retryAt = 0; // wall ms of the next attempt while lost
    this.source = null;
    this.timer = 0;
    this.stopped = false;
  }

  /** The connection as the banner says it. */
  state() {
    return { state: this.status, paused: this.paused, calls: this.calls, error: this.error, retryInMs: Math.max(0, this.retryAt - Date.now()) };
  }

  url(path) {
    return new URL(`_queuelab/${path}`, this.base).href;
  }

  /** Reads the journal from where the view got to, then follows its stream. */
  async connect() {
    if (this.stopped) return;
    this.set("connecting");
    try {
      let page = await this.page(this.next);
      if (identityOf(page) !== this.identity || page.recorded < this.next) {
        // A new run (or the first): shown from its start.
        if (page.from !== 0) page = await this.page(0);
        this.identity = identityOf(page);
        this.next = 0;
        if (!this.begin(page)) return this.refuse("This page cannot make the server's run again (the box below says why).");
      }
      this.hand(page);
      while (this.next < page.recorded && !this.stopped) this.hand((page = await this.page(this.next)));
    } catch (e) {
      return this.lost(e);
    }
    this.listen();
  }

  /** One journal page from call `from`. */
  async page(from) {
    const res = await this.get(this.url(`journal?from=${from}`), { cache: "no-store" });
    const j = await res.json().catch(() => null);
    if (!res.ok || !isJournal(j)) throw Object.assign(new Error(j?.error ?? `GET /_queuelab/journal answered ${res.status}`), { refused: res.ok || res.status === 404 });
    return j;
  }

  /** Hands a page or message on; one whose calls do not follow on means the view lost its place: read again from there. */
  hand(page) {
    if (!this.take(page)) throw new Error("the journal's calls did not follow on");
    this.next = page.from + page.calls.length;
    this.paused = !!page.paused;
    this.calls = page.recorded + (page.unrecorded ?? 0);
    this.wait = RETRY_MS;
  }

  /** The stream from where the view got to. */
  listen() {
    if (this.stopped) return;
    const source = new this.Source(this.url(`journal/live?from=${this.next}`));
    this.source = source;
    source.onopen = () => this.set("live");
    source.onmessage = (m) => {
      try {
        const page = JSON.parse(m.data);
        if (!isJournal(page)) throw new Error("a message that is no journal");
        this.hand(page);
        this.set("live");
      } catch (e) {
        this.lost(e);
      }
    };
    source.onerror = () => this.lost(new Error("the stream broke"));
  }

  /** The server went away (or said something unreadable): close, say so, and try again after the wait. */
  lost(e) {
    if (this.stopped) return;
    this.source?.close();
    this.source = null;
    if (e?.refused) return this.refuse(`It answered, but not as a Queuelab server: ${e.message}`);
    clearTimeout(this.timer);
    this.retryAt = Date.now() + this.wait;
    this.timer = setTimeout(() => this.connect(), this.wait);
    this.wait = Math.min(RETRY_MAX_MS, this.wait * 2);
    this.set("lost");
  }

  /** Gives up, saying why in `words`: asking again would get the same answer. */
  refuse(words) {
    this.error = words;
    this.stop();
    this.set("refused");
  }

  set(status) {
    this.status = status;
    this.changed();
  }

  stop() {
    this.stopped = true;
    this.source?.close();
    clearTimeout(this.timer);
  }
}
