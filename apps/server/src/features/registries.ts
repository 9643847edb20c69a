import type { SignInGuard } from './auth/auth.service.ts';
import type { Channels } from './conversations/channels.ts';
import { deliverAgentReply as deliverEmailReply } from './email/email.outbound.ts';
import { deliverAgentReply } from './sms/sms.outbound.ts';
import { refusePasswordWhenSsoRequired } from './sso/signin.service.ts';

/**
 * What every path needs whichever routes a process registers (docs/architecture.md "State"):
 * bootstrap.ts `createContext` puts these on the context. Kept apart from features/index.ts (the
 * routes) so a process without an app (a worker, `npm run plan`) does not load every route.
 */

/** Each channel's adapter; chat and widget replies need none beyond the live stream. */
export const channels: Channels = {
  sms: { deliverReply: deliverAgentReply },
  email: { deliverReply: deliverEmailReply },
};

/** The checks every password sign-in passes once the password is right. */
export const signInGuards: readonly SignInGuard[] = [refusePasswordWhenSsoRequired];
