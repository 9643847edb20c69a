import { Resolver } from 'node:dns/promises';
import { authenticate } from 'mailauth';
import type { AppContext } from '../../context.ts';
import type { EmailAuthResult } from '../../db/schema/index.ts';

/**
 * SPF, DKIM and DMARC of an inbound message (docs/email.md "Authentication"), with mailauth. The
 * connecting client's IP and HELO come from the newest `Received` header (the team's mail server
 * wrote it when the sender handed the message over). DNS goes to EMAIL_DNS_SERVERS when set,
 * else to the system's resolvers; a lookup that fails is a `temperror`, never a `fail`. Each
 * lookup waits EMAIL_DNS_TIMEOUT_MS for an answer, then asks once more and waits twice that
 * (c-ares adds some jitter: with 2 s, the retry went at 3 s and the lookup failed at 7.1 s).
 */

/** A resolver for one message's checks (cheap to make; nothing kept between messages). */
function resolverOf(ctx: AppContext) {
  const r = new Resolver({ timeout: ctx.config.emailDnsTimeoutMs, tries: 2 });
  if (ctx.config.emailDnsServers.length > 0) r.setServers(ctx.config.emailDnsServers);
  return (name: string, rrtype: string) => r.resolve(name, rrtype as 'TXT') as Promise<unknown>;
}

/** The whole check's bound; never shorter than one lookup's two tries (about 3.5 x the timeout). */
const AUTH_TIMEOUT_MS = 15_000;

export async function authenticateEmail(ctx: AppContext, raw: Buffer): Promise<EmailAuthResult> {
  const limitMs = Math.max(AUTH_TIMEOUT_MS, 4 * ctx.config.emailDnsTimeoutMs);
  const work = authenticate(raw, {
    trustReceived: true,
    resolver: resolverOf(ctx),
    disableArc: true,
    disableBimi: true,
    mta: 'parley',
  } as Parameters<typeof authenticate>[1]);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), limitMs);
  });
  try {
    const result = (await Promise.race([work, timeout])) as
      | {
          spf?: { status?: { result?: string } } | false;
          dkim?: { results?: { status?: { result?: string } }[] };
          dmarc?: { status?: { result?: string } } | false;
        }
      | undefined;
    if (!result) return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
    const dkims = result.dkim?.results?.map((r) => r.status?.result ?? 'none') ?? [];
    return {
      spf: (result.spf || undefined)?.status?.result || 'none',
      dkim: dkims.includes('pass') ? 'pass' : (dkims[0] ?? 'none'),
      dmarc: (result.dmarc || undefined)?.status?.result || 'none',
    };
  } catch (err) {
    ctx.log.warn({ err }, 'email authentication could not be checked');
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
  } finally {
    clearTimeout(timer);
  }
}
