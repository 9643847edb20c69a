import type { Feature } from '../app.ts';
import { assistantsFormARoutes } from './assistants/assistants.form-a.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { assistantSourcesRoutes } from './knowledge/sources.routes.ts';

/** Every feature's routes, registered in this order by app.ts. */
export const features: Feature[] = [authRoutes, assistantsFormARoutes, assistantSourcesRoutes];
