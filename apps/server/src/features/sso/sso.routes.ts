import { dataOf, idParam } from '@parley/contract/envelope';
import { connectionOut, createBody, domain, patchBody, verifiedOut } from '@parley/contract/sso';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { publicBaseUrl } from '../../context.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import * as svc from './connections.service.ts';
import { registerSignIn } from './signin.routes.ts';

const wsParams = z.object({ workspaceId: idParam });
const oneParams = z.object({ workspaceId: idParam, connectionId: idParam });
/** Owners of Enterprise workspaces (docs/sso.md). */
const owner = { auth: 'user', permission: 'sso.manage', planFeature: 'sso' } as const;
const one = { ...owner, resources: ['ssoConnection'] } as const;
const tags = ['SSO'];
const base = '/api/workspaces/:workspaceId/sso/connections';

/**
 * Single sign-on (docs/sso.md): the workspace's connections, their domains' verification, and
 * the sign-in routes (signin.routes.ts).
 */
export const ssoRoutes: Feature = (app, ctx) => {
  const shape = async (request: FastifyRequest, rows: Awaited<ReturnType<typeof svc.listConnections>>) => {
    const domains = await svc.domainsOf(
      ctx,
      tenantOf(request).workspaceId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => svc.toConnection(r, domains, publicBaseUrl(ctx, request.headers.host)));
  };

  app.post(
    base,
    {
      config: owner,
      schema: {
        tags,
        description:
          'Creates a connection: `{type: "oidc", name, issuer, clientId, clientSecret, domains, defaultRole?}` (the issuer is discovered now; the secret is stored encrypted, never returned) or `{type: "saml", name, metadataXml | metadataUrl, domains, defaultRole?}` (the metadata must name a redirect-binding SSO URL and a signing certificate). 400 with the reason when discovery or the metadata fails; 409 when a domain is verified by another workspace.',
        params: wsParams,
        body: createBody,
        response: { 201: dataOf(connectionOut), ...conflictResponse },
      },
    },
    async (request, reply) => {
      const row = await svc.createConnection(ctx, tenantOf(request).workspaceId, request.body);
      const [data] = await shape(request, [row]);
      return reply.status(201).send({ data: data! });
    },
  );

  app.get(
    base,
    {
      config: owner,
      schema: {
        tags,
        description: 'Every connection of the workspace (no paging).',
        params: wsParams,
        response: { 200: z.object({ data: z.array(connectionOut) }) },
      },
    },
    async (request) => ({
      data: await shape(request, await svc.listConnections(ctx, tenantOf(request).workspaceId)),
    }),
  );

  app.get(
    `${base}/:connectionId`,
    { config: one, schema: { tags, params: oneParams, response: { 200: dataOf(connectionOut) } } },
    async (request) => {
      const [data] = await shape(request, [resourceOf(request, 'ssoConnection')]);
      return { data: data! };
    },
  );

  app.patch(
    `${base}/:connectionId`,
    {
      config: one,
      schema: {
        tags,
        description:
          'Any field of the create body except `type`, and `requireSso` (password sign-in then refused for members whose email is in its verified domains; the owner keeps it). A changed issuer is discovered again, changed metadata parsed again. Replacing `domains` keeps the verification of the domains kept.',
        params: oneParams,
        body: patchBody,
        response: { 200: dataOf(connectionOut), ...conflictResponse },
      },
    },
    async (request) => {
      const saved = await svc.patchConnection(ctx, resourceOf(request, 'ssoConnection'), request.body);
      const [data] = await shape(request, [saved]);
      return { data: data! };
    },
  );

  app.delete(
    `${base}/:connectionId`,
    { config: one, schema: { tags, params: oneParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await svc.deleteConnection(ctx, resourceOf(request, 'ssoConnection'));
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/:connectionId/domains/:domain/verify`,
    {
      config: one,
      schema: {
        tags,
        description:
          'Looks up the TXT record `_parley-verification.{domain}`; when it holds `parley-verification={token}` the domain is verified. 400 says what was found; 409 when another workspace verified the domain first.',
        params: z.object({ workspaceId: idParam, connectionId: idParam, domain }),
        response: { 200: dataOf(verifiedOut), ...conflictResponse },
      },
    },
    async (request) => ({
      data: await svc.verifyDomain(ctx, resourceOf(request, 'ssoConnection'), request.params.domain),
    }),
  );

  registerSignIn(app, ctx);
};
