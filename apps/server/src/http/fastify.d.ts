import 'fastify';
import type { Scope } from '@parley/contract/scopes';
import type { Actor, AuthMode, Permission, PlanFeature, Tenant } from './actor.ts';
import type { Loaded, ResourceKind } from './resources.ts';

declare module 'fastify' {
  /** What a route needs; the tenant resolver (http/tenant.ts) checks it before the handler runs. */
  interface FastifyContextConfig {
    /** Which credentials the route accepts; default 'none' (public). */
    auth?: AuthMode;
    permission?: Permission;
    scope?: Scope;
    planFeature?: PlanFeature;
    /** A path with no workspace in it takes `workspaceId` from the query (GET) or body, or the caller's only one. */
    workspace?: 'input';
    /** The resources the path addresses, loaded in this order inside the workspace (404). */
    resources?: readonly ResourceKind[];
    /** Their ids are fields of the body or query, not path parameters (read before validation when strings). */
    idsFrom?: 'body' | 'query';
    /** Validation failures use the chat surface's code (`bad_request:chat`). */
    chatErrors?: boolean;
    /** The widget's token: required, or optional (init and config); the widget surface only. */
    widgetToken?: 'required' | 'optional';
    /** A chat turn: foreground work until its stream's first event (lib/lanes.ts, http/foreground.ts). */
    foreground?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
    tenant: Tenant | null;
    loaded: Loaded | null;
    /** Ends this request's foreground work (routes with `config.foreground`); else null. */
    endForeground: (() => void) | null;
    /** Marks this chat started: its reply under way, no longer counted by admission (lib/admission.ts). */
    chatStarted: (() => void) | null;
  }
}
