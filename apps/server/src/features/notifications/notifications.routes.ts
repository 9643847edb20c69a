import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import { dataOf, idParam, iso, isoOrNull } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { cursorPage, cursorQuery } from '../../http/pagination.ts';
import type { NotificationRow } from './notifications.repo.ts';
import * as service from './notifications.service.ts';
import { NOTICE_KINDS } from './templates/types.ts';

const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  body: z.string(),
  workspaceId: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});

const toNotification = (n: NotificationRow): z.infer<typeof notificationSchema> => ({
  id: n.id,
  type: n.type,
  title: n.title,
  body: n.body,
  workspaceId: n.workspaceId,
  readAt: isoOrNull(n.readAt),
  createdAt: iso(n.createdAt),
});

const channels = z.object({ inApp: z.boolean(), email: z.boolean() });
const preferencesSchema = z.object(
  Object.fromEntries(NOTICE_KINDS.map((k) => [k, channels])) as Record<
    (typeof NOTICE_KINDS)[number],
    typeof channels
  >,
);
const preferencesPatch = z.strictObject(
  Object.fromEntries(
    NOTICE_KINDS.map((k) => [
      k,
      z.strictObject({ inApp: z.boolean().optional(), email: z.boolean().optional() }).optional(),
    ]),
  ),
);

/** docs/notifications.md: a user's own in-app notifications and preferences, on the session surface. */
export const notificationsRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/notifications/unread',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        response: { 200: dataOf(z.object({ unread: z.number().int() })) },
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
