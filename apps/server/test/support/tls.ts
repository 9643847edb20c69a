import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type TestTls = { caFile: string; cert: Buffer; key: Buffer };

/**
 * A throw-away certificate authority and a localhost server certificate signed by it, made with
 * openssl at test time (never committed). vitest.config.ts hands the CA to every test process
 * through NODE_EXTRA_CA_CERTS, which Node reads only at start, exactly as an operator would.
 */
export function ensureTestTls(dir: string): TestTls {
  const caFile = join(dir, 'ca.pem');
  const certFile = join(dir, 'server.pem');
  const keyFile = join(dir, 'server-key.pem');
  if (!existsSync(certFile)) {
    mkdirSync(dir, { recursive: true });
    const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    run([
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'ca-key.pem',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Parley Test CA',
    ]);
    run([
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'server-key.pem',
      '-out',
      'server.csr',
      '-subj',
      '/CN=localhost',
    ]);
    writeFileSync(
      join(dir, 'san.ext'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\n',
    );
    run([
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '30',
      '-extfile',
      'san.ext',
    ]);
  }
  return { caFile, cert: readFileSync(certFile), key: readFileSync(keyFile) };
}
