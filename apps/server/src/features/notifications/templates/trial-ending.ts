import { day, type Notice } from './types.ts';

/** `trial.ending`: three days before a Pro trial ends (docs/billing.md "Plan lifecycle"). */
export function trialEndingNotice(ws: { name: string }, endsAt: Date): Notice {
  return {
    type: 'trial.ending',
    title: `${ws.name}: the Pro trial ends on ${day(endsAt)}`,
    body:
      `The Pro trial of ${ws.name} ends on ${day(endsAt)} (UTC). Without an upgrade the workspace moves ` +
      'to the Free plan: 50 AI credits a month, and the messaging channels turn off. Nothing is deleted.',
  };
}
