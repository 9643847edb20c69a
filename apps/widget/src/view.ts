import type { WidgetConfig } from './api.ts';
import { h, ICONS, icon } from './dom.ts';
import { renderMarkdown } from './markdown.ts';
import type { Say } from './strings.ts';
import { STYLES } from './styles.ts';

/** The widget's fixed parts, built once inside the shadow root. */
export type View = {
  root: HTMLDivElement;
  launcher: HTMLButtonElement;
  badge: HTMLSpanElement;
  panel: HTMLDivElement;
  title: HTMLHeadingElement;
  endButton: HTMLButtonElement;
  closeButton: HTMLButtonElement;
  log: HTMLDivElement;
  welcome: HTMLDivElement;
  slot: HTMLDivElement;
  list: HTMLDivElement;
  typing: HTMLDivElement;
  typingLabel: HTMLSpanElement;
  /** "Ada is answering": a person holds the conversation (docs/widget.md "Live agent replies"). */
  person: HTMLDivElement;
  /** Outside business hours: when a person is back (docs/business-hours.md "Widget"). */
  away: HTMLParagraphElement;
  alert: HTMLDivElement;
  alertText: HTMLSpanElement;
  alertAction: HTMLButtonElement;
  compose: HTMLFormElement;
  input: HTMLTextAreaElement;
  send: HTMLButtonElement;
  ended: HTMLDivElement;
  restart: HTMLButtonElement;
};

let counter = 0;

/**
 * Builds launcher and panel. Accessibility (docs/widget-script.md): the launcher is a button with
 * `aria-expanded`/`aria-controls`; the panel is a labelled, non-modal dialog (the page stays
 * usable); the conversation is a `log` live region; failures go to an `alert`; every icon button
 * has a label. The root carries the config's `lang` and `dir` (docs/languages.md "Widget"): in a
 * right-to-left language the panel mirrors (styles.ts uses logical properties); the corner it sits
 * in stays the one the owner chose for their page.
 */
export function buildView(shadow: ShadowRoot, config: WidgetConfig, t: Say): View {
  const id = `parley-panel-${++counter}`;
  const name = config.assistantName || t('chatTitle');
  const color = safeColor(config.primaryColor);
  const root = h('div', {
    class: config.position === 'bottom-left' ? 'root left' : 'root',
    lang: config.language ?? 'en',
    dir: config.direction === 'rtl' ? 'rtl' : 'ltr',
  });
  root.style.setProperty('--p', color);
  root.style.setProperty('--pt', textOn(color));

  const badge = h('span', { class: 'badge', hidden: true });
  const launcher = h(
    'button',
    {
      type: 'button',
      class: 'launcher',
      'aria-label': t('openChat', { name }),
      'aria-expanded': 'false',
      'aria-controls': id,
    },
    icon(ICONS.chat, 26),
    badge,
  );
  const title = h('h2', { id: `${id}-t` }, name);
  const endButton = h('button', { type: 'button', hidden: true }, t('endChat'));
  const closeButton = h(
    'button',
    { type: 'button', class: 'x', 'aria-label': t('closeChat') },
    icon(ICONS.close),
  );
  const welcome = h('div');
  if (config.welcomeMessage) {
    welcome.append(
      h('div', { class: 'msg bot' }, h('div', { dir: 'auto' }, renderMarkdown(config.welcomeMessage))),
    );
  }
  const typingLabel = h('span', {}, '');
  const typing = h(
    'div',
    { class: 'typing', role: 'status', 'aria-label': t('typing', { name }), hidden: true },
    h('i'),
    h('i'),
    h('i'),
    typingLabel,
  );
  const person = h('div', { class: 'person', role: 'status', hidden: true });
  const away = h('p', { class: 'person away', hidden: true });
  const slot = h('div', { class: 'c' });
  const list = h('div', { class: 'c' });
  const log = h(
    'div',
    { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': t('conversation') },
    welcome,
    slot,
    list,
    typing,
  );
  const alertText = h('span');
  const alertAction = h('button', { type: 'button', hidden: true });
  const alert = h('div', { class: 'alert', role: 'alert', hidden: true }, alertText, alertAction);
  const input = h('textarea', {
    id: `${id}-i`,
    rows: '1',
    maxlength: '4000',
    placeholder: t('placeholder'),
    enterkeyhint: 'send',
  });
  const send = h(
    'button',
    { type: 'submit', class: 'send', 'aria-label': t('sendMessage') },
    icon(ICONS.send),
  );
  const compose = h(
    'form',
    { class: 'compose' },
    h('label', { class: 'sr', for: `${id}-i` }, t('yourMessage')),
    input,
    send,
  );
  const restart = h('button', { type: 'button', class: 'btn' }, t('startNewChat'));
  const ended = h('div', { class: 'ended', hidden: true }, h('p', {}, t('chatEnded')), restart);
  const panel = h(
    'div',
    { class: 'panel', id, role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': `${id}-t`, hidden: true },
    h('header', {}, title, endButton, closeButton),
    away,
    person,
    log,
    alert,
    compose,
    ended,
  );
  root.append(panel, launcher);
  adoptStyles(shadow);
  shadow.append(root);
  return {
    root,
    launcher,
    badge,
    panel,
    title,
    endButton,
    closeButton,
    log,
    welcome,
    slot,
    list,
    typing,
    typingLabel,
    person,
    away,
    alert,
    alertText,
    alertAction,
    compose,
    input,
    send,
    ended,
    restart,
  };
}

/**
 * The message box after its text changed: as tall as its lines (up to 120 px). What the visitor
 * types may be in another script than the widget's language: its own text sets the direction;
 * the empty box (and its placeholder) follows the widget's.
 */
export function fitInput(input: HTMLTextAreaElement) {
  if (input.value.trim()) input.dir = 'auto';
  else input.removeAttribute('dir');
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight + 2, 120)}px`;
}

/**
 * A constructed stylesheet where the browser has them: a site whose Content-Security-Policy
 * forbids inline styles still gets a styled widget. Elsewhere, a <style> element.
 */
function adoptStyles(shadow: ShadowRoot) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    shadow.adoptedStyleSheets = [sheet];
  } catch {
    shadow.append(h('style', {}, STYLES));
  }
}

/** Only a colour the browser accepts as one, so config text cannot inject CSS. */
export function safeColor(value: string | undefined): string {
  return value && !/[;{}]/.test(value) && globalThis.CSS?.supports('color', value) ? value : '#4f46e5';
}

/** Dark or white text, whichever reads better on the configured colour (WCAG luminance). */
export function textOn(color: string): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return '#fff';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.18 ? '#111827' : '#fff';
}
