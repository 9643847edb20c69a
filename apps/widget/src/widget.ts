import { Api, ApiError, type InitData, type Session, type WidgetConfig } from './api.ts';
import { Conversation } from './conversation.ts';
import { h } from './dom.ts';
import { buildLeadForm, type LeadResult } from './lead-form.ts';
import { friendly } from './messages.ts';
import { type Saved, Store } from './store.ts';
import { buildView, type View } from './view.ts';

/**
 * One widget on the page: boots a session, draws launcher and panel in a shadow root, and owns
 * opening, closing, the lead form, ending and restarting. The conversation itself (sending,
 * streaming, history, live agent replies) is in conversation.ts.
 */
export class Widget {
  readonly api: Api;
  readonly store: Store;
  view?: View;
  config: WidgetConfig = {};
  session: Session | null = null;
  chat?: Conversation;
  private host?: HTMLElement;
  private alertTimer = 0;

  constructor(base: string, assistantId: string) {
    this.api = new Api(base, assistantId);
    this.store = new Store(assistantId);
  }

  /**
   * Init, resuming the stored session when there is one (docs/widget.md). Disabled widget (404) or
   * a website not on the allowlist (403): no widget at all. Rate-limited or offline with a stored
   * session: the widget still appears from the saved config and resumes with the saved token,
   * since reading history is a GET and does not count against the widget's POST budget.
   */
  async boot(attempt = 0): Promise<void> {
    const saved = this.store.read();
    let data: InitData | null = null;
    try {
      data = await this.start(saved.session ?? null);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const offline = err.status === 0 && !navigator.onLine;
      if ((err.status === 429 || offline) && saved.session && saved.config) {
        this.config = saved.config;
        this.session = saved.session;
        this.api.token = saved.session.sessionToken;
      } else {
        // 404: disabled; 403: not on the allowlist. A refused origin gets no CORS headers, so the
        // browser reports it as a network failure (status 0): a few spaced retries, then quiet.
        console.info(`Parley: chat widget not shown (${err.code || err.status || 'unreachable'}).`);
        if (offline) addEventListener('online', () => void this.boot(attempt), { once: true });
        else if ((err.status === 429 || err.status === 0 || err.status >= 500) && attempt < 3) {
          const wait = Math.max(err.retryAfter, 10 * 2 ** attempt);
          setTimeout(() => void this.boot(attempt + 1), wait * 1000);
        }
        return;
      }
    }
    this.mount(saved);
    if (data) this.chat?.show(data.messages ?? []);
    else void this.chat?.sync();
    // Resumed after the session ended (inactivity, docs/widget.md): the history, then a new chat.
    if (data?.status === 'ended') this.showEnded(false);
    if (saved.open) this.open(false);
  }

  /**
   * init; a token the server refuses (401) means a new session (docs/api.md "Errors": a 401 is not retried).
   */
  private async start(resume: Session | null) {
    let data: InitData;
    try {
      data = await this.api.init(resume);
    } catch (err) {
      if (!(resume && err instanceof ApiError && err.status === 401)) throw err;
      this.store.clearSession();
      data = await this.api.init(null);
    }
    this.config = data.config ?? {};
    const fresh = data.sessionId !== resume?.sessionId;
    if (fresh) this.store.clearSession();
    this.session = { sessionId: data.sessionId, sessionToken: data.sessionToken };
    this.store.update({ session: this.session, config: this.config });
    return data;
  }

  /** A new session after End chat or after the server ended the old one. */
  async restart(): Promise<void> {
    const data = await this.start(null);
    this.chat?.reset();
    this.chat?.show(data.messages ?? []);
    if (this.view) {
      this.view.ended.hidden = true;
      this.view.compose.hidden = false;
    }
    this.drawLead();
  }

  private mount(saved: Saved) {
    this.host = h('div', { 'data-parley-widget': this.api.assistantId });
    const shadow = this.host.attachShadow({ mode: 'open' });
    const view = buildView(shadow, this.config);
    this.view = view;
    this.chat = new Conversation(this, view);
    document.body.append(this.host);
    view.launcher.addEventListener('click', () => (view.panel.hidden ? this.open() : this.close()));
    view.closeButton.addEventListener('click', () => this.close());
    view.panel.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        this.close();
      }
    });
    view.endButton.addEventListener('click', () => void this.end());
    view.restart.addEventListener('click', () => {
      view.restart.disabled = true;
      this.restart()
        .then(() => view.input.focus())
        .catch((err) => this.alert(friendly(err)))
        .finally(() => {
          view.restart.disabled = false;
        });
    });
    addEventListener('offline', () => this.alert(friendly(new ApiError(0, 'network', ''))));
    addEventListener('online', () => {
      this.alert('');
      this.chat?.reconnect();
    });
    if (!saved.leadDone) this.drawLead();
  }

  open(focus = true) {
    const view = this.view;
    if (!view) return;
    view.panel.hidden = false;
    view.root.classList.add('open');
    view.launcher.setAttribute('aria-expanded', 'true');
    view.launcher.setAttribute('aria-label', 'Close chat');
    view.badge.hidden = true;
    view.log.scrollTop = view.log.scrollHeight;
    this.store.update({ open: true });
    if (focus) (view.compose.hidden ? view.restart : view.input).focus();
  }

  close() {
    const view = this.view;
    if (!view || view.panel.hidden) return;
    view.panel.hidden = true;
    view.root.classList.remove('open');
    view.launcher.setAttribute('aria-expanded', 'false');
    view.launcher.setAttribute('aria-label', `Open chat with ${this.config.assistantName || 'us'}`);
    this.store.update({ open: false });
    view.launcher.focus();
  }

  get isOpen() {
    return !!this.view && !this.view.panel.hidden;
  }

  /** Shows a message in the panel's alert region; empty text hides it. */
  alert(text: string, action?: { label: string; run: () => void }, seconds = 0) {
    const view = this.view;
    if (!view) return;
    clearTimeout(this.alertTimer);
    view.alert.hidden = !text;
    view.alertText.textContent = text;
    view.alertAction.hidden = !action;
    view.alertAction.textContent = action?.label ?? '';
    view.alertAction.onclick = action
      ? () => {
          this.alert('');
          action.run();
        }
      : null;
    if (seconds > 0) this.alertTimer = window.setTimeout(() => this.alert(''), seconds * 1000);
  }

  private drawLead() {
    const view = this.view;
    if (!view) return;
    view.slot.replaceChildren();
    if (!this.config.leadFormEnabled || !this.config.leadFormFields?.length) return;
    const form = buildLeadForm(
      this.config,
      (body) => this.submitLead(body),
      () => {
        this.store.update({ leadDone: true });
        view.slot.replaceChildren();
        view.input.focus();
      },
    );
    view.slot.append(form);
  }

  private async submitLead(body: Record<string, unknown>): Promise<LeadResult> {
    const view = this.view;
    if (!view || !this.session) return { ok: false };
    try {
      await this.api.lead(this.session.sessionId, body);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 400)) return { ok: false, message: friendly(err) };
      // Field errors name `email` or `customFields.company`: shown next to that field.
      const fieldErrors: Record<string, string> = {};
      for (const [key, text] of Object.entries(err.details))
        fieldErrors[key.replace(/^customFields\./, '')] = String(text);
      return { ok: false, fieldErrors, message: 'Please check the highlighted fields.' };
    }
    this.store.update({ leadDone: true });
    const name = typeof body.name === 'string' ? `, ${body.name}` : '';
    const thanks = h(
      'div',
      { class: 'card', role: 'status', tabindex: '-1' },
      `Thanks${name}! We'll be in touch.`,
    );
    view.slot.replaceChildren(thanks);
    thanks.focus();
    return { ok: true };
  }

  /** End chat (docs/widget.md): the server closes the session; the visitor can start a new one. */
  private async end() {
    const view = this.view;
    if (!view || !this.session) return;
    view.endButton.disabled = true;
    try {
      await this.api.end(this.session.sessionId);
    } catch (err) {
      // Already ended or expired on the server (401): the visitor's intent is met anyway.
      if (!(err instanceof ApiError && err.status === 401)) {
        this.alert(friendly(err));
        return;
      }
    } finally {
      view.endButton.disabled = false;
    }
    this.showEnded(true);
  }

  /** The session is over: no composer, a "Start a new chat" button instead. */
  private showEnded(focus: boolean) {
    const view = this.view;
    if (!view) return;
    this.chat?.stop();
    this.session = null;
    this.api.token = '';
    this.store.clearSession();
    view.endButton.hidden = true;
    view.compose.hidden = true;
    view.slot.replaceChildren();
    view.ended.hidden = false;
    this.alert('');
    if (focus) view.restart.focus();
  }
}
