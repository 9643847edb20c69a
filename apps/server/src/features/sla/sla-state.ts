import type { Executor } from '../../db/client.ts';
import type { SlaBreach, SlaKind, slaPolicies } from '../../db/schema/index.ts';
import { findBusinessHours } from '../business-hours/business-hours.repo.ts';
import type { Schedule } from '../business-hours/schedule.ts';
import type { ConversationRow } from '../conversations/conversations.repo.ts';
import { addWorkingMinutes } from './clock.ts';
import { listSlaPolicies } from './sla-policies.repo.ts';

/**
 * A conversation's SLA clocks (docs/sla.md "Clocks"). They start when it enters `handoff`, under
 * the policy that applies then (the lowest priority number; its channel and labels at that
 * moment), and stop when it leaves it. A person's reply meets the first and the next response;
 * closing meets the resolution. The due times are stored on the conversation, so every list and
 * the breach job read them without counting business hours again.
 */

export type SlaPolicyRow = typeof slaPolicies.$inferSelect;

/** Whether a policy covers a conversation: each condition it sets holds (none set: every one). */
export function applies(p: SlaPolicyRow, c: Pick<ConversationRow, 'channel' | 'labels'>): boolean {
  const { channels, labelIds } = p.appliesTo;
  if (channels?.length && !channels.includes(c.channel)) return false;
  if (labelIds?.length && !c.labels.some((l) => labelIds.includes(l.id))) return false;
  return true;
}

/** The workspace's business hours when the policy counts only those; null: calendar time. */
export async function scheduleFor(db: Executor, p: SlaPolicyRow): Promise<Schedule | null> {
  return p.businessHoursOnly ? ((await findBusinessHours(db, p.workspaceId)) ?? null) : null;
}

const due = (schedule: Schedule | null, from: Date, minutes: number | null) =>
  minutes === null ? null : addWorkingMinutes(schedule, from, minutes);

/** The columns that start the clocks as the conversation enters `handoff` at `at`. */
export async function slaStart(tx: Executor, row: ConversationRow, at: Date) {
  const policy = (await listSlaPolicies(tx, row.workspaceId)).find((p) => applies(p, row));
  const schedule = policy ? await scheduleFor(tx, policy) : null;
  return {
    slaPolicyId: policy?.id ?? null,
    slaStartedAt: policy ? at : null,
    slaFirstDueAt: policy ? due(schedule, at, policy.firstResponseMinutes) : null,
    slaNextDueAt: null,
    slaResolutionDueAt: policy ? due(schedule, at, policy.resolutionMinutes) : null,
    slaRepliedAt: null,
    slaWaitingSince: null,
    slaBreaches: [] as SlaBreach[],
  };
}

/** The columns that stop the clocks as it leaves `handoff` (its policy and breaches stay, for the record). */
export const SLA_STOP = {
  slaFirstDueAt: null,
  slaNextDueAt: null,
  slaResolutionDueAt: null,
  slaWaitingSince: null,
};

/** When the next response is due for a customer waiting since `since`. */
export const nextResponseDue = (schedule: Schedule | null, since: Date, p: SlaPolicyRow) =>
  due(schedule, since, p.nextResponseMinutes);

/**
 * The clocks run out at `at` and not recorded yet: each kind once per clock (the next response
 * once per wait).
 */
export function dueBreaches(c: ConversationRow, at: Date): Array<{ kind: SlaKind; dueAt: Date }> {
  const recorded = (kind: SlaKind, since: Date | null) =>
    c.slaBreaches.some((b) => b.kind === kind && (!since || Date.parse(b.at) >= since.getTime()));
  const out: Array<{ kind: SlaKind; dueAt: Date }> = [];
  const check = (kind: SlaKind, dueAt: Date | null, since: Date | null) => {
    if (dueAt && dueAt.getTime() <= at.getTime() && !recorded(kind, since)) out.push({ kind, dueAt });
  };
  check('first_response', c.slaFirstDueAt, null);
  check('next_response', c.slaNextDueAt, c.slaWaitingSince);
  check('resolution', c.slaResolutionDueAt, null);
  return out;
}

/** The public shape of a conversation's clocks; null when no policy applied. */
export const toSla = (c: ConversationRow) =>
  c.slaPolicyId
    ? {
        policyId: c.slaPolicyId,
        firstResponseDueAt: c.slaFirstDueAt?.toISOString() ?? null,
        nextResponseDueAt: c.slaNextDueAt?.toISOString() ?? null,
        resolutionDueAt: c.slaResolutionDueAt?.toISOString() ?? null,
        breaches: c.slaBreaches,
      }
    : null;
