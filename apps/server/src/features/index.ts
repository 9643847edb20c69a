import type { Feature } from '../app.ts';
import { assistantsFormARoutes } from './assistants/assistants.form-a.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { workspacesFeature } from './workspaces/workspaces.routes.ts';

/** Every feature's routes, registered in this order by app.ts. */
export const features: Feature[] = [authRoutes, assistantsFormARoutes, workspacesFeature];
