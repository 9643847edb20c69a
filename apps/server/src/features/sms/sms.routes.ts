import { dataOf, idParam } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  analytics,
  analyticsQuery,
  formAConfig,
  formACreate,
  formAPatch,
  formATest,
  formBConfig,
  formBPut,
  formBTest,
  smsSession,
  testResult,
} from '@parley/contract/sms';
import { z } from 'zod';
import { publicBaseUrl } from '../../context.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { registerSmsCallbacks } from './sms.callbacks.ts';
import { FORM_A_FIELDS, FORM_B_FIELDS } from './sms.ownership.ts';
import * as svc from './sms.service.ts';

const aParams = z.object({ assistantId: idParam });
const bParams = z.object({ workspaceId: idParam, assistantId: idParam });
/** Owners and admins, on a plan with channels (docs/sms.md "Configuration"). */
const formA = {
  auth: 'session',
  resources: ['assistant'],
  permission: 'assistants.manage',
  planFeature: 'channels',
} as const;
const formB = { ...formA, auth: 'user' } as const;
const tagsA = ['SMS (Form A)'];
const tagsB = ['SMS (Form B)'];
const a = '/api/assistants/:assistantId/sms';
const b = '/api/workspaces/:workspaceId/assistants/:assistantId/sms';

/**
 * The SMS channel (docs/sms.md): the configuration in Form A and Form B over one record, its
 * test, sessions and analytics, and the provider's two callbacks.
 */
export const smsRoutes: Feature = (app, ctx) => {
  const base = (host: string | undefined) => publicBaseUrl(ctx, host);

  app.get(
    a,
    { config: formA, schema: { tags: tagsA, params: aParams, response: { 200: dataOf(formAConfig) } } },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      return { data: svc.toFormA(await svc.requireConfig(ctx, row), base(request.headers.host)) };
    },
  );

  app.post(
    a,
    {
      config: formA,
      schema: {
        tags: tagsA,
        description:
          'Creates the configuration: `providerAccountSid` (AC + 32 letters or digits), `providerAuthToken` (at least 32 characters; stored encrypted, never returned), `providerPhoneNumber` (E.164), optional `isEnabled`, `maxMessageLength` (50 to 1600), `enableContactMatching`, `autoCreateContacts`. The provider must confirm that the account holds the number: 400 in words when it rejects the credentials, does not hold the number or cannot be reached. Then 409 when the assistant has one, or the number is on another assistant.',
        params: aParams,
        body: formACreate,
        response: { 201: dataOf(formAConfig), ...conflictResponse },
      },
    },
    async (request, reply) => {
      const { row } = resourceOf(request, 'assistant');
      const saved = await svc.createFormA(ctx, row, request.body);
      return reply.status(201).send({ data: svc.toFormA(saved, base(request.headers.host)) });
    },
  );

  app.patch(
    a,
    {
      config: formA,
      schema: {
        tags: tagsA,
        description:
          'Any subset of the Form A fields; 404 when the assistant has no configuration. A change of the account SID, the token or the number is confirmed with the provider first, as on create (400 in words otherwise).',
        params: aParams,
        body: formAPatch,
        response: { 200: dataOf(formAConfig), ...conflictResponse },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      const saved = await svc.patchFormA(ctx, row, request.body);
      return { data: svc.toFormA(saved, base(request.headers.host)) };
    },
  );

  app.delete(
    a,
    { config: formA, schema: { tags: tagsA, params: aParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await svc.deleteConfig(ctx, resourceOf(request, 'assistant').row);
      return reply.status(204).send();
    },
  );

  app.post(
    `${a}/test`,
    {
      config: formA,
      schema: {
        tags: tagsA,
        description:
          'Asks the provider whether these credentials hold this number; nothing is saved, and no saved configuration is needed. `valid` false (every capability false) on rejected credentials, an unknown number or an unreachable provider, with `reason`. Without `providerAuthToken`, the saved token is used when `providerAccountSid` is the saved one.',
        params: aParams,
        body: formATest,
        response: { 200: dataOf(testResult) },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      const { providerAccountSid, providerAuthToken, providerPhoneNumber } = request.body;
      return {
        data: await svc.testCredentials(
          ctx,
          row,
          { accountSid: providerAccountSid, authToken: providerAuthToken, phoneNumber: providerPhoneNumber },
          FORM_A_FIELDS,
        ),
      };
    },
  );

  app.get(
    `${a}/sessions`,
    {
      config: formA,
      schema: {
        tags: tagsA,
        description: 'SMS sessions of the assistant, most recent activity first.',
        params: aParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(smsSession) },
      },
    },
    async (request) => svc.listSessions(ctx, resourceOf(request, 'assistant').row, request.query),
  );

  app.get(
    b,
    { config: formB, schema: { tags: tagsB, params: bParams, response: { 200: dataOf(formBConfig) } } },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      return { data: svc.toFormB(await svc.requireConfig(ctx, row), base(request.headers.host)) };
    },
  );

  app.put(
    b,
    {
      config: formB,
      schema: {
        tags: tagsB,
        description:
          'Creates or replaces the configuration: `enabled`, `providerAccountSid`, `providerAuthToken` (stored encrypted, never returned), `phoneNumber` (E.164) required; `sessionTimeoutMinutes` (1 to 1440) defaults to 30. The provider must confirm that the account holds the number (400 in words otherwise, as Form A). 409 when the number is on another assistant.',
        params: bParams,
        body: formBPut,
        response: { 200: dataOf(formBConfig), ...conflictResponse },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      return { data: svc.toFormB(await svc.putFormB(ctx, row, request.body), base(request.headers.host)) };
    },
  );

  app.delete(
    b,
    { config: formB, schema: { tags: tagsB, params: bParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await svc.deleteConfig(ctx, resourceOf(request, 'assistant').row);
      return reply.status(204).send();
    },
  );

  app.post(
    `${b}/test`,
    {
      config: formB,
      schema: {
        tags: tagsB,
        description: "As Form A's test, with `phoneNumber`; nothing is saved, no saved configuration needed.",
        params: bParams,
        body: formBTest,
        response: { 200: dataOf(testResult) },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      const { providerAccountSid, providerAuthToken, phoneNumber } = request.body;
      return {
        data: await svc.testCredentials(
          ctx,
          row,
          { accountSid: providerAccountSid, authToken: providerAuthToken, phoneNumber },
          FORM_B_FIELDS,
        ),
      };
    },
  );

  app.get(
    `${b}/analytics`,
    {
      config: formB,
      schema: {
        tags: tagsB,
        description:
          'Messages (inbound, outbound), unique customer numbers and sessions active now, over `period` (7d, 30d or 90d, default 30d, counted in whole UTC days up to today), with a per-day series.',
        params: bParams,
        querystring: analyticsQuery,
        response: { 200: dataOf(analytics) },
      },
    },
    async (request) => ({
      data: await svc.analytics(ctx, resourceOf(request, 'assistant').row, request.query.period),
    }),
  );

  registerSmsCallbacks(app, ctx);
};
