import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { inboxSettings } from '../../db/schema/index.ts';

/** A workspace's inbox settings (docs/inbox.md "Auto-assignment", docs/csat.md); no row: the defaults. */
export type InboxSettings = {
  autoAssign: boolean;
  maxOpenPerAgent: number;
  csat: { enabled: boolean; question: string };
};

export const DEFAULT_INBOX_SETTINGS: InboxSettings = {
  autoAssign: false,
  maxOpenPerAgent: 10,
  csat: { enabled: false, question: 'How would you rate the help you received?' },
};

export async function findInboxSettings(db: Executor, workspaceId: string): Promise<InboxSettings> {
  const [row] = await db
    .select()
    .from(inboxSettings)
    .where(eq(inboxSettings.workspaceId, workspaceId))
    .limit(1);
  if (!row) return DEFAULT_INBOX_SETTINGS;
  return {
    autoAssign: row.autoAssign,
    maxOpenPerAgent: row.maxOpenPerAgent,
    csat: { enabled: row.csatEnabled, question: row.csatQuestion },
  };
}

export async function saveInboxSettings(db: Executor, workspaceId: string, s: InboxSettings, at: Date) {
  const values = {
    autoAssign: s.autoAssign,
    maxOpenPerAgent: s.maxOpenPerAgent,
    csatEnabled: s.csat.enabled,
    csatQuestion: s.csat.question,
    updatedAt: at,
  };
  await db
    .insert(inboxSettings)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: inboxSettings.workspaceId, set: values });
}
