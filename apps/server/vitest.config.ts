import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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

/**
 * Files that fake the system clock (vi.useFakeTimers) leave ids issued in their faked future in
 * the id factory (src/lib/ids.ts), which stays monotonic for the rest of its worker's life. The
 * test files share their worker's modules (`isolate: false`), so these run last, when no file
 * comes after them (docs/testing.md "Speed").
 */
const FAKE_CLOCK = ['test/auth/rate-limit.test.ts'];

class FakeClockLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (f: TestSpecification) => FAKE_CLOCK.some((p) => f.moduleId.endsWith(p));
    return [...sorted.filter((f) => !last(f)), ...sorted.filter(last)];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/per-file.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // A test file loads the server's modules once per worker instead of once per file (most of a
    // file's time was that loading); each file still builds its own app and database.
    isolate: false,
    sequence: { sequencer: FakeClockLast },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // expect.poll waits for a state (a page's rows, a count); 1 s, vitest's default, is too short on
    // a machine kept busy by the other test files and the browser
    expect: { poll: { timeout: 10_000 } },
  },
});
