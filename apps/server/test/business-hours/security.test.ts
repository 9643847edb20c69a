import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

/** The security suite over the business hours routes (docs/business-hours.md). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const url = (w: string) => `/api/workspaces/${w}/business-hours`;
const closed: never[] = [];
const hours = {
  timezone: 'Europe/Paris',
  week: {
    mon: [{ open: '09:00', close: '17:00' }],
    tue: closed,
    wed: closed,
    thu: closed,
    fri: closed,
    sat: closed,
    sun: closed,
  },
  holidays: [],
  outsideHoursMessage: 'We are closed.',
};

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/business-hours',
  auth: 'user',
  request: (w) => ({ method: 'GET', url: url(w) }),
});
securitySuite(() => t, {
  name: 'PUT /api/workspaces/:workspaceId/business-hours',
  auth: 'user',
  minRole: 'admin',
  request: (w) => ({ method: 'PUT', url: url(w), payload: hours }),
});
