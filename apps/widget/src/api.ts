/**
 * The widget's side of the public widget API, Form A (spec "Widget, Form A"; decisions §8). Types
 * are written out here instead of importing the server's Zod schemas: Zod alone would take most
 * of the 25 KB budget, and the shapes are the spec's.
 */

export type WidgetConfig = {
  assistantName?: string;
  welcomeMessage?: string | null;
  primaryColor?: string;
  position?: 'bottom-right' | 'bottom-left';
  leadFormEnabled?: boolean;
  leadFormFields?: string[];
  leadFormRequiredFields?: string[];
};

export type Citation = { index: number; title?: string | null; url?: string | null };

/** Spec "History message"; agent replies carry `author` (decisions §7). */
export type HistoryMessage = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  citations?: Citation[];
  author?: { type?: string; name?: string | null } | null;
  createdAt?: string;
};

export type Session = { sessionId: string; sessionToken: string };
export type InitData = Session & {
  status?: 'active' | 'ended';
  config: WidgetConfig;
  messages: HistoryMessage[];
};

/** One event of the chat stream (spec: streaming events table). */
export type StreamEvent =
  | { type: 'text-delta'; textDelta: string }
  | { type: 'tool-call'; toolName?: string }
  | { type: 'tool-result' }
  | { type: 'finish'; messageId: string | null }
  | { type: 'error'; error?: string; code?: string };

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

  /** Init creates a session (sessionId null) or resumes one with its own token (decisions §8). */
  async init(resume: Session | null): Promise<InitData> {
    const metadata = { page: location.href, referrer: document.referrer, userAgent: navigator.userAgent };
    this.token = resume?.sessionToken ?? '';
    const res = await this.call('POST', '/init', { sessionId: resume?.sessionId ?? null, metadata });
    const data = (await res.json()).data as InitData;
    this.token = data.sessionToken;
    return data;
  }

  async messages(sessionId: string): Promise<HistoryMessage[]> {
    const res = await this.call('GET', `/sessions/${sessionId}/messages`);
    return (await res.json()).data;
  }

  /** Sends a message; yields the stream's events as they arrive. */
  async *chat(sessionId: string, content: string, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const res = await this.call('POST', '/chat', { content, sessionId }, signal);
    yield* readEvents<StreamEvent>(res);
  }

  lead(sessionId: string, body: Record<string, unknown>) {
    return this.call('POST', `/sessions/${sessionId}/lead`, body);
  }

  /** Spec Feedback: `rating` is `positive` or `negative`. */
  feedback(sessionId: string, messageId: string, rating: 'positive' | 'negative') {
    return this.call('POST', `/sessions/${sessionId}/feedback`, { messageId, rating });
  }

  end(sessionId: string) {
    return this.call('POST', `/sessions/${sessionId}/end`, {});
  }

  /** Agent replies as server-sent events (decisions §8); the caller reconnects. */
  events(sessionId: string, signal: AbortSignal) {
    return this.call('GET', `/sessions/${sessionId}/events`, undefined, signal);
  }

  async call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.token) headers.authorization = `Widget ${this.token}`;
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
 * Reads a `text/event-stream` body: `data:` lines hold JSON (spec: streaming events); comments
 * such as `: keep-alive` and unparsable data are skipped. A fetch body rather than EventSource,
 * because EventSource cannot send the `Authorization: Widget` header.
 */
export async function* readEvents<T>(res: Response): AsyncGenerator<T> {
  const reader = res.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw new ApiError(0, 'network', 'Connection lost');
    }
    buffer += decoder.decode(chunk.value, { stream: !chunk.done }).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (!data) continue;
      try {
        yield JSON.parse(data) as T;
      } catch {
        // Not JSON: not one of ours; skip it.
      }
    }
    if (chunk.done) return;
  }
}
