import type { Notice } from './types.ts';

/** `trial.ended`: the workspace moved to Free (docs/billing.md "Plan lifecycle"). */
export function trialEndedNotice(ws: { name: string }): Notice {
  return {
    type: 'trial.ended',
    title: `${ws.name}: the Pro trial has ended`,
    body:
      `The Pro trial of ${ws.name} has ended and the workspace is now on the Free plan: 50 AI credits a ` +
      'month, and the messaging channels are off. Upgrade at any time to get Pro back at once.',
  };
}
