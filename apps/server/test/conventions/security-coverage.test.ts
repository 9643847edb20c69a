import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { recordOperations } from '../support/security-coverage.ts';

/**
 * Records the credentialed operations of /api/openapi.json; after the whole run, the global
 * teardown fails naming any that no shared security suite reached (support/security-coverage.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the shared security suite', () => {
  it('knows every operation that takes a credential', async () => {
    const ops = await recordOperations(t);
    expect(ops).toContain('POST /api/chat');
    expect(ops).toContain('GET /api/workspaces/{workspaceId}/members');
    expect(ops.length).toBeGreaterThan(60);
  });
});
