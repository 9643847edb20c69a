import { ImapFlow } from 'imapflow';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../../context.ts';
import { checkOutboundUrl } from '../../lib/outbound/guard.ts';

/**
 * The mail servers of a channel (docs/email.md "Configuration"): the SMTP transport replies go
 * out through (the channel's own server, else the server's SMTP_URL), the test's SMTP verify and
 * IMAP login, each failure put in words.
 */

export type SmtpSettings = {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  password: string;
};
export type ImapSettings = SmtpSettings & { mailbox: string };
export type Check = { ok: boolean; message: string };

const TIMEOUT_MS = 10_000;

/** Private and loopback hosts only when WEBHOOK_ALLOW_PRIVATE_NETWORKS (as webhooks). */
export async function hostRefusal(ctx: AppContext, host: string): Promise<string | null> {
  const bare = host.replace(/^\[|\]$/g, '');
  const literal = bare.includes(':') ? `[${bare}]` : bare;
  return checkOutboundUrl(`https://${literal}/`, {
    allowPrivateNetworks: ctx.config.webhooks.allowPrivateNetworks,
  });
}

/** The transport for a channel's replies; undefined when neither it nor the server has SMTP. */
export function smtpTransport(ctx: AppContext, smtp: SmtpSettings | null): Transporter | undefined {
  const common = { connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: 60_000 };
  if (smtp) {
    return nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: { user: smtp.username, pass: smtp.password },
      ...common,
    });
  }
  if (ctx.config.smtpUrl) return nodemailer.createTransport(ctx.config.smtpUrl);
  return undefined;
}

/** A mail server's failure in words, without echoing secrets; `where` begins with "the". */
export function inWords(err: unknown, where: string): string {
  const e = err as {
    code?: string;
    responseCode?: number;
    response?: string;
    message?: string;
    authenticationFailed?: boolean;
  };
  const msg = e?.message ?? String(err);
  const Where = where.charAt(0).toUpperCase() + where.slice(1);
  if (e?.code === 'EAUTH' || e?.responseCode === 535 || e?.authenticationFailed)
    return `${Where} refused the user name or password`;
  if (e?.code === 'ECONNREFUSED' || msg.includes('ECONNREFUSED'))
    return `Could not connect to ${where}: connection refused`;
  if (e?.code === 'ENOTFOUND' || e?.code === 'EDNS' || msg.includes('ENOTFOUND'))
    return `Could not find ${where}: the host name does not resolve`;
  if (e?.code === 'ETIMEDOUT' || e?.code === 'ETIMEOUT' || msg.includes('ETIMEDOUT'))
    return `${Where} did not answer in time`;
  if (e?.response) return `${Where} answered: ${e.response.slice(0, 200)}`;
  return `Could not talk to ${where}: ${msg.slice(0, 200)}`;
}

/** Asks the SMTP server to verify the connection and the login (nothing is sent). */
export async function verifySmtp(ctx: AppContext, smtp: SmtpSettings | null): Promise<Check> {
  if (smtp) {
    const refused = await hostRefusal(ctx, smtp.host);
    if (refused) return { ok: false, message: `SMTP host ${smtp.host}: ${refused}` };
  }
  const transport = smtpTransport(ctx, smtp);
  const where = smtp ? `the SMTP server ${smtp.host}:${smtp.port}` : "the server's SMTP_URL";
  if (!transport)
    return { ok: false, message: 'No SMTP server: set smtp on the channel, or SMTP_URL on the server' };
  try {
    await transport.verify();
    return {
      ok: true,
      message: `${where.charAt(0).toUpperCase()}${where.slice(1)} accepted the connection${smtp ? ` and the login of ${smtp.username}` : ''}`,
    };
  } catch (err) {
    return { ok: false, message: inWords(err, where) };
  } finally {
    transport.close();
  }
}

/** Logs in to the IMAP server and opens the mailbox, then logs out. */
export async function checkImap(ctx: AppContext, imap: ImapSettings): Promise<Check> {
  const refused = await hostRefusal(ctx, imap.host);
  if (refused) return { ok: false, message: `IMAP host ${imap.host}: ${refused}` };
  const where = `the IMAP server ${imap.host}:${imap.port}`;
  const client = new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: imap.secure,
    auth: { user: imap.username, pass: imap.password },
    logger: false,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS * 3,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const box = await client.mailboxOpen(imap.mailbox, { readOnly: true });
    return {
      ok: true,
      message: `Logged in to ${imap.host} as ${imap.username}; ${imap.mailbox} holds ${box.exists} messages`,
    };
  } catch (err) {
    const e = err as { mailboxMissing?: boolean; serverResponseCode?: string };
    if (e?.serverResponseCode === 'NONEXISTENT' || e?.mailboxMissing)
      return {
        ok: false,
        message: `The IMAP server ${imap.host}:${imap.port} has no mailbox ${imap.mailbox}`,
      };
    return { ok: false, message: inWords(err, where) };
  } finally {
    await client.logout().catch(() => client.close());
  }
}
