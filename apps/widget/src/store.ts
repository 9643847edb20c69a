import type { Session, WidgetConfig } from './api.ts';

/**
 * What survives a reload, per assistant, in the host page's localStorage (so per site origin too;
 * docs/widget-script.md "What the visitor sees"): the session and its token (a reload resumes it
 * with GETs only, outside the POST budget), the last config (shown if the server cannot be asked),
 * whether the lead form is done, ratings given, whether the panel was open, and a message waiting
 * out a 429. Storage may be unavailable (privacy modes): then the widget still works, without resuming.
 */
export type Saved = {
  session?: Session;
  config?: WidgetConfig;
  leadDone?: boolean;
  rated?: Record<string, string>;
  open?: boolean;
  /** A message refused with 429, sent by itself at `until` (epoch ms), even after a reload. */
  queued?: { text: string; until: number };
};

export class Store {
  private readonly key: string;

  constructor(assistantId: string) {
    this.key = `parley:widget:${assistantId}`;
  }

  read(): Saved {
    try {
      const parsed = JSON.parse(localStorage.getItem(this.key) ?? '{}');
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch {
      return {};
    }
  }

  update(change: Partial<Saved>): void {
    try {
      localStorage.setItem(this.key, JSON.stringify({ ...this.read(), ...change }));
    } catch {
      // Storage full or blocked: nothing to resume next time, nothing else breaks.
    }
  }

  /** A new session starts clean: no lead, no ratings. The config and a queued message stay. */
  clearSession(): void {
    const { config, open, queued } = this.read();
    try {
      localStorage.setItem(this.key, JSON.stringify({ config, open, queued }));
    } catch {
      // as above
    }
  }
}
