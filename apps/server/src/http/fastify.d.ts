import 'fastify';
import type { Actor, AuthMode, Permission, PlanFeature, Scope, Tenant } from './actor.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which credentials the route accepts; default 'none' (public). */
    auth?: AuthMode;
    permission?: Permission;
    scope?: Scope;
    planFeature?: PlanFeature;
    /** The handler calls assertValid() itself, after its own 404 checks (decisions §2 order). */
    deferValidation?: boolean;
    /** A chat turn: foreground work until its stream's first event (lib/lanes.ts, http/foreground.ts). */
    foreground?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
    tenant: Tenant | null;
    /** Ends this request's foreground work (routes with `config.foreground`); else null. */
    endForeground: (() => void) | null;
  }
}
