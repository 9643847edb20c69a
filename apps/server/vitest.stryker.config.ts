import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The test files Stryker runs for each mutation target (stryker.config.mjs, docs/testing.md
 * "Mutation testing"): only those that exercise the target, so a mutant does not run the whole
 * suite. STRYKER_TARGET picks one target; without it, the files of all four.
 */
export const targetTests: Record<string, string[]> = {
  // Not named-workspace.test.ts (whole inbox and assistant flows per mutant); the probes cover its rule.
  tenant: [
    'test/http/tenant-resolver.test.ts',
    'test/http/tenant-probes.test.ts',
    'test/http/tenant-edges.test.ts',
    'test/http/tenant-smoke.test.ts',
  ],
  // Not race.test.ts: hundreds of concurrent reservations per mutant; the rules it races are the ones these check.
  credits: ['test/credits/credits.test.ts', 'test/credits/alerts.test.ts', 'test/credits/limits.test.ts'],
  webhooks: ['test/webhooks/delivery.test.ts', 'test/webhooks/signing.test.ts'],
  sms: ['test/sms/signature.test.ts', 'test/sms/security.test.ts'],
};

// The CA stryker.config.mjs made and handed to the runner's process (its threads cannot read a new one).
if (process.env.PARLEY_STRYKER_TLS_DIR) process.env.PARLEY_TEST_TLS_DIR = process.env.PARLEY_STRYKER_TLS_DIR;

const target = process.env.STRYKER_TARGET;
const include = target ? (targetTests[target] ?? []) : Object.values(targetTests).flat();

// Each test file with its own modules, as Stryker's runner expects: with the modules shared
// (vitest.config.ts `isolate: false`) a mutant's tests ran against the module another file loaded,
// and mutants every test must notice survived.
export default defineConfig({
  ...base,
  test: { ...base.test, include, isolate: true },
});
