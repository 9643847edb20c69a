import type { Feature } from '../../http/feature.ts';
import { webhooksFormARoutes } from './webhooks.form-a.routes.ts';
import { webhooksFormBRoutes } from './webhooks.form-b.routes.ts';

/** Both webhook families over one service (docs/api.md "Form A and Form B"). */
export const webhooksFeature: Feature = async (app, ctx) => {
  await webhooksFormARoutes(app, ctx);
  await webhooksFormBRoutes(app, ctx);
};
