import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * One error-response map (src/http/route-docs.ts): every operation documents the error statuses
 * its declaration implies, each in the one error body `{error, code, details?}`.
 */
type Operation = {
  parameters?: Array<{ in: string }>;
  security?: unknown[];
  responses: Record<
    string,
    { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
  >;
};

let t: TestApp;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  t = await createTestApp();
  paths = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json().paths;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

describe('error responses', () => {
  it('every error status is documented with the one error body', () => {
    const wrong: string[] = [];
    let errors = 0;
    for (const { name, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        errors++;
        const props = Object.keys(response.content?.['application/json']?.schema?.properties ?? {}).sort();
        if (props.join() !== 'code,details,error') wrong.push(`${name} ${status}: ${props.join()}`);
      }
    }
    expect(errors).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  it('credentialed operations document 401 and 429; addressed ones 404; inputs 400', () => {
    const missing: string[] = [];
    for (const { name, op } of operations()) {
      const has = (s: number) => String(s) in op.responses;
      if ((op.security?.length ?? 0) > 0 && !has(401)) missing.push(`${name} 401`);
      if ((op.security?.length ?? 0) > 0 && !name.includes('/api/widget/') && !has(429))
        missing.push(`${name} 429`);
      if (name.includes('{') && !has(404)) missing.push(`${name} 404`);
      if ((op.parameters?.length ?? 0) > 0 && !has(400)) missing.push(`${name} 400`);
    }
    expect(missing).toEqual([]);
  });
});
