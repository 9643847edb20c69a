import { z } from 'zod';
import { idParam } from './envelope.ts';

/** SLA policies and a conversation's clocks under one (docs/sla.md). */

export const SLA_KINDS = ['first_response', 'next_response', 'resolution'] as const;
export const SLA_CHANNELS = ['chat', 'widget', 'sms', 'email'] as const;

/** A workspace holds at most this many policies (docs/sla.md "Policies"). */
export const MAX_SLA_POLICIES = 50;
/** The longest target: 43,200 minutes (30 days). */
export const MAX_SLA_MINUTES = 43_200;

/** A target in minutes: 1 to 43,200 (30 days). */
const minutes = z.number().int().min(1).max(MAX_SLA_MINUTES);

const appliesTo = z.strictObject({
  channels: z.array(z.enum(SLA_CHANNELS)).max(3).optional(),
  labelIds: z.array(idParam).max(200).optional(),
});

const fields = {
  name: z.string().trim().min(1).max(100),
  firstResponseMinutes: minutes.nullable().optional(),
  nextResponseMinutes: minutes.nullable().optional(),
  resolutionMinutes: minutes.nullable().optional(),
  businessHoursOnly: z.boolean().optional(),
  appliesTo: appliesTo.optional(),
  priority: z.number().int().min(1).max(100),
};

const someTarget = (b: {
  firstResponseMinutes?: number | null;
  nextResponseMinutes?: number | null;
  resolutionMinutes?: number | null;
}) => [b.firstResponseMinutes, b.nextResponseMinutes, b.resolutionMinutes].some((m) => m != null);

export const createSlaPolicyBody = z.strictObject(fields).refine(someTarget, {
  message: 'Set at least one of firstResponseMinutes, nextResponseMinutes, resolutionMinutes',
  path: ['firstResponseMinutes'],
});

/** A change: any fields; the policy must still have a target once applied (checked by the server). */
export const updateSlaPolicyBody = z.strictObject({
  ...fields,
  name: fields.name.optional(),
  priority: fields.priority.optional(),
});

export const slaPolicySchema = z.object({
  id: z.string(),
  name: z.string(),
  firstResponseMinutes: z.number().nullable(),
  nextResponseMinutes: z.number().nullable(),
  resolutionMinutes: z.number().nullable(),
  businessHoursOnly: z.boolean(),
  appliesTo: z.object({
    channels: z.array(z.enum(SLA_CHANNELS)).optional(),
    labelIds: z.array(z.string()).optional(),
  }),
  priority: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A conversation's clocks: each due time while it runs (null once met or stopped), and its breaches. */
export const conversationSlaSchema = z.object({
  policyId: z.string(),
  firstResponseDueAt: z.string().nullable(),
  nextResponseDueAt: z.string().nullable(),
  resolutionDueAt: z.string().nullable(),
  breaches: z.array(z.object({ kind: z.enum(SLA_KINDS), at: z.string() })),
});
