// Mutation testing of four modules (docs/testing.md "Mutation testing"); not part of `npm test`
// nor of CI. One target at a time: `STRYKER_TARGET=credits npm run mutation`; without
// STRYKER_TARGET, all four in one run.
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

// Stryker's vitest runner runs the tests in worker threads of a process it starts itself, so the
// test CA (vitest.config.ts) must be in NODE_EXTRA_CA_CERTS before that process starts: here.
const { ensureTestTls } = await tsImport('./test/support/tls.ts', import.meta.url);
const tlsDir = fileURLToPath(new URL('./.tmp/stryker/tls', import.meta.url));
process.env.NODE_EXTRA_CA_CERTS = ensureTestTls(tlsDir).caFile;
process.env.PARLEY_STRYKER_TLS_DIR = tlsDir;

const targets = {
  tenant: ['src/http/tenant.ts'],
  credits: [
    'src/features/credits/allowance.ts',
    'src/features/credits/alerts.ts',
    'src/features/credits/credits.service.ts',
    'src/features/credits/credits.repo.ts',
    'src/features/credits/credits.jobs.ts',
  ],
  webhooks: ['src/features/webhooks/signing.ts'],
  // The request signature check and the form parsing it reads (the REST client below is not a target).
  sms: ['src/features/sms/provider.ts:1-80'],
};

const target = process.env.STRYKER_TARGET;
if (target && !targets[target]) throw new Error(`STRYKER_TARGET must be one of ${Object.keys(targets)}`);
const name = target ?? 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts', related: false },
  mutate: target ? targets[target] : Object.values(targets).flat(),
  concurrency: 1,
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: `.tmp/stryker/incremental-${name}.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `.tmp/stryker/report-${name}.html` },
  jsonReporter: { fileName: `.tmp/stryker/report-${name}.json` },
  ignorePatterns: ['.tmp', 'data', 'dist', 'coverage', 'test-results'],
  // A mutant that hangs a test is a timeout (killed) after the test's own time plus this much.
  timeoutMS: 15_000,
  dryRunTimeoutMinutes: 15,
  cleanTempDir: 'always',
};
