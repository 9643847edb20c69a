import type { AppContext } from '../context.ts';
import { aiResolutionJob } from '../features/analytics/ai-resolution.ts';
import { analyticsRollupJob } from '../features/analytics/rollup.ts';
import { billingLifecycleJob } from '../features/billing/lifecycle.ts';
import { creditsResetJob } from '../features/credits/credits.jobs.ts';
import { emailInboundJob, emailSendJob } from '../features/email/email.jobs.ts';
import { emailImapJob } from '../features/email/imap-job.ts';
import { autoAssignJob } from '../features/inbox/auto-assign.ts';
import { ingestionJob } from '../features/knowledge/ingestion/ingest.jobs.ts';
import { slaBreachesJob } from '../features/sla/sla.jobs.ts';
import { smsInboundJob, smsSendJob, smsSessionsJob } from '../features/sms/sms.jobs.ts';
import { testRunsJob } from '../features/steering/test-runs.jobs.ts';
import { deliveryJob, dispatchJob } from '../features/webhooks/webhooks.jobs.ts';
import { widgetInactivityJob } from '../features/widget/widget.jobs.ts';
import { type Channel, EMAIL_INBOUND_CHANNEL, EVENTS_CHANNEL, SMS_INBOUND_CHANNEL } from './listen.ts';

/**
 * Every background job of Parley, listed once. Each is a loop over rows of our own tables,
 * claimed with FOR UPDATE SKIP LOCKED, so every process runs every job side by side
 * (docs/decisions/0010-job-queue.md). A job runs a pass; a pass that found work is followed by
 * another at once, one that found none by a pause of `everyMs`, which a wake cuts short.
 * main.ts starts them all with one `startJobs` and stops them with its `stop`; tests start the
 * ones they need by name (`t.startJobs`, test/support/harness.ts). Services wake a job by name
 * after committing its rows: `ctx.jobs.wake('ingestion')` (jobs/runner.ts), and each such caller is
 * named in the job's `wokenBy` (test/ops/jobs-catalog.test.ts checks it). A new job: its
 * `<feature>.jobs.ts` exports a function `(ctx) => Job` (e.g. `smsSendJob`), which its one entry
 * here holds as `create` (docs/decisions/0010-job-queue.md).
 */
export type JobName =
  | 'event-dispatch'
  | 'webhook-delivery'
  | 'ingestion'
  | 'credits-reset'
  | 'billing-lifecycle'
  | 'widget-inactivity'
  | 'sms-inbound'
  | 'sms-send'
  | 'sms-sessions'
  | 'analytics-rollup'
  | 'ai-resolution'
  | 'test-runs'
  | 'auto-assign'
  | 'sla-breaches'
  | 'email-inbound'
  | 'email-send'
  | 'email-imap';

/** One job's work in one process, built by its definition's `create`. */
export type Job = {
  /**
   * One pass; true when there may be more work right away. `signal` is aborted when the process
   * stops: a pass that runs long gives its work back rather than hold the stop.
   */
  step(signal?: AbortSignal): Promise<boolean>;
  /** After the last pass: waits for work the passes left running (webhook attempts in flight). */
  drain?(): Promise<void>;
  /** After the stop, drained or out of grace: releases what the job holds. */
  close?(): void;
};

export type JobDefinition = {
  /** The pause after a pass that found nothing: the poll, for work no wake announced. */
  everyMs: number;
  /** What wakes it before its pause ends (a `ctx.jobs.wake(name)` or a NOTIFY); none for a pure schedule. */
  wokenBy: readonly string[];
  /** A NOTIFY channel that wakes the job in every process running it. */
  listen?: Channel;
  create(ctx: AppContext): Job;
};

export const CATALOG: { readonly [N in JobName]: JobDefinition } = {
  'event-dispatch': {
    everyMs: 500,
    listen: EVENTS_CHANNEL,
    wokenBy: ['NOTIFY parley_events at the commit of a transaction that inserted events (migration 0001)'],
    create: dispatchJob,
  },
  'webhook-delivery': {
    everyMs: 200,
    wokenBy: [
      'event-dispatch, after it inserted deliveries (webhooks.jobs.ts)',
      'an attempt ending, a slot free again (webhooks.jobs.ts)',
      'a manual retry (webhooks.service.ts)',
    ],
    create: deliveryJob,
  },
  ingestion: {
    everyMs: 2_000,
    wokenBy: [
      'a source added, uploaded or re-synced (sources.service.ts)',
      'a vector backfill requested (retrieval/vector-backfill.ts)',
    ],
    create: ingestionJob,
  },
  'credits-reset': {
    everyMs: 5 * 60_000,
    // A tidy-up only: a reservation starts the new period itself (docs/decisions/0005-credits.md).
    wokenBy: [],
    create: creditsResetJob,
  },
  'billing-lifecycle': {
    // Trial ends, trial reminders, downgrades and cancellations at the period's end
    // (docs/billing.md "Plan lifecycle"): a minute late at most.
    everyMs: 60_000,
    wokenBy: [],
    create: billingLifecycleJob,
  },
  'widget-inactivity': {
    everyMs: 60_000,
    // One minute is the finest session timeout.
    wokenBy: [],
    create: widgetInactivityJob,
  },
  'sms-inbound': {
    everyMs: 1_000,
    listen: SMS_INBOUND_CHANNEL,
    wokenBy: [
      'an inbound SMS stored at its acknowledgement (sms.callbacks.ts)',
      'NOTIFY parley_sms_inbound, from a process that stored one and does not run this job (JOBS)',
    ],
    create: smsInboundJob,
  },
  'sms-send': {
    everyMs: 2_000,
    // The AI's replies are sent at once by whoever queued them; this retries them, sends what a
    // crash left, and sends a person's replies from the inbox, which are queued without sending.
    wokenBy: ["a person's reply queued for an SMS conversation (sms.outbound.ts)"],
    create: smsSendJob,
  },
  'sms-sessions': {
    everyMs: 60_000,
    // One minute is the finest session timeout; a late message ends a stale session itself.
    wokenBy: [],
    create: smsSessionsJob,
  },
  'analytics-rollup': {
    // Per-day counters of closed days (docs/analytics.md "Per-day counters"): the figures never
    // wait for it, a day it has not rolled up is counted live.
    everyMs: 5 * 60_000,
    wokenBy: [],
    create: analyticsRollupJob,
  },
  'ai-resolution': {
    // Settles whether the AI resolved a conversation once 7 days passed after it ended
    // (docs/measuring.md "Resolution"): the figures count it as pending until then.
    everyMs: 15 * 60_000,
    wokenBy: [],
    create: aiResolutionJob,
  },
  'test-runs': {
    // An assistant's tests played after a change, once its delay has passed (docs/steering.md
    // "Test runs"); a queued run's time is known, so a poll of a second starts it at most that late.
    everyMs: 1_000,
    wokenBy: ['a manual run queued (test-runs.service.ts)'],
    create: testRunsJob,
  },
  'auto-assign': {
    // Every change that may let it assign runs the assigner at once (docs/inbox.md
    // "Auto-assignment"); this sweep picks up what a stopped process or a failed run left waiting.
    everyMs: 60_000,
    wokenBy: [],
    create: autoAssignJob,
  },
  'sla-breaches': {
    // A breach is recorded within 60 s of its due time (docs/sla.md "Breaches"): a pass every 15 s.
    everyMs: 15_000,
    wokenBy: [],
    create: slaBreachesJob,
  },
  'email-inbound': {
    // Mail stored at receipt is parsed, threaded and answered here (docs/email.md).
    everyMs: 1_000,
    listen: EMAIL_INBOUND_CHANNEL,
    wokenBy: [
      'an email stored at receipt, forwarded or by IMAP (email.inbound.ts)',
      'NOTIFY parley_email_inbound, from a process that stored one and does not run this job (JOBS)',
    ],
    create: emailInboundJob,
  },
  'email-send': {
    // Replies by SMTP, queued by the AI's answer and by people's replies; retries failed sends.
    everyMs: 2_000,
    wokenBy: ['a reply queued for an email conversation (email.outbound.ts)'],
    create: emailSendJob,
  },
  'email-imap': {
    // Re-reads the IMAP channels, keeps this process's mailbox leases and its watchers (docs/email.md
    // "IMAP"); new mail itself arrives by IDLE between passes. A saved change applies within a pass.
    everyMs: 3_000,
    wokenBy: [],
    create: emailImapJob,
  },
};

export const JOB_NAMES: readonly JobName[] = Object.keys(CATALOG) as JobName[];

/**
 * The jobs a process runs, from the JOBS setting (docs/jobs.md "Which process runs which job"):
 * `all`, `none`, or a comma-separated list of names. An unknown name stops the start with the list
 * of known ones.
 */
export function jobsFromSetting(setting: string): JobName[] {
  const value = setting.trim();
  if (value === '' || value === 'all') return [...JOB_NAMES];
  if (value === 'none') return [];
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(JOB_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new Error(
      `JOBS names ${unknown.map((n) => `"${n}"`).join(', ')}, not a job of Parley. Use all, none, or a comma-separated list of: ${JOB_NAMES.join(', ')}`,
    );
  }
  return [...new Set(names)] as JobName[];
}

export type StartOptions = {
  /** Start only these (tests); all by default. */
  only?: readonly JobName[];
  /** Shorter pauses (tests, benchmarks); the catalog's by default. */
  everyMs?: Partial<Record<JobName, number>>;
};

/** A set of started jobs: `stop` stops these (and only these) as `ctx.jobs.stop` does. */
export type StartedJobs = {
  names: JobName[];
  /** Resolves true when they all finished within the grace. */
  stop(graceMs?: number): Promise<boolean>;
};

/**
 * Starts the catalog's jobs on `ctx.jobs` (all of them, or `only`). `stop`'s grace defaults to
 * SHUTDOWN_GRACE_MS.
 */
export function startJobs(ctx: AppContext, opts: StartOptions = {}): StartedJobs {
  const names = [...(opts.only ?? JOB_NAMES)];
  for (const name of names) {
    const def = CATALOG[name];
    ctx.jobs.start(ctx, name, def, opts.everyMs?.[name] ?? def.everyMs);
  }
  return {
    names,
    stop: (graceMs = ctx.config.shutdownGraceMs) => ctx.jobs.stop(graceMs, names),
  };
}
