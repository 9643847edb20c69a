import type { Citation, HistoryMessage } from './api.ts';
import { h, ICONS, icon } from './dom.ts';
import { link, renderMarkdown } from './markdown.ts';
import type { Say } from './strings.ts';

/** One message on screen. `key` stays fixed for its element; `id` arrives from the server. */
export type Item = {
  key: string;
  id?: string;
  role: 'user' | 'assistant';
  content: string;
  citations: Citation[];
  /**
   * A human agent's name (docs/widget.md "Form A: the init flow": agent replies come as `assistant` with an
   * `author`).
   */
  author?: string;
  note?: string;
  /** Waiting out a 429: the note is a countdown. */
  waiting?: boolean;
  streaming?: boolean;
  el?: HTMLElement;
  body?: HTMLElement;
};

export type Rating = 'up' | 'down';

export function itemFrom(m: HistoryMessage, t: Say): Item {
  return {
    key: m.id,
    id: m.id,
    role: m.role === 'user' ? 'user' : 'assistant',
    content: m.content ?? '',
    citations: Array.isArray(m.citations) ? m.citations : [],
    author: m.author ? m.author.name || t('supportTeam') : undefined,
  };
}

/** Whether the stored message differs from what is on screen (content, sources or author). */
export function differs(a: Item, b: Item): boolean {
  return a.content !== b.content || a.citations.length !== b.citations.length || a.author !== b.author;
}

/**
 * Draws a message. The visitor's own text is plain text; answers and agent replies go through
 * the safe Markdown renderer. AI answers get their sources and, once stored, thumbs up and down.
 * A message's own text sets its direction (`dir="auto"`): an English answer in an Arabic widget
 * still reads left to right.
 */
export function drawItem(
  item: Item,
  rated: Rating | undefined,
  onRate: (item: Item, r: Rating) => void,
  t: Say,
): HTMLElement {
  if (item.role === 'user') {
    item.el = h(
      'div',
      { class: 'msg user' },
      h('span', { class: 'sr' }, `${t('you')} `),
      h('span', { dir: 'auto' }, item.content),
    );
    // A wait before sending ("Sending in 23 s…") or where the answer will come from; the alert
    // already announced the wait, so the countdown is not read out every second.
    if (item.note)
      item.el.append(h('p', { class: 'note', 'aria-hidden': item.waiting ? 'true' : undefined }, item.note));
    return item.el;
  }
  const body = h('div', { dir: 'auto' });
  item.body = body;
  const el = h('div', { class: 'msg bot' });
  if (item.author) el.append(h('div', { class: 'who' }, item.author));
  else el.append(h('span', { class: 'sr' }, `${t('assistant')} `));
  el.append(body);
  drawBody(item);
  if (item.citations.length && !item.streaming) el.append(sources(item.citations, t));
  if (item.note) el.append(h('p', { class: 'note' }, item.note));
  if (item.id && !item.author && !item.streaming) el.append(thumbs(item, rated, onRate, t));
  item.el = el;
  return el;
}

export function drawBody(item: Item) {
  item.body?.replaceChildren(renderMarkdown(item.content));
}

function sources(citations: Citation[], t: Say): HTMLElement {
  const list = h('ul', { class: 'sources', 'aria-label': t('sources') });
  const seen = new Set<string>();
  for (const c of [...citations].sort((a, b) => a.index - b.index)) {
    const title = (c.title || c.url || t('source')).trim();
    const key = `${c.index}|${title}`;
    if (seen.has(key)) continue;
    seen.add(key);
    list.append(h('li', { dir: 'auto' }, `[${c.index}] `, c.url ? link(c.url, title) : title));
  }
  return list;
}

function thumbs(
  item: Item,
  rated: Rating | undefined,
  onRate: (item: Item, r: Rating) => void,
  t: Say,
): HTMLElement {
  const group = h('div', { class: 'rate', role: 'group', 'aria-label': t('helpfulQuestion') });
  for (const [rating, label] of [
    ['up', t('helpful')],
    ['down', t('notHelpful')],
  ] as const) {
    const button = h(
      'button',
      {
        type: 'button',
        'aria-label': label,
        title: label,
        'aria-pressed': rated === rating ? 'true' : 'false',
        'aria-disabled': rated ? 'true' : undefined,
        'data-rating': rating,
      },
      icon(rating === 'up' ? ICONS.up : ICONS.down, 16),
    );
    button.addEventListener('click', () => onRate(item, rating));
    group.append(button);
  }
  if (rated) group.append(h('span', { class: 'note' }, t('feedbackThanks')));
  return group;
}
