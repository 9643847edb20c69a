import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ensureTestTls } from './test/support/tls.ts';

// Local HTTPS receivers (webhook tests) use a CA made here; Node reads NODE_EXTRA_CA_CERTS only
// at start, so it is set before vitest forks its test processes (docs/webhooks.md, testing).
const tlsDir = fileURLToPath(new URL('./.tmp/tls', import.meta.url));
process.env.NODE_EXTRA_CA_CERTS = ensureTestTls(tlsDir).caFile;
process.env.PARLEY_TEST_TLS_DIR = tlsDir;
// The shared security suite's records of this run (test/support/security-coverage.ts), apart from
// any other run's on the same tree; the test processes inherit it.
process.env.PARLEY_SECURITY_COVERAGE_DIR ??= fileURLToPath(
  new URL(`./.tmp/security-coverage-${process.pid}`, import.meta.url),
);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // expect.poll waits for a state (a page's rows, a count); 1 s, vitest's default, is too short on
    // a machine kept busy by the other test files and the browser
    expect: { poll: { timeout: 10_000 } },
  },
});
