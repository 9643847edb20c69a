import type { EmailNotAnswered } from '@parley/contract/email';
import EmailReplyParser from 'email-reply-parser';
import { fileTypeFromBuffer } from 'file-type';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import sanitizeHtml from 'sanitize-html';

/**
 * Reading an inbound email (docs/email.md "Threading", "Attachments", "Not answered"): MIME by
 * mailparser, the new text by email-reply-parser, HTML by sanitize-html, attachments' types by
 * file-type.
 */

export type Mailbox = { address: string; name: string };
const MAX_TEXT = 8000;
const NUL = String.fromCharCode(0);

export const parseEmail = (raw: Buffer): Promise<ParsedMail> =>
  simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: 5 * 1024 * 1024 });

/** Without NUL (PostgreSQL text cannot hold it) and with lone surrogates replaced; pairs kept. */
const clean = (s: string) =>
  s
    .replaceAll(NUL, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

function mailboxes(a: AddressObject | AddressObject[] | undefined): Mailbox[] {
  const list = a ? (Array.isArray(a) ? a : [a]) : [];
  return list
    .flatMap((o) => o.value)
    .flatMap((v) => (v.group ? v.group : [v]))
    .filter((v) => v.address)
    .slice(0, 50)
    .map((v) => ({
      address: clean(v.address ?? '')
        .toLowerCase()
        .slice(0, 320),
      name: clean(v.name ?? '').slice(0, 200),
    }));
}

export function addressesOf(mail: ParsedMail) {
  return { from: mailboxes(mail.from)[0], to: mailboxes(mail.to), cc: mailboxes(mail.cc) };
}

/** The ids this message answers: In-Reply-To first, then References (newest last). */
export function threadIdsOf(mail: ParsedMail): { inReplyTo: string | null; references: string[] } {
  const refs = mail.references ? (Array.isArray(mail.references) ? mail.references : [mail.references]) : [];
  const ids = (s: string) => s.match(/<[^<>\s]{1,900}>/g) ?? [];
  const inReplyTo = mail.inReplyTo ? (ids(mail.inReplyTo)[0] ?? null) : null;
  return { inReplyTo, references: refs.flatMap(ids).slice(-50) };
}

/**
 * What the customer wrote this time: the quoted earlier mail and the signature cut away. HTML-only
 * mail is read through mailparser's text of it. Falls back to the whole text when cutting would
 * leave nothing (a message that is all quote, or a forwarded one).
 */
export function newTextOf(mail: ParsedMail): string {
  const text = clean(mail.text ?? '').replace(/\r\n/g, '\n');
  let visible = '';
  try {
    visible = new EmailReplyParser().read(text).getVisibleText().trim();
  } catch {
    visible = '';
  }
  const out = visible || text.trim() || clean(mail.subject ?? '').trim() || '(no text)';
  return out.slice(0, MAX_TEXT);
}

/** The HTML shown in the inbox: no scripts, styles, frames, forms, handlers or javascript: links. */
export function sanitise(html: string | false | undefined): string | null {
  if (!html) return null;
  const out = sanitizeHtml(clean(html), {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(['img', 'span', 'font', 'center']),
    allowedAttributes: {
      a: ['href', 'title'],
      img: ['src', 'alt', 'width', 'height'],
      td: ['colspan', 'rowspan', 'align'],
      th: ['colspan', 'rowspan', 'align'],
      '*': ['dir', 'lang'],
    },
    allowedSchemes: ['https', 'http', 'mailto'],
    allowedSchemesByTag: { img: ['https', 'cid'] },
    allowProtocolRelative: false,
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
    },
  });
  return out.trim() ? out.slice(0, 1_000_000) : null;
}

const header = (mail: ParsedMail, name: string) => {
  const v = mail.headers.get(name);
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  return String(v);
};

/**
 * Mail that must not be answered, by its headers (docs/email.md "Not answered"): automatic
 * replies, bulk and list mail, bounces and delivery reports, and mail from Parley's own addresses.
 */
export function refusedByHeaders(
  mail: ParsedMail,
  from: string | undefined,
  isChannelAddress: boolean,
): EmailNotAnswered | null {
  const auto = header(mail, 'auto-submitted').trim().toLowerCase();
  if (auto && auto !== 'no') return 'auto_submitted';
  if (header(mail, 'x-autoreply') || header(mail, 'x-autorespond')) return 'auto_submitted';
  const precedence = header(mail, 'precedence').trim().toLowerCase();
  // mailparser gathers the List-* headers under `list` (`list.id` for List-Id).
  const list = mail.headers.get('list') as { id?: unknown } | undefined;
  if (['bulk', 'list', 'junk'].includes(precedence) || list?.id) return 'bulk';
  const type = mail.headers.get('content-type') as { value?: string } | undefined;
  if (type?.value?.toLowerCase() === 'multipart/report') return 'bounce';
  const local = (from ?? '').split('@')[0] ?? '';
  if (!from || /^(mailer-daemon|postmaster)$/i.test(local)) return 'bounce';
  if (header(mail, 'return-path').trim() === '<>') return 'bounce';
  if (isChannelAddress) return 'own_address';
  return null;
}

export type StoredAttachment = {
  filename: string;
  declaredType: string;
  detectedType: string | null;
  size: number;
  content: Buffer;
};

/** The attachments, each typed by its bytes; at most 25 MB together (the rest is left out). */
export async function attachmentsOf(mail: ParsedMail, maxBytes: number): Promise<StoredAttachment[]> {
  const out: StoredAttachment[] = [];
  let total = 0;
  for (const a of mail.attachments.slice(0, 100)) {
    if (a.related && a.contentType.startsWith('image/') && !a.filename) continue;
    total += a.content.length;
    if (total > maxBytes) break;
    const detected = await fileTypeFromBuffer(a.content).catch(() => undefined);
    out.push({
      filename: clean(a.filename ?? 'attachment').slice(0, 255) || 'attachment',
      declaredType: clean(a.contentType ?? 'application/octet-stream').slice(0, 200),
      detectedType: detected?.mime ?? (isText(a.content) ? 'text/plain' : null),
      size: a.content.length,
      content: a.content,
    });
  }
  return out;
}

/** Plain text when the first KB has no control bytes other than whitespace. */
function isText(b: Buffer): boolean {
  const head = b.subarray(0, 1024);
  for (const c of head) if (c < 9 || (c > 13 && c < 32)) return false;
  return true;
}

export const subjectOf = (mail: ParsedMail) => clean(mail.subject ?? '').slice(0, 500);

/** The subject of a reply: one `Re: ` in front, whatever the customer's client put there. */
export function replySubject(subject: string): string {
  const bare = subject.replace(/^(\s*(re|aw|sv)\s*(\[\d+\])?\s*:\s*)+/i, '').trim();
  return `Re: ${bare || '(no subject)'}`;
}
