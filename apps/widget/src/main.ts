import { Widget } from './widget.ts';

/**
 * Entry point of `/widget.js` (docs/widget-script.md "Embedding"): a site embeds
 * `<script src="{base}/widget.js" data-assistant-id="..." async></script>`. The assistant comes from
 * the tag's `data-assistant-id`, the API base from the script's own URL, so one file serves every
 * installation. The only global is `window.Parley` (open/close for the host page's own buttons).
 */
type Namespace = { version: string; open(): void; close(): void; widgets: Widget[] };

declare global {
  interface Window {
    Parley?: Namespace;
  }
}

const script = (document.currentScript ??
  document.querySelector('script[data-assistant-id][src*="widget.js"]')) as HTMLScriptElement | null;
const assistantId = script?.dataset.assistantId;

if (!script || !assistantId) {
  console.warn('Parley: add data-assistant-id="..." to the widget.js <script> tag.');
} else {
  const ns: Namespace = window.Parley ?? {
    version: '1',
    widgets: [],
    open: () => ns.widgets[0]?.open(),
    close: () => ns.widgets[0]?.close(),
  };
  window.Parley = ns;
  // One widget per assistant even if the tag is pasted twice.
  if (!ns.widgets.some((w) => w.api.assistantId === assistantId)) {
    // The API lives where the script came from, including any path prefix before /widget.js.
    const base = new URL(script.src, location.href).href.replace(/\/widget\.js(?:[?#].*)?$/, '');
    const widget = new Widget(base, assistantId);
    ns.widgets.push(widget);
    const start = () =>
      void widget.boot().catch((err) => console.warn('Parley: widget failed to start', err));
    if (document.body) start();
    else addEventListener('DOMContentLoaded', start, { once: true });
  }
}
