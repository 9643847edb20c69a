import { Api, ApiError, type InitData, type Session, type WidgetConfig } from './api.ts';
import { Conversation } from './conversation.ts';
import { h } from './dom.ts';
import { buildLeadForm, type LeadResult } from './lead-form.ts';
import { friendly } from './messages.ts';
import { Store } from './store.ts';
import { type Say, sayer } from './strings.ts';
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
  /** The widget's words in the config's language (strings.ts). */
  t: Say = sayer({});
  session: Session | null = null;
  chat?: Conversation;
  private host?: HTMLElement;
  private alertTimer = 0;
  private starting?: Promise<InitData>;

  constructor(base: string, assistantId: string) {
    this.api = new Api(base, assistantId);
    this.store = new Store(assistantId);
  }

  /**
   * Boots with GETs only, outside the per-IP POST budget (docs/widget-script.md "What the
   * visitor sees"): the public config, and the stored session's history, which proves its token still
   * good (401: forgotten; a session then starts with the visitor's first message). A disabled
   * widget or a website not on the allowlist: the site owner reads why in the console; a visitor
   * with a conversation here reads a polite line, anyone else sees no widget.
   */
  async boot(attempt = 0): Promise<void> {
    const saved = this.store.read();
    const resume = saved.session;
    this.api.token = resume?.sessionToken ?? '';
    const [config, history] = await Promise.allSettled([
      this.api.config(),
      resume ? this.api.messages(resume.sessionId) : Promise.resolve([]),
    ]);
    let line = '';
    if (config.status === 'fulfilled') {
      this.setConfig(config.value);
      this.store.update({ config: this.config });
      if (history.status === 'rejected' && (history.reason as ApiError).status === 401) {
        this.store.clearSession();
        this.api.token = '';
      } else this.session = resume ?? null;
    } else {
      const err = config.reason;
      if (!(err instanceof ApiError)) throw err;
      const offline = err.status === 0 && !navigator.onLine;
      if (!offline) line = await this.unavailable(err);
      if (!(resume && saved.config && (offline || line))) {
        if (offline) addEventListener('online', () => void this.boot(attempt), { once: true });
        else if (!line && attempt < 3) setTimeout(() => void this.boot(attempt + 1), 10_000 * 2 ** attempt);
        return;
      }
      this.setConfig(saved.config);
      this.session = resume;
    }
    this.mount();
    if (history.status === 'fulfilled') this.chat?.show(history.value);
    else void this.chat?.sync();
    if (line) this.alert(line);
    if (saved.open) this.open(false);
    if (saved.queued && !line) this.chat?.queue(saved.queued.text, saved.queued.until);
  }

  /**
   * Why the widget cannot be used, for the site owner in the console, and the polite line for the
   * visitor ('' when it is not a matter of the widget's settings). A refused origin gets no CORS
   * headers, so the browser reports a network error: when the server answers a `no-cors` request,
   * that is the cause (docs/widget-script.md "When things go wrong").
   */
  async unavailable(err: ApiError): Promise<string> {
    const id = this.api.assistantId;
    let owner: string;
    let line = this.t('unavailable');
    if (err.code === 'not_found:widget') {
      owner = `the widget of assistant ${id} is turned off (or the assistant does not exist). Turn it on in the assistant's Widget settings.`;
      line = this.t('closed');
    } else if (err.status === 403 || (err.code === 'network' && (await this.api.reachable()))) {
      owner = `this website (${location.origin}) is not allowed. Add "${location.hostname}" to the allowed domains in the Widget settings of assistant ${id}.`;
    } else {
      owner = err.status
        ? `the server answered ${err.status} ${err.code}.`
        : 'the Parley server does not answer.';
      line = '';
    }
    console.warn(`Parley chat widget: ${owner}`);
    return line;
  }

  /**
   * The session, created (POST init) when the visitor first needs one: a message or the lead form.
   * Concurrent callers share one request.
   */
  async ensureSession(): Promise<Session> {
    if (!this.session) await this.start();
    return this.session as Session;
  }

  private start(): Promise<InitData> {
    this.starting ??= this.api
      .init()
      .then((data) => {
        if (data.config) this.setConfig(data.config);
        this.store.clearSession();
        this.session = { sessionId: data.sessionId, sessionToken: data.sessionToken };
        this.store.update({ session: this.session, config: this.config });
        return data;
      })
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  /** A new session after End chat or after the server ended the old one. */
  async restart(): Promise<void> {
    await this.start();
    this.chat?.reset();
    if (this.view) {
      this.view.ended.hidden = true;
      this.view.compose.hidden = false;
    }
    this.drawLead();
  }

  private mount() {
    this.host = h('div', { 'data-parley-widget': this.api.assistantId });
    const shadow = this.host.attachShadow({ mode: 'open' });
    const view = buildView(shadow, this.config, this.t);
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
        .catch((err) => this.alert(this.friendly(err)))
        .finally(() => {
          view.restart.disabled = false;
        });
    });
    addEventListener('offline', () => this.alert(this.friendly(new ApiError(0, 'network', ''))));
    addEventListener('online', () => {
      this.alert('');
      this.chat?.reconnect();
    });
    if (!this.store.read().leadDone) this.drawLead();
  }

  open(focus = true) {
    const view = this.view;
    if (!view) return;
    view.panel.hidden = false;
    view.root.classList.add('open');
    view.launcher.setAttribute('aria-expanded', 'true');
    view.launcher.setAttribute('aria-label', this.t('closeChat'));
    view.badge.hidden = true;
    view.log.scrollTop = view.log.scrollHeight;
    this.showAway(view);
    this.store.update({ open: true });
    if (focus) (view.compose.hidden ? view.restart : view.input).focus();
  }

  /**
   * Outside business hours the panel says when a person is back (docs/business-hours.md "Widget"),
   * in the visitor's language and time zone; the assistant answers meanwhile.
   */
  private showAway(view: View) {
    const { teamOnline, nextOpenAt } = this.config;
    const next = nextOpenAt ? new Date(nextOpenAt) : null;
    // A next opening already past (a page left open for hours): the line is no longer true.
    const away = teamOnline === false && !(next && next.getTime() <= Date.now());
    view.away.hidden = !away;
    const when = next
      ? new Intl.DateTimeFormat(this.config.language, {
          weekday: 'long',
          hour: 'numeric',
          minute: '2-digit',
        }).format(next)
      : '';
    view.away.textContent = !away ? '' : when ? this.t('awayUntil', { when }) : this.t('away');
  }

  close() {
    const view = this.view;
    if (!view || view.panel.hidden) return;
    view.panel.hidden = true;
    view.root.classList.remove('open');
    view.launcher.setAttribute('aria-expanded', 'false');
    view.launcher.setAttribute('aria-label', this.t('openChat', { name: this.name }));
    this.store.update({ open: false });
    view.launcher.focus();
  }

  /** The assistant's name as the widget shows it. */
  get name() {
    return this.config.assistantName || this.t('chatTitle');
  }

  /** A failure in words the visitor can act on, in the widget's language (messages.ts). */
  friendly(err: unknown) {
    return friendly(err, this.t, this.config.language);
  }

  private setConfig(config: WidgetConfig) {
    this.config = config;
    this.t = sayer(config);
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
      this.t,
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
    if (!view) return { ok: false };
    try {
      await this.api.lead((await this.ensureSession()).sessionId, body);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 400)) return { ok: false, message: this.friendly(err) };
      // Field errors name `email` or `customFields.company`: shown next to that field.
      const fieldErrors: Record<string, string> = {};
      for (const [key, text] of Object.entries(err.details))
        fieldErrors[key.replace(/^customFields\./, '')] = String(text);
      return { ok: false, fieldErrors, message: this.t('checkFields') };
    }
    this.store.update({ leadDone: true });
    const name = typeof body.name === 'string' ? body.name : '';
    const thanks = h(
      'div',
      { class: 'card', role: 'status', tabindex: '-1' },
      name ? this.t('leadThanksName', { name }) : this.t('leadThanks'),
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
        this.alert(this.friendly(err));
        return;
      }
    } finally {
      view.endButton.disabled = false;
    }
    this.showEnded(true);
  }

  /** Drops the session (ended, or its token refused): the next message starts a new one. */
  forget() {
    this.chat?.stop();
    this.session = null;
    this.api.token = '';
    this.store.clearSession();
  }

  /** The session is over: no composer, a "Start a new chat" button instead. */
  showEnded(focus: boolean) {
    const view = this.view;
    if (!view) return;
    this.chat?.unqueue();
    this.forget();
    view.endButton.hidden = true;
    view.compose.hidden = true;
    view.slot.replaceChildren();
    view.ended.hidden = false;
    this.alert('');
    if (focus) view.restart.focus();
  }
}
