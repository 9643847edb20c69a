import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type Data, get, patch } from '../../api.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { type Channels, kindName, type Preferences } from './types.ts';
import './notifications.css';

const PATH = '/api/account/notification-preferences';

/**
 * `/account/notifications` (docs/dashboard.md "Notifications"): each kind on or off, in the app
 * and by email. Each switch saves at once (`PATCH` with that one kind); the page shows the
 * server's answer. A server without the preferences API (404) gets a sentence instead.
 */
export function NotificationPreferences() {
  const { t } = useTranslation('notifications');
  const qc = useQueryClient();
  const prefs = useQuery({
    queryKey: ['notification-preferences'],
    queryFn: async () => {
      try {
        return (await get<Data<Preferences>>(PATH)).data;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    retry: false,
  });
  // What the switches show, set in their own change handler: an update of the query's data comes
  // a task later, and until then React would put the controlled checkbox back for a moment.
  const [shown, setShown] = useState<Preferences | null>(null);
  const save = useMutation({
    mutationFn: (change: Record<string, Partial<Channels>>) => patch<Data<Preferences>>(PATH, change),
    onSuccess: (res) => qc.setQueryData(['notification-preferences'], res.data),
    // The server's answer (or, on failure, what it had) is shown again.
    onSettled: () => setShown(null),
  });
  const view = shown ?? prefs.data;
  const change = (kind: string, channel: keyof Channels, on: boolean) => {
    if (!view) return;
    setShown({ ...view, [kind]: { ...(view as Record<string, Channels>)[kind], [channel]: on } });
    save.mutate({ [kind]: { [channel]: on } });
  };

  return (
    <section className="narrow">
      <h1>{t('settings.title')}</h1>
      <p className="muted">{t('settings.intro')}</p>
      {prefs.isPending && <Loading />}
      <ErrorText error={prefs.error ?? save.error} />
      {prefs.data === null && <p>{t('settings.unavailable')}</p>}
      {view && (
        <table className="prefs">
          <thead>
            <tr>
              <th scope="col">{t('settings.notification')}</th>
              <th scope="col">{t('settings.inApp')}</th>
              <th scope="col">{t('settings.email')}</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(view).map(([kind, c]) => {
              const name = kindName(kind);
              return (
                <tr key={kind}>
                  <th scope="row">{name}</th>
                  {(['inApp', 'email'] as const).map((channel) => (
                    <td key={channel}>
                      <input
                        type="checkbox"
                        aria-label={
                          channel === 'inApp'
                            ? t('settings.switchInApp', { name })
                            : t('settings.switchEmail', { name })
                        }
                        checked={c[channel]}
                        onChange={(e) => change(kind, channel, e.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
