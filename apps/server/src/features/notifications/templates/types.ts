import type { NoticeKind } from '@parley/contract/notifications';

/** A notice as stored in the app and sent by email (docs/notifications.md "Kinds"). */
export type Notice = { type: NoticeKind; title: string; body: string };

/** A date as people read it in a notice: `2026-12-01` (UTC). */
export const day = (d: Date) => d.toISOString().slice(0, 10);
