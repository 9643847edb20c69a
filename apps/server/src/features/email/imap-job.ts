import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { ingestEmail } from './email.inbound.ts';
import { ImapSupervisor } from './imap-supervisor.ts';

/**
 * The `email-imap` job (jobs/catalog.ts; docs/email.md "IMAP"): each pass is the supervisor's,
 * which re-reads the channels, keeps its leases and starts or stops watchers; the watchers run
 * between passes on their own connections. Stopping the job logs the watchers out and gives the
 * leases up, so another process takes the mailboxes on its next pass.
 */
export function emailImapJob(ctx: AppContext): Job {
  const supervisor = new ImapSupervisor({
    db: ctx.db,
    log: ctx.log,
    encryptionKey: ctx.config.encryptionKey,
    allowPrivateNetworks: ctx.config.webhooks.allowPrivateNetworks,
    ingest: async (channel, raw) => {
      await ingestEmail(ctx, channel.assistantId, raw, 'imap');
    },
  });
  return {
    step: async () => {
      await supervisor.pass();
      return false;
    },
    drain: () => supervisor.stop(),
    close: () => supervisor.abort(),
  };
}
