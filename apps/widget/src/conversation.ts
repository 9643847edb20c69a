import { ApiError, type HistoryMessage } from './api.ts';
import { LiveUpdates, type Person } from './live.ts';
import { differs, drawBody, drawItem, type Item, itemFrom, type Rating } from './message-view.ts';
import { toolStep } from './messages.ts';
import { waitText } from './strings.ts';
import { Survey } from './survey.ts';
import { fitInput, type View } from './view.ts';
import type { Widget } from './widget.ts';

/**
 * The conversation in the panel: sending, the streamed answer, history as the source of truth,
 * ratings, and agent replies arriving live (live.ts).
 */
export class Conversation {
  private items: Item[] = [];
  private busy = false;
  /** The timer of a message waiting out a 429, and that message. */
  private waiting = 0;
  private pending?: Item;
  private seq = 0;
  private rated: Record<string, Rating>;
  private readonly live: LiveUpdates;
  private readonly survey: Survey;

  constructor(
    private readonly w: Widget,
    private readonly v: View,
  ) {
    this.rated = (w.store.read().rated ?? {}) as Record<string, Rating>;
    this.survey = new Survey(w.api, v, () => w.t);
    this.live = new LiveUpdates(
      w.api,
      () => void this.sync(),
      // The session ended (closed by a member, End chat in another tab, or inactivity): offer a
      // new chat, and ask for a rating when the conversation does (docs/csat.md).
      (session, question) => {
        if (w.session !== session) return;
        w.showEnded(false);
        if (question) this.survey.ask(session, question);
      },
      (person) => this.showPerson(person),
    );
    // End chat here (widget.ts stops listening once it has ended): a conversation a person
    // answered may ask for a rating. Runs before widget.ts's own listener, with the session.
    v.endButton.addEventListener('click', () => {
      const session = w.session;
      if (!session || !this.items.some((i) => i.author)) return;
      void this.survey.afterEnd(session, () => !w.session || w.session === session);
    });
    v.compose.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send(v.input.value);
    });
    // Enter sends, Shift+Enter is a new line; not while an input method is composing a character.
    v.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.send(v.input.value);
      }
    });
    v.input.addEventListener('input', () => fitInput(v.input));
  }

  /** Shows a history (init or resume); merge() then listens for agents when a conversation exists. */
  show(history: HistoryMessage[]) {
    this.merge(history);
  }

  reset() {
    this.stop();
    this.items = this.pending ? [this.pending] : [];
    this.rated = {};
    this.survey.clear();
    this.v.list.replaceChildren();
    this.v.endButton.hidden = true;
    this.showPerson(false);
  }

  /**
   * Tells the visitor a person has been asked for (nobody has taken it yet) or is answering now,
   * or hides it when the AI is back or it closed.
   */
  private showPerson(person: Person | false) {
    this.v.person.hidden = !person;
    const t = this.w.t;
    this.v.person.textContent = !person
      ? ''
      : person.assigned
        ? person.name
          ? t('personAnswering', { name: person.name })
          : t('teamAnswering')
        : t('teamAsked');
  }

  stop() {
    this.live.stop();
  }

  /** Network back: reconnect the live stream now instead of at the end of its back-off. */
  reconnect() {
    this.live.retryNow();
    this.listen();
  }

  /** Reads history again; never while an answer streams (the stream's end syncs). */
  async sync() {
    const session = this.w.session;
    if (!session) return;
    if (this.busy) return;
    try {
      const history = await this.w.api.messages(session.sessionId);
      if (!this.busy && this.w.session === session) this.merge(history);
    } catch {
      // The next event, send or reload reads it again.
    }
  }

  /**
   * History is the truth once nothing is in flight: items keep their element when the stored
   * message matches (by id, or a just-sent user message by its text), so focus and scroll stay.
   */
  private merge(history: HistoryMessage[]) {
    const byId = new Map(this.items.filter((i) => i.id).map((i) => [i.id, i]));
    const pending = this.items.filter((i) => !i.id && i.role === 'user');
    let fresh = 0;
    const next: Item[] = [];
    for (const m of history) {
      const stored = itemFrom(m, this.w.t);
      let item = byId.get(m.id);
      if (!item && m.role === 'user') {
        const at = pending.findIndex((p) => p.content.trim() === m.content.trim());
        if (at >= 0) item = pending.splice(at, 1)[0];
      }
      if (!item) {
        if (stored.role === 'assistant') fresh++;
        next.push(stored);
        continue;
      }
      item.id = m.id;
      if (differs(item, stored) || item.note) {
        Object.assign(item, { content: stored.content, citations: stored.citations, author: stored.author });
        item.note = undefined;
        this.redraw(item);
      }
      next.push(item);
    }
    if (this.pending) next.push(this.pending);
    this.items = next;
    this.draw();
    this.listen();
    if (fresh && this.items.length && !this.w.isOpen && byId.size) {
      this.v.badge.hidden = false;
      this.v.launcher.setAttribute('aria-label', this.w.t('openChatNewMessage'));
    }
  }

  /** Puts the items' elements in order in the list, drawing new ones, removing stale ones. */
  private draw() {
    const list = this.v.list;
    const stick = this.nearBottom();
    this.items.forEach((item, i) => {
      const el =
        item.el ??
        drawItem(item, item.id ? this.rated[item.id] : undefined, (it, r) => this.rate(it, r), this.w.t);
      if (list.children[i] !== el) list.insertBefore(el, list.children[i] ?? null);
    });
    while (list.children.length > this.items.length) list.lastElementChild?.remove();
    this.v.endButton.hidden = !this.items.length || !this.w.session;
    if (stick) this.scroll();
  }

  private redraw(item: Item) {
    const old = item.el;
    item.el = undefined;
    const el = drawItem(
      item,
      item.id ? this.rated[item.id] : undefined,
      (it, r) => this.rate(it, r),
      this.w.t,
    );
    old?.replaceWith(el);
  }

  /** Sends the message box's text; it is never lost (sent, queued behind a wait, or back in the box). */
  send(raw: string) {
    const text = raw.trim();
    const { v, w } = this;
    if (!text || this.busy || this.waiting) return;
    if (!navigator.onLine) {
      w.alert(w.friendly(new ApiError(0, 'network', '')));
      return;
    }
    v.input.value = '';
    fitInput(v.input);
    void this.deliver(text);
  }

  /** Sends `text` (already on screen as `user` when it waited out a 429) and streams the answer. */
  private async deliver(text: string, retried = false, user?: Item): Promise<void> {
    const { v, w } = this;
    this.busy = true;
    w.alert('');
    if (user) {
      user.note = undefined;
      user.waiting = false;
      this.redraw(user);
    } else {
      user = { key: `l${++this.seq}`, role: 'user', content: text, citations: [] };
      this.items.push(user);
    }
    let bot: Item | undefined;
    let frame = 0;
    this.draw();
    this.typing(true);
    v.log.setAttribute('aria-busy', 'true');
    try {
      const session = await w.ensureSession();
      for await (const event of w.api.chat(session.sessionId, text)) {
        if (event.type === 'text-delta') {
          if (!bot) {
            bot = { key: `l${++this.seq}`, role: 'assistant', content: '', citations: [], streaming: true };
            this.typing(false);
            this.items.push(bot);
            this.draw();
          }
          bot.content += event.textDelta;
          const current = bot;
          frame ||= requestAnimationFrame(() => {
            frame = 0;
            const stick = this.nearBottom();
            drawBody(current);
            if (stick) this.scroll();
          });
        } else if (event.type === 'tool-call') {
          this.typing(true, toolStep(event.toolName, w.t));
        } else if (event.type === 'finish') {
          if (bot && event.messageId) bot.id = event.messageId;
          // No AI reply while a person has taken over (docs/chat.md): say where the answer will come.
          if (!bot) user.note = w.t('sentToTeam');
        } else if (event.type === 'error') {
          throw new ApiError(500, event.code ?? '', event.error ?? '');
        }
      }
    } catch (err) {
      cancelAnimationFrame(frame);
      if (bot?.content) bot.note = w.t('cutShort');
      else this.items = this.items.filter((i) => i !== bot);
      this.fail(err, text, retried, bot?.content ? undefined : user);
    } finally {
      this.busy = false;
      if (bot) {
        bot.streaming = false;
        this.redraw(bot);
      }
      if (user.note) this.redraw(user);
      this.typing(false);
      v.log.removeAttribute('aria-busy');
      this.draw();
    }
    if (!this.waiting) await this.sync();
    this.listen();
  }

  /**
   * A failed send. `lost`: the visitor's message, when it did not reach the server: it waits out
   * a 429 on screen and goes by itself, or goes back into the message box.
   */
  private fail(err: unknown, text: string, retried: boolean, lost?: Item) {
    const { w, v } = this;
    const e = err instanceof ApiError ? err : new ApiError(-1, '', '');
    if (lost) {
      // Too fast (429), or the server too busy to start it now (503, docs/chat.md "Busy"): it waits
      // out Retry-After on screen and goes by itself.
      if ((e.status === 429 && e.details.quota === undefined) || e.status === 503) {
        const wait = e.retryAfter || (e.status === 503 ? 2 : 10);
        this.queue(text, Date.now() + wait * 1000, lost);
        const key = e.status === 503 ? 'busyQueued' : 'tooFastQueued';
        w.alert(w.t(key, { wait: waitText(wait, w.config.language) }));
        return;
      }
      // 401: the token is no longer good; 400 without field errors: the session has ended (after
      // inactivity, docs/widget.md). Either way a new session, and the message goes again, once.
      if (!retried && (e.status === 401 || (e.status === 400 && !Object.keys(e.details).length))) {
        w.forget();
        setTimeout(() => void this.deliver(text, true, lost));
        return;
      }
      this.items = this.items.filter((i) => i !== lost);
      if (!v.input.value) v.input.value = text;
    }
    // Refused by the widget's settings (off, or this website not allowed): a polite line here,
    // the reason for the site owner in the console.
    if (
      (e.code === 'network' && navigator.onLine) ||
      e.code === 'not_found:widget' ||
      e.code === 'forbidden:api'
    ) {
      void w.unavailable(e).then((line) => {
        w.alert(
          line || w.friendly(e),
          line ? undefined : { label: w.t('retry'), run: () => this.send(v.input.value) },
        );
      });
      return;
    }
    w.alert(
      w.friendly(e),
      e.status ? undefined : { label: w.t('retry'), run: () => this.send(v.input.value) },
    );
  }

  /**
   * A message the rate limit refused, on screen with its countdown ("Sending in 23 s…"), kept in
   * storage so a reload keeps it too, and sent by itself when the wait is over.
   */
  queue(text: string, until: number, user?: Item) {
    const { v, w } = this;
    if (!user) {
      user = { key: `l${++this.seq}`, role: 'user', content: text, citations: [] };
      this.items.push(user);
      this.draw();
    }
    const item = user;
    item.waiting = true;
    this.pending = item;
    w.store.update({ queued: { text, until } });
    v.send.disabled = true;
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left > 0) {
        item.note = w.t('sendingIn', { seconds: left });
        const note = item.el?.querySelector('.note');
        if (note) note.textContent = item.note;
        else this.redraw(item);
        this.waiting = window.setTimeout(tick, 1000);
        return;
      }
      this.waiting = 0;
      this.pending = undefined;
      v.send.disabled = false;
      w.store.update({ queued: undefined });
      void this.deliver(text, false, item);
    };
    tick();
  }

  /** The chat ended while a message waited: it goes back into the box instead of a new session. */
  unqueue() {
    const item = this.pending;
    if (!item) return;
    clearTimeout(this.waiting);
    this.waiting = 0;
    this.pending = undefined;
    this.items = this.items.filter((i) => i !== item);
    this.draw();
    this.v.send.disabled = false;
    this.w.store.update({ queued: undefined });
    if (!this.v.input.value) this.v.input.value = item.content;
  }

  private async rate(item: Item, rating: Rating) {
    const session = this.w.session;
    if (!item.id || !session || this.rated[item.id]) return;
    const id = item.id;
    this.rated[id] = rating;
    this.redraw(item);
    (item.el?.querySelector(`[data-rating=${rating}]`) as HTMLElement | null)?.focus();
    try {
      await this.w.api.feedback(session.sessionId, id, rating === 'up' ? 'positive' : 'negative');
      this.w.store.update({ rated: this.rated });
    } catch (err) {
      delete this.rated[id];
      this.redraw(item);
      this.w.alert(this.w.friendly(err));
    }
  }

  /** Agent replies can only come once a conversation exists (it starts with the first message). */
  private listen() {
    if (this.items.length && this.w.session) this.live.start(this.w.session);
  }

  private typing(on: boolean, label = '') {
    this.v.typing.hidden = !on;
    this.v.typingLabel.textContent = label;
    if (on && this.nearBottom(200)) this.scroll();
  }

  private nearBottom(slack = 80) {
    const log = this.v.log;
    return log.scrollHeight - log.scrollTop - log.clientHeight < slack;
  }

  private scroll() {
    this.v.log.scrollTop = this.v.log.scrollHeight;
  }
}
