import type { WidgetLiveEvent } from '@parley/contract/widget';
import { type Api, ApiError, events, type Session } from './api.ts';
import { h } from './dom.ts';
import type { Say } from './strings.ts';
import type { View } from './view.ts';

/** The scale's words, 1 to 5 (docs/csat.md "In the widget"). */
const SCALE = ['ratingVeryPoor', 'ratingPoor', 'ratingOkay', 'ratingGood', 'ratingExcellent'] as const;

let surveys = 0;

/**
 * Asks for a rating once a conversation a person answered has closed (docs/csat.md "In the
 * widget"): the live stream's last event, `ended`, carries the question. The card sits below the
 * conversation's messages until the visitor starts a new chat, and posts with the ended session's
 * token, which the widget itself has let go by then.
 */
export class Survey {
  private readonly box = h('div', { class: 'c' });
  private asked = '';

  constructor(
    private readonly api: Api,
    private readonly v: View,
    /** The widget's words now (the config may change at init). */
    private readonly t: () => Say,
  ) {
    v.list.after(this.box);
  }

  /** Shows the card for `session`'s conversation; once per session. */
  ask(session: Session, question: string) {
    if (this.asked === session.sessionId) return;
    this.asked = session.sessionId;
    const token = session.sessionToken;
    this.box.replaceChildren(
      buildSurvey(question, (rating, comment) => this.api.csat(token, rating, comment), this.t()),
    );
    this.v.log.scrollTop = this.v.log.scrollHeight;
  }

  /** A new chat: the last one's card goes. */
  clear() {
    this.asked = '';
    this.box.replaceChildren();
  }

  /**
   * The visitor pressed End chat in a conversation a person answered: the widget stops listening
   * once the session ends, so this reads the session's stream on its own until its `ended` says
   * whether to ask (an ended session's stream says it at once). `current`: no other chat has
   * started since. Gives up after 20 s.
   */
  async afterEnd(session: Session, current: () => boolean) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 20_000);
    try {
      const res = await this.api.events(session.sessionId, abort.signal, session.sessionToken);
      for await (const event of events<WidgetLiveEvent>(res)) {
        if (event.type !== 'ended') continue;
        if (event.csat && current()) this.ask(session, event.csat.question);
        break;
      }
    } catch {
      // No question then: the survey is a courtesy, not worth an error line.
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }
}

/**
 * The satisfaction survey card (docs/csat.md "In the widget"): the workspace's question as the
 * legend of a radio group 1-5 (Tab into it, arrows or Space to choose, Enter chooses too), an
 * optional comment and Send. `send` posts the rating and throws the ApiError of a refusal. One
 * request at a time: Send is disabled while it is in flight. The outcome is said in a status line
 * that exists from the start, so screen readers announce it: a thank-you (201), or that it was
 * already rated (409), each replacing the card; any other failure keeps the card to try again.
 */
export function buildSurvey(
  question: string,
  send: (rating: number, comment: string) => Promise<void>,
  t: Say,
) {
  const id = `parley-csat-${++surveys}`;
  const scale = h('div', { class: 'scale' });
  const error = h('p', { class: 'err', id: `${id}-e` });
  const radios = SCALE.map((word, i) => {
    const input = h('input', { type: 'radio', name: `${id}-r`, value: String(i + 1) });
    input.addEventListener('change', () => {
      error.textContent = '';
    });
    // Enter chooses, as Space does, rather than sending a form the visitor has not finished.
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      input.checked = true;
      error.textContent = '';
    });
    scale.append(
      h(
        'label',
        {},
        input,
        h(
          'span',
          { class: 'o' },
          h('b', {}, String(i + 1)),
          h('span', { class: 'sr' }, ' – '),
          h('small', {}, t(word)),
        ),
      ),
    );
    return input;
  });
  const comment = h('textarea', { id: `${id}-c`, rows: '2', maxlength: '1000' });
  const button = h('button', { type: 'submit', class: 'btn' }, t('ratingSend'));
  const failed = h('p', { class: 'err', role: 'alert' });
  const form = h(
    'form',
    { class: 'card survey', novalidate: true, 'aria-label': t('rateConversation') },
    h('fieldset', { 'aria-describedby': `${id}-e` }, h('legend', {}, question), scale, error),
    h('div', { class: 'f' }, h('label', { for: `${id}-c` }, t('ratingComment')), comment),
    failed,
    h('div', { class: 'row' }, button),
  );
  const status = h('p', { class: 'note', role: 'status', tabindex: '-1' });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    const chosen = radios.find((r) => r.checked);
    failed.textContent = '';
    if (!chosen) {
      error.textContent = t('ratingRequired');
      radios[0]?.focus();
      return;
    }
    button.disabled = true;
    try {
      await send(Number(chosen.value), comment.value.trim());
      done(t('ratingThanks'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        done(t('ratingAlready'));
        return;
      }
      button.disabled = false;
      failed.textContent = !navigator.onLine ? t('ratingOffline') : t('ratingFailed');
    }
  });

  /** The card gives way to the line; focus, which was on Send, moves to it. */
  function done(text: string) {
    form.remove();
    status.textContent = text;
    status.focus();
  }

  return h('div', { class: 'c' }, form, status);
}
