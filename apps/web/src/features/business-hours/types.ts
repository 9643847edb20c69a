import type { businessHoursSchema, Weekday } from '@parley/contract/business-hours';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, get } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';

/** Business hours as the API answers them (docs/business-hours.md "Fields"; the schema type-only). */
export type BusinessHours = z.output<typeof businessHoursSchema>;
export type Range = { open: string; close: string };
export type Week = Record<Weekday, Range[]>;

/** The editable form of the setting: what a PUT sends. */
export type Draft = { timezone: string; week: Week; holidays: string[]; outsideHoursMessage: string };

/** The week from Monday; each day's name is in the business-hours catalog (`days.<key>`). */
export const DAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export const hoursPath = (ws: string) => `/api/workspaces/${ws}/business-hours`;

export function useBusinessHours(ws: string) {
  return useQuery({
    queryKey: ['business-hours', ws],
    queryFn: () => get<{ data: BusinessHours | null }>(hoursPath(ws)),
    enabled: Boolean(ws),
  });
}

/** PUT the whole setting, or null for always open (docs/business-hours.md "Endpoints"). */
export const putHours = (ws: string, body: Draft | null) =>
  api<{ data: BusinessHours | null }>('PUT', hoursPath(ws), body);

/** A first week to start from: Monday to Friday, 09:00 to 17:00, with a message in the user's language. */
export function defaultDraft(timezone: string): Draft {
  const day = () => [{ open: '09:00', close: '17:00' }];
  return {
    timezone,
    week: { mon: day(), tue: day(), wed: day(), thu: day(), fri: day(), sat: [], sun: [] },
    holidays: [],
    outsideHoursMessage: i18n.t('business-hours:defaultMessage'),
  };
}

export const draftOf = (h: BusinessHours): Draft => ({
  timezone: h.timezone,
  week: h.week,
  holidays: h.holidays,
  outsideHoursMessage: h.outsideHoursMessage,
});
