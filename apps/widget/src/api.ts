import type {
  HistoryMessage,
  PublicWidgetConfig,
  StreamEvent,
  WidgetInit,
  WidgetSession,
} from '@parley/contract/api-types';
import { readEvents } from '@parley/contract/sse-reader';
import { visitorLanguages } from './strings.ts';

/**
 * The widget's side of the public widget API, Form A (docs/widget.md). Its types are the server's
 * (packages/contract/src/api-types.ts, inferred from the Zod schemas), imported as types only: the Zod
 * schemas themselves never reach the script, which must stay within its 25 KB budget.
 */

export type { HistoryMessage, StreamEvent };
/** Partial: a config saved by an earlier script (store.ts) may lack fields added since. */
export type WidgetConfig = Partial<PublicWidgetConfig>;
export type Citation = HistoryMessage['citations'][number];
export type Session = WidgetSession;
export type InitData = WidgetInit;

/** A failed call: `status` 0 means the network failed (offline, DNS, CORS refused). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter = 0,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class Api {
  token = '';

  constructor(
    private readonly base: string,
    readonly assistantId: string,
  ) {}

  /**
   * Creates a session (docs/widget.md "Form A: the init flow" with `sessionId` null). A POST, so it
   * counts against the per-IP budget: the widget calls it only when the visitor first needs a
   * session (a message or the lead form), never on a page load.
   */
  async init(): Promise<InitData> {
    const metadata = { page: location.href, referrer: document.referrer, userAgent: navigator.userAgent };
    this.token = '';
    // The visitor's languages choose the config's language (docs/languages.md "Widget").
    const res = await this.call('POST', '/init', {
      sessionId: null,
      metadata,
      languages: visitorLanguages(),
    });
    const data = (await res.json()).data as InitData;
    this.token = data.sessionToken;
    return data;
  }

  /**
   * The public configuration (GET, outside the POST budget; it needs no session), in the first of
   * the visitor's languages the widget speaks.
   */
  async config(): Promise<WidgetConfig> {
    const languages = visitorLanguages().join(',');
    const res = await this.call(
      'GET',
      languages ? `/config?languages=${encodeURIComponent(languages)}` : '/config',
    );
    return (await res.json()).data;
  }

  /**
   * Whether the server answers at all: a `no-cors` request succeeds without CORS headers. When an
   * API call failed as a network error but this succeeds, the browser refused the answer: the page's
   * origin is not on the widget's allowlist.
   */
  reachable(): Promise<boolean> {
    return fetch(`${this.base}/widget.js`, { method: 'HEAD', mode: 'no-cors', cache: 'no-store' }).then(
      () => true,
      () => false,
    );
  }

  async messages(sessionId: string): Promise<HistoryMessage[]> {
    const res = await this.call('GET', `/sessions/${sessionId}/messages`);
    return (await res.json()).data;
  }

  /** Sends a message; yields the stream's events as they arrive. */
  async *chat(sessionId: string, content: string, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const res = await this.call('POST', '/chat', { content, sessionId }, signal);
    yield* events<StreamEvent>(res);
  }

  lead(sessionId: string, body: Record<string, unknown>) {
    return this.call('POST', `/sessions/${sessionId}/lead`, body);
  }

  /** docs/widget.md "Leads and feedback": `rating` is `positive` or `negative`. */
  feedback(sessionId: string, messageId: string, rating: 'positive' | 'negative') {
    return this.call('POST', `/sessions/${sessionId}/feedback`, { messageId, rating });
  }

  end(sessionId: string) {
    return this.call('POST', `/sessions/${sessionId}/end`, {});
  }

  /**
   * Agent replies as server-sent events (docs/widget.md "Live agent replies"); the caller reconnects.
   * `token`: an ended session's, kept for its satisfaction survey after the widget let it go.
   */
  events(sessionId: string, signal: AbortSignal, token = this.token) {
    return this.call('GET', `/sessions/${sessionId}/events`, undefined, signal, token);
  }

  /**
   * The visitor's rating of their closed conversation (docs/csat.md "In the widget"), with the
   * token of its session, which has ended: the widget holds no session by then.
   */
  async csat(token: string, rating: number, comment: string): Promise<void> {
    await this.call('POST', '/csat', comment ? { rating, comment } : { rating }, undefined, token);
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    token = this.token,
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Widget ${token}`;
    let res: Response;
    try {
      res = await fetch(`${this.base}/api/widget/${encodeURIComponent(this.assistantId)}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ApiError(0, 'network', 'Network error');
    }
    if (res.ok) return res;
    const json = await res.json().catch(() => ({}));
    const { code = '', error = res.statusText, details = {} } = json;
    // A cross-origin script cannot read Retry-After (not a CORS-safelisted header): the server
    // repeats it as `details.retryAfter`.
    const retryAfter = Number(res.headers.get('retry-after') || details.retryAfter) || 0;
    throw new ApiError(res.status, String(code), String(error), retryAfter, details);
  }
}

/**
 * The events of a `text/event-stream` answer (apps/server/src/lib/sse-reader.ts); a dropped
 * connection becomes a network ApiError, as a failed fetch does.
 */
export async function* events<T>(res: Response): AsyncGenerator<T> {
  try {
    yield* readEvents<T>(res.body);
  } catch {
    // Not 'network': the server did answer, so this is no sign of a refused origin (widget.ts).
    throw new ApiError(0, 'stream', 'Connection lost');
  }
}
