import type { Scope } from '@parley/contract/scopes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { type Actor, can, type Permission, type PlanFeature, planHas, type Tenant } from './actor.ts';
import { validationError } from './error-handler.ts';
import { AppError, forbidden } from './errors.ts';
import type { Loaded, ResourceKind, ResourceLoader, ResourceLoaders, Resources } from './resources.ts';

/**
 * Where a workspace's standing comes from; the workspaces feature provides it (app.ts), so this
 * file names no feature.
 */
export type TenantDirectory = {
  /** The caller's standing in `workspaceId`: 404 unless a member (an API key: only its own). */
  member(ctx: AppContext, actor: Actor, workspaceId: string): Promise<Tenant>;
  /** `workspaceId` from the query or body, or the caller's only workspace (docs/api.md). */
  fromInput(ctx: AppContext, actor: Actor, workspaceId: string | undefined): Promise<Tenant>;
};

/** A public surface that identifies its own caller (the widget: its assistant, origin and token). */
export type Surface = (
  ctx: AppContext,
  request: FastifyRequest,
) => Promise<{ tenant: Tenant; loaded: Loaded } | undefined>;

export type TenantResolverDeps = {
  directory: TenantDirectory;
  loaders: ResourceLoaders;
  surfaces: { widget: Surface };
};

/**
 * The one tenant resolver. Every route declares what it needs in its config (`auth`,
 * `permission` or `scope`, `planFeature`, `resources`), and this runs, for every surface:
 * authenticate (http/auth.ts, before the body is read) → the workspace, one the caller belongs
 * to (404) → plan feature (403) → role or scope (403) → the addressed resources inside that
 * workspace (404) → validation (400, Fastify's own, after this hook) → handler. Handlers read the
 * results with `tenantOf` and `resourceOf`; their body, query and params are validated and typed.
 *
 * The workspace comes from, in this order: the path's `:workspaceId`; an API key's own workspace;
 * the widget surface; the first resource, located among the caller's workspaces (session paths such
 * as `/api/assistants/:assistantId`, where a resource the caller cannot see, or one outside the
 * `workspaceId` the query or body names, is the 404 before any role check); or, with `workspace: 'input'`, the `workspaceId` of the query or body.
 */
export function registerTenantResolver(app: FastifyInstance, ctx: AppContext, deps: TenantResolverDeps) {
  app.decorateRequest('tenant', null);
  app.decorateRequest('loaded', null);
  app.addHook('preValidation', async (request) => {
    if (idsReadable(deps, request)) await resolve(ctx, deps, request);
  });
  app.addHook('preHandler', async (request) => {
    // A body whose ids were not strings could not be resolved before validation; it is valid now.
    if (request.tenant === null && !idsReadable(deps, request)) await resolve(ctx, deps, request);
    rejectNul(request);
  });
}

/** Where the route's resource ids are: path parameters, or fields of the body or query. */
function idSource(request: FastifyRequest) {
  const from = request.routeOptions.config?.idsFrom;
  const source = from === 'body' ? request.body : from === 'query' ? request.query : request.params;
  return (source && typeof source === 'object' ? source : undefined) as Record<string, unknown> | undefined;
}

/** Ids in the body or query are read before validation only when they are strings (else validation's 400). */
function idsReadable(deps: TenantResolverDeps, request: FastifyRequest): boolean {
  const cfg = request.routeOptions.config;
  if (!cfg?.idsFrom) return true;
  const source = idSource(request);
  return (cfg.resources ?? []).every((kind) => typeof source?.[loaderOf(deps, kind).param] === 'string');
}

async function resolve(ctx: AppContext, deps: TenantResolverDeps, request: FastifyRequest) {
  const cfg = request.routeOptions.config ?? {};
  const kinds = cfg.resources ?? [];
  const loaded: Loaded = {};
  request.loaded = loaded;
  if (cfg.auth === 'widget') {
    const found = await deps.surfaces.widget(ctx, request);
    if (!found) return;
    request.tenant = found.tenant;
    Object.assign(loaded, found.loaded);
    return;
  }
  const actor = request.actor;
  if (!actor) return;
  const ids = idSource(request);
  const workspaceId = (request.params as Record<string, string | undefined> | undefined)?.workspaceId;
  const first = kinds[0] ? loaderOf(deps, kinds[0]) : undefined;
  let tenant: Tenant;
  let rest = kinds;
  if (workspaceId !== undefined) tenant = await deps.directory.member(ctx, actor, workspaceId);
  else if (actor.kind === 'apiKey' && cfg.auth === 'key') {
    tenant = await deps.directory.member(ctx, actor, actor.workspaceId);
  } else if (first?.locate) {
    const found = await first.locate(ctx, actor, idOf(ids, first.param));
    // A resource outside the workspace the request names is missing there: the same 404, before
    // the role in its own workspace could answer 403 (docs/decisions/0018-inbox.md).
    if (!found || !inNamedWorkspace(request, found.tenant.workspaceId)) throw first.notFound();
    tenant = found.tenant;
    setLoaded(loaded, first.kind, found.row);
    rest = kinds.slice(1);
  } else if (cfg.workspace === 'input') {
    tenant = await deps.directory.fromInput(ctx, actor, inputWorkspaceId(request));
  } else return;
  request.tenant = tenant;
  authorize(actor, tenant, cfg);
  for (const kind of rest) {
    const loader = loaderOf(deps, kind);
    const id = idOf(ids, loader.param);
    const row = id ? await loader.load(ctx, { tenant, actor, loaded }, id) : undefined;
    if (row === undefined) throw loader.notFound();
    setLoaded(loaded, kind, row);
  }
}

function loaderOf<K extends ResourceKind>(deps: TenantResolverDeps, kind: K): ResourceLoader<K> {
  const loader = deps.loaders[kind] as ResourceLoader<K> | undefined;
  if (!loader) throw new AppError('internal_server_error:api', `No loader for ${kind}`);
  return loader;
}

const setLoaded = <K extends ResourceKind>(loaded: Loaded, kind: K, row: Resources[K]) => {
  loaded[kind] = row;
};

/** An id of the not-yet-validated input: anything but a string of at most 100 characters names nothing. */
function idOf(source: Record<string, unknown> | undefined, key: string): string {
  const value = source?.[key];
  return typeof value === 'string' && value.length <= 100 ? value : '';
}

/**
 * Whether every `workspaceId` the query or the body gives (any value, not only a string: it names
 * no other workspace only when it is absent) is `workspaceId`, the located resource's own.
 */
function inNamedWorkspace(request: FastifyRequest, workspaceId: string): boolean {
  return [request.query, request.body].every((source) => {
    const named =
      source && typeof source === 'object' ? (source as Record<string, unknown>).workspaceId : undefined;
    return named === undefined || named === workspaceId;
  });
}

/** `workspaceId` of the query (GET) or the body, before validation: a wrong type is validation's 400. */
function inputWorkspaceId(request: FastifyRequest): string | undefined {
  const source = (request.method === 'GET' ? request.query : request.body) as Record<string, unknown> | null;
  const value = source && typeof source === 'object' ? source.workspaceId : undefined;
  return typeof value === 'string' ? value : undefined;
}

export type Requirement = { permission?: Permission; scope?: Scope; planFeature?: PlanFeature };

/** Plan feature, then role (users) or scope (API keys), in the order of docs/api.md. */
export function authorize(actor: Actor, tenant: Tenant, req: Requirement): void {
  if (req.planFeature && !planHas(tenant.plan, req.planFeature)) {
    throw new AppError('plan_upgrade_required', 'Your plan does not include this feature; upgrade to use it');
  }
  if (actor.kind === 'apiKey') {
    if (req.scope && !actor.scopes.includes(req.scope)) {
      throw new AppError('missing_scope', `This API key lacks the ${req.scope} scope`, { scope: req.scope });
    }
    if (!req.scope && req.permission) throw forbidden('API keys cannot do this');
    return;
  }
  if (req.permission && !can(tenant.role, req.permission)) throw forbidden();
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL anywhere in the input is a 400 naming the field, never
 * a 500. Runs after validation.
 */
function rejectNul(request: FastifyRequest): void {
  const nul = findNul(request.body) ?? findNul(request.query) ?? findNul(request.params);
  if (nul !== undefined) {
    throw validationError(request, [{ path: nul, message: 'Must not contain the NUL character' }]);
  }
}

/** The path of the first string (or key) containing U+0000. */
export function findNul(value: unknown, path: string[] = [], depth = 0): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (!value || typeof value !== 'object' || depth > 32) return undefined;
  // Bytes (a raw body: a forwarded email, a file) are not text; walking them as an object made an
  // entry a byte (68 ms of a 300 KB email's acceptance: docs/performance.md "Email intake").
  if (ArrayBuffer.isView(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = key.includes('\u0000') ? [...path, key] : findNul(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The workspace standing the resolver found for this request. */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new AppError('internal_server_error:api', 'Route has no tenant');
  return request.tenant;
}

/** A resource the route declared in `config.resources`, loaded inside the workspace. */
export function resourceOf<K extends ResourceKind>(request: FastifyRequest, kind: K): Resources[K] {
  const row = request.loaded?.[kind];
  if (row === undefined) throw new AppError('internal_server_error:api', `Route did not load ${kind}`);
  return row as Resources[K];
}
