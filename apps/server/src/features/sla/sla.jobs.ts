import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { now } from '../../lib/clock.ts';
import { announceToInbox } from '../conversations/conversation-states.ts';
import { toConversationDetail } from '../conversations/conversations.service.ts';
import { toConversation } from '../conversations/conversations.shapes.ts';
import { recordEvent } from '../events/events.service.ts';
import {
  emailLater,
  type Notice,
  notifyMember,
  notifyWorkspaceAdmins,
  type Recipient,
} from '../notifications/notifications.service.ts';
import { slaBreachedNotice } from '../notifications/templates/sla-breached.ts';
import { claimDueClocks, saveClocks } from './sla-clocks.repo.ts';
import { listSlaPolicies } from './sla-policies.repo.ts';
import { dueBreaches, nextResponseDue, type SlaPolicyRow, scheduleFor } from './sla-state.ts';

const BATCH = 100;

/**
 * One pass of the breach job (docs/sla.md "Breaches"): claims conversations whose clock ran out
 * (SKIP LOCKED, so each is handled by one process), sets the next-response time of a customer
 * waiting, and records each breach once with `sla.breached` and a notice to the assignee (the
 * owners and admins when nobody holds it), in one transaction. How many it claimed.
 */
export async function recordDueBreaches(ctx: AppContext, batch = BATCH): Promise<number> {
  const at = now();
  const { claimed, breached } = await ctx.db.transaction(async (tx) => {
    const rows = await claimDueClocks(tx, at, batch);
    const policies = new Map<string, SlaPolicyRow[]>();
    const policyOf = async (workspaceId: string, id: string | null) => {
      if (!policies.has(workspaceId)) policies.set(workspaceId, await listSlaPolicies(tx, workspaceId));
      return policies.get(workspaceId)?.find((p) => p.id === id);
    };
    const out: Array<{
      conversation: (typeof rows)[number];
      mails: Array<{ recipients: Recipient[]; notice: Notice }>;
    }> = [];
    for (const c of rows) {
      const policy = await policyOf(c.workspaceId, c.slaPolicyId);
      if (!policy) continue;
      let next = c.slaNextDueAt;
      if (c.slaWaitingSince && !next)
        next = nextResponseDue(await scheduleFor(tx, policy), c.slaWaitingSince, policy);
      // A wait no clock can time (no next-response target, or hours that never open) is dropped.
      const waiting = next ? c.slaWaitingSince : null;
      const found = dueBreaches({ ...c, slaNextDueAt: next, slaWaitingSince: waiting }, at);
      const saved = await saveClocks(tx, c, {
        slaNextDueAt: next,
        slaWaitingSince: waiting,
        slaBreaches: [...c.slaBreaches, ...found.map((b) => ({ kind: b.kind, at: b.dueAt.toISOString() }))],
      });
      const mails = [];
      for (const b of found) {
        await recordEvent(tx, {
          workspaceId: c.workspaceId,
          type: 'sla.breached',
          data: {
            ...toConversation(saved),
            conversationId: c.id,
            kind: b.kind,
            dueAt: b.dueAt.toISOString(),
            policyName: policy.name,
          },
        });
        const notice = slaBreachedNotice(saved, policy, b.kind);
        const recipients = saved.assigneeId
          ? await notifyMember(tx, c.workspaceId, saved.assigneeId, notice)
          : await notifyWorkspaceAdmins(tx, c.workspaceId, notice);
        mails.push({ recipients, notice });
      }
      if (found.length > 0 || next !== c.slaNextDueAt) out.push({ conversation: saved, mails });
    }
    return { claimed: rows.length, breached: out };
  });
  for (const { conversation, mails } of breached) {
    for (const m of mails) emailLater(ctx, m.recipients, m.notice, { conversationId: conversation.id });
    await announceToInbox(ctx, conversation, {
      type: 'conversation.updated',
      conversation: toConversationDetail(conversation),
      changedBy: { type: 'system', id: null },
    });
  }
  return claimed;
}

/** The breach job of jobs/catalog.ts (`sla-breaches`). */
export function slaBreachesJob(ctx: AppContext): Job {
  return { step: async () => (await recordDueBreaches(ctx)) === BATCH };
}
