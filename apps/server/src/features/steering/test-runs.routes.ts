import { dataOf, idParam } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import { testRunSchema } from '@parley/contract/steering';
import { z } from 'zod';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { ownerOf } from './steering.routes.ts';
import * as svc from './test-runs.service.ts';

const params = z.object({ assistantId: idParam });
const read = { auth: 'session', permission: 'workspace.view', resources: ['assistant'] } as const;
const tags = ['steering'];

/** An assistant's test runs (docs/steering.md "Test runs"): start one, list them, read one. */
export const testRunsRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/assistants/:assistantId/test-runs',
    {
      config: { ...read, permission: 'assistants.manage' },
      schema: { tags, params, response: { 202: dataOf(testRunSchema), ...conflictResponse } },
    },
    async (request, reply) => {
      const run = await svc.startRun(ctx, ownerOf(request));
      return reply.status(202).send({ data: svc.toTestRun(run) });
    },
  );
  app.get(
    '/api/assistants/:assistantId/test-runs',
    {
      config: read,
      schema: { tags, params, querystring: offsetQuery, response: { 200: offsetPage(testRunSchema) } },
    },
    async (request) => {
      const { rows, total } = await svc.listRuns(ctx.db, ownerOf(request), request.query);
      return {
        data: rows.map(svc.toTestRun),
        total,
        limit: request.query.limit,
        offset: request.query.offset,
      };
    },
  );
  app.get(
    '/api/assistants/:assistantId/test-runs/:runId',
    {
      config: { ...read, resources: ['assistant', 'testRun'] },
      schema: { tags, params: params.extend({ runId: idParam }), response: { 200: dataOf(testRunSchema) } },
    },
    async (request) => ({ data: svc.toTestRun(resourceOf(request, 'testRun')) }),
  );
};
