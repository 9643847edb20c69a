import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles, srcDir } from '../support/sources.ts';

/**
 * One definition of each rule (docs/billing.md "Where it lives", docs/analytics.md "Periods",
 * docs/decisions/0018-inbox.md, assignees answer): the sources are read as text, and a second
 * copy of a rule fails here. Behaviour is tested in each feature's own files.
 */

const repoDir = fileURLToPath(new URL('../../../../', import.meta.url));
const contractDir = join(repoDir, 'packages/contract/src');
const clientDirs = ['apps/web/src', 'apps/widget/src'].map((d) => join(repoDir, d));
const keyed = (dir: string, prefix: string) => (path: string) => ({
  key: prefix + relative(dir, path).split('\\').join('/'),
  path,
});
/** The server's sources as `lib/...`, the contract's as `contract/...`, the clients' as `apps/...`. */
const files = [
  ...sourceFiles().map(keyed(srcDir, '')),
  ...sourceFiles(contractDir).map(keyed(contractDir, 'contract/')),
  ...clientDirs.flatMap((dir) => sourceFiles(dir, true).map(keyed(repoDir, ''))),
];
const holding = (pattern: RegExp) =>
  files.filter((f) => pattern.test(readFileSync(f.path, 'utf8'))).map((f) => f.key);

describe('one definition of each rule', () => {
  it('phone numbers: the E.164 pattern is written once (packages/contract/src/phone.ts)', () => {
    expect(holding(/\\d\{6,14\}/)).toEqual(['contract/phone.ts']);
  });

  it('plans: their order is written once (packages/contract/src/plans.ts)', () => {
    expect(holding(/free: 0, pro: 1, enterprise: 2/)).toEqual(['contract/plans.ts']);
  });

  it('periods and windows: the period list once in the contract, its window once in the server', () => {
    expect(holding(/'7d',\s*'30d',\s*'90d'|'7d':\s*7/)).toEqual(['contract/periods.ts']);
    expect(
      holding(/Date\.UTC\(\w+\.getUTCFullYear\(\), \w+\.getUTCMonth\(\), \w+\.getUTCDate\(\)\)/),
    ).toEqual(['lib/periods.ts']);
  });

  it('sent and failed: messages are counted in and out by one fragment (db/message-volume.ts)', () => {
    expect(holding(/filter \(where m\.role (= 'user'|in \('assistant', 'agent'\))/)).toEqual([
      'db/message-volume.ts',
    ]);
  });

  it('the membership query of the tenant guard is written once (db/membership.ts)', () => {
    expect(holding(/eq\(memberships\.workspaceId, sql\.placeholder\('workspaceId'\)\)/)).toEqual([
      'db/membership.ts',
    ]);
  });

  it('who may be assigned: one membership query and one rule for the inbox and tickets', () => {
    const membershipByUser = /eq\(memberships\.workspaceId, workspaceId\), eq\(memberships\.userId, userId\)/;
    expect(
      holding(membershipByUser).filter(
        (k) => k.startsWith('features/inbox') || k.startsWith('features/tickets'),
      ),
    ).toEqual([]);
    expect(holding(/assigneeRefusal\(/).sort()).toEqual([
      'features/inbox/inbox.service.ts',
      'features/tickets/tickets.service.ts',
      'features/workspaces/members.service.ts',
    ]);
  });

  it('billing: one folder, one service, one read of the workspace row, one collect-then-email flow', () => {
    const billingFiles = files
      .map((f) => f.key)
      .filter((k) => k.startsWith('features/') && (/\/billing[.-]/.test(k) || k.includes('/billing/')));
    expect(billingFiles.filter((k) => !k.startsWith('features/billing/'))).toEqual([]);
    expect(files.filter((f) => f.key.endsWith('/billing.service.ts')).map((f) => f.key)).toEqual([
      'features/billing/billing.service.ts',
    ]);
    const inBilling = (pattern: RegExp) => holding(pattern).filter((k) => k.startsWith('features/billing/'));
    expect(inBilling(/\.from\(workspaces\)/)).toEqual(['features/billing/billing.repo.ts']);
    expect(inBilling(/\.update\(workspaces\)/)).toEqual(['features/billing/billing.repo.ts']);
    expect(inBilling(/notifyWorkspaceAdmins\(|emailLater\(/)).toEqual(['features/billing/notices.ts']);
  });
});
