import { ApiError, type HistoryMessage } from './api.ts';
import { LiveUpdates } from './live.ts';
import { differs, drawBody, drawItem, type Item, itemFrom, type Rating } from './message-view.ts';
import { friendly } from './messages.ts';
import type { View } from './view.ts';
import type { Widget } from './widget.ts';

/**
 * The conversation in the panel: sending, the streamed answer, history as the source of truth,
 * ratings, and agent replies arriving live (live.ts).
 */
export class Conversation {
  private items: Item[] = [];
  private busy = false;
  private seq = 0;
  private rated: Record<string, Rating>;
  private readonly live: LiveUpdates;

  constructor(
    private readonly w: Widget,
    private readonly v: View,
  ) {
    this.rated = (w.store.read().rated ?? {}) as Record<string, Rating>;
    this.live = new LiveUpdates(w.api, () => void this.sync());
    v.compose.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.send(v.input.value);
    });
    // Enter sends, Shift+Enter is a new line; not while an input method is composing a character.
    v.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        void this.send(v.input.value);
      }
    });
    v.input.addEventListener('input', () => this.grow());
  }

  /** Shows a history (init or resume); merge() then listens for agents when a conversation exists. */
  show(history: HistoryMessage[]) {
    this.merge(history);
  }

  reset() {
    this.stop();
    this.items = [];
    this.rated = {};
    this.v.list.replaceChildren();
    this.v.endButton.hidden = true;
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
      const stored = itemFrom(m);
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
    this.items = next;
    this.draw();
    this.listen();
    if (fresh && this.items.length && !this.w.isOpen && byId.size) {
      this.v.badge.hidden = false;
      this.v.launcher.setAttribute('aria-label', 'Open chat: new message');
    }
  }

  /** Puts the items' elements in order in the list, drawing new ones, removing stale ones. */
  private draw() {
    const list = this.v.list;
    const stick = this.nearBottom();
    this.items.forEach((item, i) => {
      const el =
        item.el ?? drawItem(item, item.id ? this.rated[item.id] : undefined, (it, r) => this.rate(it, r));
      if (list.children[i] !== el) list.insertBefore(el, list.children[i] ?? null);
    });
    while (list.children.length > this.items.length) list.lastElementChild?.remove();
    this.v.endButton.hidden = !this.items.length || !this.w.session;
    if (stick) this.scroll();
  }

  private redraw(item: Item) {
    const old = item.el;
    item.el = undefined;
    const el = drawItem(item, item.id ? this.rated[item.id] : undefined, (it, r) => this.rate(it, r));
    old?.replaceWith(el);
  }

  async send(raw: string, retried = false): Promise<void> {
    const text = raw.trim();
    const { v, w } = this;
    if (!text || this.busy || v.send.disabled) return;
    if (!navigator.onLine) {
      w.alert(friendly(new ApiError(0, 'network', '')));
      return;
    }
    if (!w.session) {
      try {
        await w.restart();
      } catch (err) {
        w.alert(friendly(err));
        return;
      }
    }
    const session = w.session;
    if (!session) return;
    this.busy = true;
    w.alert('');
    v.input.value = '';
    this.grow();
    const user: Item = { key: `l${++this.seq}`, role: 'user', content: text, citations: [] };
    let bot: Item | undefined;
    let frame = 0;
    this.items.push(user);
    this.draw();
    this.typing(true);
    v.log.setAttribute('aria-busy', 'true');
    try {
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
          this.typing(true, 'Looking that up…');
        } else if (event.type === 'finish') {
          if (bot && event.messageId) bot.id = event.messageId;
          // No AI reply while a person has taken over (docs/chat.md): say where the answer will come.
          if (!bot) user.note = 'Sent to our team. They will reply here.';
        } else if (event.type === 'error') {
          throw new ApiError(500, event.code ?? '', event.error ?? '');
        }
      }
    } catch (err) {
      cancelAnimationFrame(frame);
      if (bot?.content) {
        bot.note = 'This answer was cut short.';
      } else {
        this.items = this.items.filter((i) => i !== user && i !== bot);
        if (!v.input.value) v.input.value = text;
      }
      this.fail(err, text, retried);
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
    await this.sync();
    this.listen();
  }

  private fail(err: unknown, text: string, retried: boolean) {
    const { w, v } = this;
    // 401: the token is no longer good; 400 without field errors: the session has ended (after
    // inactivity, docs/widget.md). Either way a new session, and the message goes again, once.
    const gone =
      err instanceof ApiError &&
      (err.status === 401 || (err.status === 400 && !Object.keys(err.details).length));
    if (gone && !retried) {
      void w
        .restart()
        .then(() => this.send(v.input.value || text, true))
        .catch((e) => w.alert(friendly(e)));
      return;
    }
    if (err instanceof ApiError && err.status === 429) {
      const wait = err.retryAfter || 10;
      v.send.disabled = true;
      setTimeout(() => {
        v.send.disabled = false;
      }, wait * 1000);
      w.alert(friendly(err), undefined, wait);
      return;
    }
    const network = err instanceof ApiError && err.status === 0;
    w.alert(
      friendly(err),
      network ? { label: 'Retry', run: () => void this.send(v.input.value) } : undefined,
    );
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
      this.w.alert(friendly(err));
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

  private grow() {
    const input = this.v.input;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight + 2, 120)}px`;
  }
}
