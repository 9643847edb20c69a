import { dataOf, idParam } from '@parley/contract/envelope';
import {
  notificationSchema,
  preferencesPatch,
  preferencesSchema,
  unreadSchema,
} from '@parley/contract/notifications';
import { cursorPage, cursorQuery } from '@parley/contract/pagination';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import { iso, isoOrNull } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import type { NotificationRow } from './notifications.repo.ts';
import * as service from './notifications.service.ts';

const toNotification = (n: NotificationRow): z.infer<typeof notificationSchema> => ({
  id: n.id,
  type: n.type,
  title: n.title,
  body: n.body,
  workspaceId: n.workspaceId,
  readAt: isoOrNull(n.readAt),
  createdAt: iso(n.createdAt),
});

/** docs/notifications.md: a user's own in-app notifications and preferences, on the session surface. */
export const notificationsRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/notifications/unread',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        response: { 200: dataOf(unreadSchema) },
      },
    },
    async (request) => ({ data: await service.unreadNotifications(ctx, userIdOf(request)) }),
  );

  app.get(
    '/api/account/notification-preferences',
    {
      config: { auth: 'session' },
      schema: { tags: ['notifications'], response: { 200: dataOf(preferencesSchema) } },
    },
    async (request) => ({ data: await service.getPreferences(ctx, userIdOf(request)) }),
  );

  app.patch(
    '/api/account/notification-preferences',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        body: preferencesPatch,
        response: { 200: dataOf(preferencesSchema) },
      },
    },
    async (request) => ({
      data: await service.updatePreferences(ctx, userIdOf(request), request.body as never),
    }),
  );

  app.get(
    '/api/notifications',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        querystring: cursorQuery.strict(),
        response: { 200: cursorPage(notificationSchema) },
      },
    },
    async (request) => {
      const page = await service.listNotifications(ctx, userIdOf(request), request.query);
      return { ...page, data: page.data.map(toNotification) };
    },
  );

  app.post(
    '/api/notifications/read-all',
    {
      config: { auth: 'session' },
      schema: { tags: ['notifications'], response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await service.readAllNotifications(ctx, userIdOf(request));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/notifications/:notificationId/read',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        params: z.object({ notificationId: idParam }),
        response: { 200: dataOf(notificationSchema) },
      },
    },
    async (request) => {
      const row = await service.readNotification(ctx, userIdOf(request), request.params.notificationId);
      return { data: toNotification(row) };
    },
  );
};
