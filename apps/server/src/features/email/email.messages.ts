import type { EmailMessageInfo, EmailNotAnswered } from '@parley/contract/email';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import type { ConversationRow } from '../conversations/conversations.service.ts';
import * as repo from './email.repo.ts';

/**
 * What email messages carry in the inbox (docs/email.md "In the inbox"), and the attachments'
 * downloads.
 */

export const attachmentUrl = (conversationId: string, attachmentId: string) =>
  `/api/inbox/conversations/${conversationId}/attachments/${attachmentId}`;

/** The email side of a page of messages, by message id; empty unless an email conversation. */
export async function emailInfoFor(
  ctx: AppContext,
  conversation: { workspaceId: string; channel: string },
  page: { id: string }[],
): Promise<Map<string, EmailMessageInfo>> {
  const out = new Map<string, EmailMessageInfo>();
  if (conversation.channel !== 'email') return out;
  const { rows, files } = await repo.emailOf(
    ctx.db,
    conversation.workspaceId,
    page.map((m) => m.id),
  );
  for (const r of rows) {
    out.set(r.messageId, {
      direction: r.direction,
      subject: r.subject,
      from: { address: r.fromAddress, name: r.fromName },
      to: r.to,
      cc: r.cc,
      messageId: r.messageIdHeader,
      inReplyTo: r.inReplyTo,
      html: r.html,
      attachments: files
        .filter((f) => f.messageId === r.messageId)
        .map((f) => ({
          id: f.id,
          filename: f.filename,
          contentType: f.detectedType ?? 'application/octet-stream',
          declaredType: f.declaredType,
          size: f.size,
          url: attachmentUrl(r.conversationId, f.id),
        })),
      authentication: r.auth,
      marked: r.marked,
      notAnswered: (r.notAnswered as EmailNotAnswered | null) ?? null,
      delivery: r.deliveryState ? { state: r.deliveryState, error: r.deliveryError } : null,
    });
  }
  return out;
}

/** A filename safe in a header: the ASCII fallback plus the RFC 5987 UTF-8 form. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_').slice(0, 150) || 'attachment';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename.slice(0, 150))}`;
}

/** Types that a browser would render as a page or run: always sent as opaque bytes. */
const ACTIVE = /html|xml|javascript|ecmascript|svg/i;

export async function downloadAttachment(
  ctx: AppContext,
  conversation: ConversationRow,
  attachmentId: string,
) {
  const file = await repo.findAttachment(ctx.db, conversation.workspaceId, conversation.id, attachmentId);
  if (!file) throw notFound('Attachment');
  const type =
    file.detectedType && !ACTIVE.test(file.detectedType) ? file.detectedType : 'application/octet-stream';
  return { content: file.content, contentType: type, disposition: disposition(file.filename) };
}
