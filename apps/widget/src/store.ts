import type { Session, WidgetConfig } from './api.ts';

/**
 * What survives a reload, per assistant, in the host page's localStorage (docs/widget-script.md:
 * resumes after reload): the session and its token, the last config (so a rate-limited init can
 * still show the widget), whether the lead form is done, ratings given and whether the panel was
 * open. Storage may be unavailable (privacy modes): then the widget still works, without resuming.
 */
export type Saved = {
  session?: Session;
  config?: WidgetConfig;
  leadDone?: boolean;
  rated?: Record<string, string>;
  open?: boolean;
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

  /** A new session starts clean: no lead, no ratings. The config stays. */
  clearSession(): void {
    const { config, open } = this.read();
    try {
      localStorage.setItem(this.key, JSON.stringify({ config, open }));
    } catch {
      // as above
    }
  }
}
