import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { waitFor } from './wait.ts';

/**
 * A real IMAP server for the email channel's tests (docs/email.md "IMAP"): Debian's Dovecot
 * (`apt-get install dovecot-imapd`) with its own configuration in a temp directory, on a free
 * loopback port, plain IMAP without TLS, users in a passwd-file, mail in a temp Maildir. Messages
 * reach it by IMAP APPEND (`append`), as any mail client would put them there.
 */
export type Dovecot = {
  host: string;
  port: number;
  /** The user the tests log in as, with its password. */
  user: string;
  password: string;
  /** Puts a raw message into the user's mailbox with IMAP APPEND; resolves with its UID. */
  append(raw: string, mailbox?: string): Promise<number | undefined>;
  /** The user's IMAP connections open now, by `doveadm who` (the test's own APPENDs included). */
  connections(): Promise<number>;
  /** Stops the server (connections drop) and starts it again on the same port and mail. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

const BINARY = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'].find((p) => existsSync(p));
const DOVEADM = ['/usr/bin/doveadm', '/usr/local/bin/doveadm'].find((p) => existsSync(p)) ?? 'doveadm';

export const INSTALL_HINT =
  'Dovecot is not installed: the email (IMAP) tests run a real Dovecot. Install it with ' +
  '`sudo apt-get install -y dovecot-imapd` (Debian/Ubuntu); CI (.ci/run) installs it itself.';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

type Options = {
  /** Leave IDLE out of the capabilities it announces (the watcher's polling fallback). */
  withoutIdle?: boolean;
};

/** Whom the mail belongs to: this user, or as root (Dovecot refuses uid 0) Dovecot's own. */
function mailOwner(): { uid: number; gid: number } {
  const me = userInfo();
  if (me.uid !== 0) return { uid: me.uid, gid: me.gid };
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('dovecot:'));
  const [, , uid, gid] = (line ?? '').split(':');
  if (!uid || !gid) throw new Error(`No dovecot user in /etc/passwd. ${INSTALL_HINT}`);
  return { uid: Number(uid), gid: Number(gid) };
}

function config(dir: string, port: number, opts: Options): string {
  const me = userInfo();
  const owner = mailOwner();
  // As root Dovecot wants unprivileged users of its own (Debian's package makes them); as
  // anyone else it runs as that user.
  const root = me.uid === 0;
  const internal = root ? 'dovecot' : me.username;
  const login = root ? 'dovenull' : me.username;
  const capability = opts.withoutIdle
    ? 'imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ AUTH=PLAIN AUTH=LOGIN UIDPLUS'
    : '';
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
default_internal_user = ${internal}
default_internal_group = ${root ? 'dovecot' : me.username}
default_login_user = ${login}
first_valid_uid = 1
first_valid_gid = 1
${root ? '' : 'login_trusted_networks = 127.0.0.1/8'}
${capability}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
}
service submission-login {
  inet_listener submission {
    port = 0
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0600
  }
}
`;
}

/** Starts Dovecot for one test file; fails with how to install it when it is missing. */
export async function startDovecot(opts: Options = {}): Promise<Dovecot> {
  if (!BINARY) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'parley-dovecot-'));
  // Its auth process runs as Dovecot's own user and reads the passwd-file from here.
  chmodSync(dir, 0o755);
  for (const sub of ['run', 'state', 'mail', 'home']) mkdirSync(join(dir, sub), { recursive: true });
  const owner = mailOwner();
  for (const sub of ['mail', 'home']) chownSync(join(dir, sub), owner.uid, owner.gid);
  const user = 'support@example.test';
  const password = 'imap-secret';
  writeFileSync(join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`);
  const port = await freePort();
  const conf = join(dir, 'dovecot.conf');
  writeFileSync(conf, config(dir, port, opts));

  let child: ChildProcess | null = null;
  let output = '';
  const start = async () => {
    output = '';
    const proc = spawn(BINARY, ['-F', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    proc.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child = proc;
    try {
      await waitFor(
        async () => {
          if (proc.exitCode !== null) throw new Error(`dovecot exited (${proc.exitCode}): ${output}`);
          return await canLogIn();
        },
        15_000,
        `Dovecot to answer on 127.0.0.1:${port} (its log: ${join(dir, 'dovecot.log')})`,
      );
    } catch (err) {
      await stopChild();
      throw err;
    }
  };
  const stopChild = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const killed = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killed);
  };
  const client = () =>
    new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
  const canLogIn = async () => {
    const c = client();
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.logout();
      return true;
    } catch {
      c.close();
      return false;
    }
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    async append(raw, mailbox = 'INBOX') {
      const c = client();
      c.on('error', () => undefined);
      await c.connect();
      try {
        const res = await c.append(mailbox, raw);
        return res ? Number(res.uid) : undefined;
      } finally {
        await c.logout();
      }
    },
    async connections() {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(DOVEADM, ['-c', conf, 'who', '-1'], (err, stdout) => (err ? reject(err) : resolve(stdout))),
      );
      // One line per connection after the header: username, proto, pid, ip...
      return out.split('\n').filter((l) => l.startsWith(`${user} `) && /\bimap\b/.test(l)).length;
    },
    async restart() {
      await stopChild();
      await start();
    },
    async stop() {
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small RFC 5322 message with its own Message-ID. */
export function rawMail(opts: {
  from?: string;
  to?: string;
  subject: string;
  text: string;
  messageId: string;
}) {
  return [
    `From: ${opts.from ?? 'Carla Customer <carla@example.com>'}`,
    `To: ${opts.to ?? 'support@example.test'}`,
    `Subject: ${opts.subject}`,
    `Message-ID: <${opts.messageId}>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    opts.text,
    '',
  ].join('\r\n');
}
