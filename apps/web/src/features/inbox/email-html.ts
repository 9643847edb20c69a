/**
 * An email's HTML made into a document for a sandboxed iframe (docs/email.md "Dashboard"). The
 * server already sanitises it (docs/email.md "Threading"); this is the second line: the HTML is
 * parsed into an inert document (DOMParser runs nothing and loads nothing), active elements,
 * event handlers and any address other than http(s), mailto and cid are removed, and the result
 * carries a Content-Security-Policy that allows no script, no request and no remote image. The
 * iframe itself has `sandbox=""`: no scripts, no forms, no popups, no same-origin access.
 */

const ACTIVE =
  'script,style,iframe,frame,frameset,object,embed,applet,form,input,button,textarea,select,link,meta,base,svg,math,template,noscript';
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'background',
  'poster',
  'srcset',
  'data',
]);
const SAFE_URL = /^(https?:|mailto:|cid:|#)/i;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'";
/** Emails are written for a light page: the frame keeps one in both themes. */
const STYLE =
  'body{margin:0.75rem;font:14px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}a{color:#0b57d0}';

export function emailDocument(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const el of Array.from(doc.querySelectorAll(ACTIVE))) el.remove();
  for (const el of Array.from(doc.body.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const unsafeUrl = URL_ATTRIBUTES.has(name) && !SAFE_URL.test(attr.value.trim());
      if (name.startsWith('on') || name === 'srcdoc' || unsafeUrl) el.removeAttribute(attr.name);
    }
  }
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><style>${STYLE}</style></head><body>${doc.body.innerHTML}</body></html>`;
}
