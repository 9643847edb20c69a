import type { AppContext } from '../../context.ts';
import type { Channel } from '../../db/schema/index.ts';
import type { ConversationRow, MessageRow } from './conversations.repo.ts';

/**
 * A channel's adapter: one per channel, behind this one interface. Built once at startup from the
 * list in features/registries.ts and carried by the context (`ctx.channels`), so a reply posted
 * by any path (the inbox, `POST /api/v1/messages`, a job) reaches the customer whether or not
 * that channel's routes are registered in the process (docs/architecture.md "State").
 */
export type ChannelAdapter = {
  /**
   * How a human's reply reaches the customer beyond the live stream (docs/sms.md "Replies from
   * the inbox"). Called once the message is stored, so it must not throw.
   */
  deliverReply(ctx: AppContext, conversation: ConversationRow, message: MessageRow): Promise<void>;
};

/** The adapters by channel; a channel served by the live stream alone (chat, widget) has none. */
export type Channels = Readonly<Partial<Record<Channel, ChannelAdapter>>>;
