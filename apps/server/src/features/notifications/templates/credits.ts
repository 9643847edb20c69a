import { day, type Notice } from './types.ts';

/** `credits.warning` and `credits.exhausted` (docs/credits.md "Alerts"). */
export function creditsNotice(
  level: 80 | 100,
  ws: { name: string },
  used: number,
  limit: number,
  resetsAt: Date,
): Notice {
  if (level === 80) {
    return {
      type: 'credits.warning',
      title: `${ws.name}: 80% of this month's AI credits used`,
      body:
        `The workspace ${ws.name} has used ${used} of its ${limit} monthly AI credits. ` +
        `Credits reset on ${day(resetsAt)} (UTC) without rollover; upgrade the plan for more.`,
    };
  }
  return {
    type: 'credits.exhausted',
    title: `${ws.name}: monthly AI credits used up`,
    body:
      `The workspace ${ws.name} has used all ${limit} of its monthly AI credits. AI replies are paused ` +
      `until the reset on ${day(resetsAt)} (UTC) or an upgrade. Conversations and data are untouched.`,
  };
}
