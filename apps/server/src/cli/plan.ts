import { fileURLToPath } from 'node:url';
import type { Plan } from '@parley/contract/plans';
import { createContext, migrateDatabase, openConfiguredDatabase } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import { applyPlan, PLANS } from '../features/billing/plan-change.ts';
import { AppError } from '../http/errors.ts';

/**
 * The operator command (docs/billing.md "Changing a plan by hand"):
 * `npm run plan -- <workspaceId> <free|pro|enterprise>`. It opens the configured database
 * (DATABASE_URL, else PGlite under DATA_DIR) and applies the plan through the same service as
 * Stripe's webhooks, so the event is recorded and quotas follow at once. Exit codes: 0 done,
 * 1 failed, 2 wrong arguments.
 */

export const USAGE = 'usage: npm run plan -- <workspaceId> <free|pro|enterprise>';

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [workspaceId, plan, ...rest] = argv;
  if (!workspaceId || !plan || rest.length > 0 || !PLANS.includes(plan as Plan)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(env);
  const database = await openConfiguredDatabase(config);
  try {
    await migrateDatabase(database);
    const ctx = createContext(config, database);
    try {
      const change = await applyPlan(ctx, workspaceId, plan as Plan);
      process.stdout.write(
        change.changed
          ? `${workspaceId}: ${change.from} → ${change.to} (effective ${change.effectiveAt})\n`
          : `${workspaceId}: already on ${change.to}; billing status set to active\n`,
      );
      return 0;
    } finally {
      await ctx.limits.close();
      await ctx.fanout.close();
    }
  } catch (err) {
    process.stderr.write(`${err instanceof AppError ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
