import type { AppContext } from '../context.ts';
import type { Actor, Tenant } from './actor.ts';
import { AppError, notFound } from './errors.ts';

/**
 * What a route may address, kind → the row its handler gets. Each feature adds its kinds with
 * `declare module` next to its loader (e.g. features/assistants/assistants.resource.ts), so this
 * file names no feature.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the features.
export interface Resources {}
export type ResourceKind = keyof Resources;
export type Loaded = { [K in ResourceKind]?: Resources[K] };

/** What a loader gets: the workspace already resolved, the caller, and the resources before it. */
export type LoadScope = { tenant: Tenant; actor: Actor | null; loaded: Loaded };

export type ResourceLoader<K extends ResourceKind = ResourceKind> = {
  kind: K;
  /** The path parameter holding its id (or the body field, on routes with `config.idsFrom: 'body'`). */
  param: string;
  /** Its 404: `not_found:api` naming it, unless the surface has its own code. */
  notFound: () => AppError;
  /** Loads it inside the tenant's workspace (the workspace id is in the query's WHERE); undefined → 404. */
  load(ctx: AppContext, scope: LoadScope, id: string): Promise<Resources[K] | undefined>;
  /**
   * For paths that name no workspace (the session surface's `/api/assistants/:assistantId`):
   * finds it together with the caller's standing in its workspace, in one query filtered by the
   * caller's memberships. undefined when missing or not the caller's (404).
   */
  locate?(
    ctx: AppContext,
    actor: Actor,
    id: string,
  ): Promise<{ tenant: Tenant; row: Resources[K] } | undefined>;
};

/**
 * The loaders, given to the tenant resolver by app.ts (features/index.ts lists them). A kind a
 * surface provides itself (the widget's) has none.
 */
export type ResourceLoaders = { [K in ResourceKind]?: ResourceLoader<K> };

export const resourceNotFound = (what: string) => () => notFound(what);
export const surfaceNotFound = (code: 'not_found:chat' | 'not_found:widget', message: string) => () =>
  new AppError(code, message);

/** A loader's definition, typed by its kind. */
export const defineResource = <K extends ResourceKind>(loader: ResourceLoader<K>) => loader;
