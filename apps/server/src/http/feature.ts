import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';

export const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/** The Fastify scope a feature registers its routes on (Zod schemas give the handlers their types). */
export type FeatureApp = ReturnType<typeof typed>;

/** A feature: registers its routes on its own scope (features/index.ts lists them all). */
export type Feature = (app: FeatureApp, ctx: AppContext) => void | Promise<void>;
