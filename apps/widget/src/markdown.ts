import { append, h } from './dom.ts';

const LIST = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/;

/**
 * Markdown to DOM nodes, for a safe subset: paragraphs, line breaks, headings (shown as bold
 * lines), bullet and numbered lists, quotes, fenced and inline code, bold, italic, links and bare
 * URLs (http, https and mailto only), and `[n]` citation markers.
 *
 * Written here rather than taken from a library (docs/widget-script.md): `marked` plus DOMPurify is
 * about 20 KB gzipped, most of the 25 KB budget, and still builds HTML strings that must be
 * cleaned afterwards. This renderer never builds HTML: every character of the input ends up in a
 * text node or in an attribute we set ourselves (a checked URL), so `<script>`, `onerror=` and
 * `javascript:` links from the model or an agent are shown as text, not run. Tables and images are
 * left as text on purpose (images from a model would be a tracking channel).
 */
export function renderMarkdown(src: string, depth = 0): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  const at = (n: number) => lines[n] ?? '';
  while (i < lines.length) {
    const line = at(i);
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fence) {
      const code: string[] = [];
      for (i++; i < lines.length && !at(i).trimStart().startsWith(fence); i++) code.push(at(i));
      i++;
      out.append(h('pre', {}, h('code', {}, code.join('\n'))));
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.append(h('hr'));
      i++;
      continue;
    }
    const heading = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.append(h('p', {}, h('strong', {}, inline(heading[1] ?? ''))));
      i++;
      continue;
    }
    if (LIST.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const list = ordered ? h('ol') : h('ul');
      const start = Number.parseInt(line, 10);
      if (ordered && start !== 1) list.setAttribute('start', String(start));
      let item: HTMLLIElement | null = null;
      for (; i < lines.length; i++) {
        const m = LIST.exec(at(i));
        if (m) {
          item = h('li', {}, inline(m[2] ?? ''));
          list.append(item);
        } else if (item && /^\s+\S/.test(at(i))) {
          append(item, h('br'), inline(at(i).trim()));
        } else break;
      }
      out.append(list);
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      for (; i < lines.length && /^\s*>/.test(at(i)); i++) quoted.push(at(i).replace(/^\s*>\s?/, ''));
      const body = quoted.join('\n');
      out.append(h('blockquote', {}, depth < 3 ? renderMarkdown(body, depth + 1) : body));
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && at(i).trim() && (para.length === 0 || !startsBlock(at(i))); i++) {
      para.push(at(i).trim());
    }
    out.append(h('p', {}, inline(para.join('\n'))));
  }
  return out;
}

function startsBlock(line: string): boolean {
  return /^\s*(```|~~~|#{1,6}\s|>)/.test(line) || LIST.test(line);
}

// One pass over the text: code spans, bold, italic, links, bare URLs, citation markers, newlines.
const INLINE =
  /(`+)([^`][\s\S]*?)\1|\*\*(\S[\s\S]*?)\*\*|__(\S[\s\S]*?)__|\*(\S[\s\S]*?)\*|_(\S[\s\S]*?)_(?![\w])|!?\[([^\]\n]*)\]\(\s*<?([^\s<>()]*)>?(?:\s+"[^"\n]*")?\s*\)|(https?:\/\/[^\s<>"]*[^\s<>".,:;'!?)\]])|\[(\d{1,3})\](?!\()|\n/g;

export function inline(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const index = m.index ?? 0;
    const before = text[index - 1] ?? '';
    // `snake_case` and `2*3*4` are text, not emphasis.
    if ((m[5] !== undefined || m[6] !== undefined) && /\w/.test(before)) continue;
    append(out, text.slice(last, index));
    last = index + m[0].length;
    if (m[2] !== undefined) append(out, h('code', {}, m[2]));
    else if (m[3] !== undefined || m[4] !== undefined)
      append(out, h('strong', {}, inline(m[3] ?? m[4] ?? '')));
    else if (m[5] !== undefined || m[6] !== undefined) append(out, h('em', {}, inline(m[5] ?? m[6] ?? '')));
    else if (m[7] !== undefined) append(out, link(m[8] ?? '', m[7] || (m[8] ?? '')));
    else if (m[9] !== undefined) append(out, link(m[9], m[9]));
    else if (m[10] !== undefined) append(out, h('sup', { class: 'ref' }, `[${m[10]}]`));
    else append(out, h('br'));
  }
  append(out, text.slice(last));
  return out;
}

/**
 * A link only to an absolute http(s) or mailto URL; anything else stays plain text. The label is
 * plain text too: links cannot nest, and a bare URL as its own label must not be parsed again.
 */
export function link(url: string, label: string): Node {
  const href = safeUrl(url);
  if (!href) return document.createTextNode(label);
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }, label);
}

export function safeUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}
