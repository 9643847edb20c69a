import { dataOf, idParam } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  acceptedSuggestionSchema,
  acceptSuggestionBody,
  type Suggestion,
  suggestionSchema,
  suggestionsQuery,
} from '@parley/contract/suggestions';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { ownerOf } from './steering.routes.ts';
import type { SuggestionRow } from './suggestions.repo.ts';
import * as svc from './suggestions.service.ts';

const params = z.object({ assistantId: idParam });
const one = params.extend({ suggestionId: idParam });
const read = { auth: 'session', permission: 'workspace.view', resources: ['assistant'] } as const;
const manageOne = {
  ...read,
  permission: 'assistants.manage',
  resources: ['assistant', 'suggestion'],
} as const;
const listQuery = offsetQuery.extend(suggestionsQuery.shape);
const tags = ['steering'];

export const toSuggestion = (r: SuggestionRow): Suggestion => ({
  id: r.id,
  question: r.question,
  answer: r.answer,
  conversationId: r.conversationId,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
});

const suggestionOf = (request: FastifyRequest) => resourceOf(request, 'suggestion');

/** An assistant's suggestions from the team's answers (docs/measuring.md "Suggestions"): list, accept, dismiss. */
export const suggestionsRoutes: Feature = (app, ctx) => {
  const base = '/api/assistants/:assistantId/suggestions';
  app.get(
    base,
    {
      config: read,
      schema: { tags, params, querystring: listQuery, response: { 200: offsetPage(suggestionSchema) } },
    },
    async (request) => {
      const query = request.query as z.output<typeof listQuery>;
      const { rows, total } = await svc.listSuggestions(ctx.db, ownerOf(request), query);
      return { data: rows.map(toSuggestion), total, limit: query.limit, offset: query.offset };
    },
  );
  app.post(
    `${base}/:suggestionId/accept`,
    {
      config: manageOne,
      schema: {
        tags,
        params: one,
        body: acceptSuggestionBody,
        response: { 201: dataOf(acceptedSuggestionSchema), ...conflictResponse },
      },
    },
    async (request, reply) => {
      const body = (request.body as z.output<typeof acceptSuggestionBody>) ?? {};
      const data = await svc.acceptSuggestion(ctx, ownerOf(request), suggestionOf(request).id, body);
      return reply.status(201).send({ data });
    },
  );
  app.post(
    `${base}/:suggestionId/dismiss`,
    {
      config: manageOne,
      schema: { tags, params: one, response: { 200: dataOf(suggestionSchema), ...conflictResponse } },
    },
    async (request) => {
      const row = await svc.dismissSuggestion(ctx, ownerOf(request), suggestionOf(request).id);
      return { data: toSuggestion(row) };
    },
  );
};
