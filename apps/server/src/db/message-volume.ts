import { sql } from 'drizzle-orm';

/**
 * Message volume, the one rule for every count of messages in and out (docs/analytics.md "Message
 * volume per channel", docs/sms.md "Analytics"): inbound is the customer's (role `user`), outbound
 * the AI's and people's (`assistant`, `agent`), and a message whose status is `failed` was never
 * sent, so it counts in neither. A reply the carrier did not deliver (`undelivered`) was sent: it
 * counts. Written against the alias `m` for `messages`.
 */
export const sentMessage = sql`m.status <> 'failed'`;

/** `inbound` and `outbound` columns of a query over `messages m`. */
export const messageVolume = sql`count(*) filter (where m.role = 'user' and ${sentMessage})::int as inbound,
  count(*) filter (where m.role in ('assistant', 'agent') and ${sentMessage})::int as outbound`;
