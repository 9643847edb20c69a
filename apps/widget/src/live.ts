import type { WidgetLiveEvent } from '@parley/contract/widget';
import { type Api, ApiError, events, type Session } from './api.ts';

/** The events of the stream (packages/contract/src/widget.ts `widgetLiveEventSchema`). */
type LiveEvent = WidgetLiveEvent;

/** Who holds a handed-off conversation, as the `status` event says (docs/widget.md "Live agent replies"). */
export type Person = { name: string | null; assigned: boolean };

/**
 * Agent replies arriving live (docs/widget.md "Live agent replies": `GET .../sessions/{sid}/events`,
 * server-sent events with the session's token). Any event means "read the history again", so
 * the event shapes need not be known here. The endpoint may be missing on an older server (404)
 * and connections drop: reconnect with exponential back-off (2 s doubling to 5 min, with
 * jitter), reset by a healthy connection. Listens to one session at a time.
 */
export class LiveUpdates {
  private session: Session | null = null;
  private abort?: AbortController;
  private wake?: () => void;

  constructor(
    private readonly api: Api,
    private readonly onEvent: () => void,
    /** `question`: the satisfaction survey's, when the closed conversation asks (docs/csat.md). */
    private readonly onEnded: (session: Session, question?: string) => void,
    /**
     * A person holds the conversation: `assigned` once someone took it (their name, or null when
     * unnamed), not yet while a person has only been asked for (no agent); back with the AI: `false`.
     */
    private readonly onPerson: (person: Person | false) => void = () => {},
  ) {}

  /** Listens for `session`; already listening to it: nothing to do. */
  start(session: Session) {
    if (this.session === session) return;
    this.stop();
    this.session = session;
    void this.run(session);
  }

  stop() {
    this.session = null;
    this.abort?.abort();
    this.wake?.();
  }

  /** The network is back: reconnect now rather than at the end of the back-off. */
  retryNow() {
    this.wake?.();
  }

  private async run(session: Session) {
    let delay = 2;
    while (this.session === session) {
      const abort = new AbortController();
      this.abort = abort;
      const started = Date.now();
      try {
        const res = await this.api.events(session.sessionId, abort.signal);
        for await (const event of events<LiveEvent>(res)) {
          delay = 2;
          this.onEvent();
          if (event.type === 'status' && this.session === session) {
            this.onPerson(
              event.status === 'handoff'
                ? { name: event.agent?.name ?? null, assigned: !!event.agent }
                : false,
            );
          }
          // The session ended (by the visitor elsewhere, or for inactivity): nothing more will come.
          if (event.type === 'ended') {
            if (this.session !== session) return;
            this.session = null;
            this.onEnded(session, event.csat?.question);
            return;
          }
        }
      } catch (err) {
        // The token is refused: reconnecting cannot help; a new session starts its own.
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) break;
      }
      if (this.session !== session) return;
      if (Date.now() - started > 60_000) delay = 2;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay * (800 + Math.random() * 400));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      delay = Math.min(delay * 2, 300);
    }
    if (this.session === session) this.session = null;
  }
}
