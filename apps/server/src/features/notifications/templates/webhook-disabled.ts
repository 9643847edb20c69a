import type { Notice } from './types.ts';

/** `webhook.disabled` (docs/webhooks.md "Auto-disable"). */
export function webhookDisabledNotice(
  webhook: { id: string; url: string },
  failures: number,
  windowDays: number,
): Notice {
  return {
    type: 'webhook.disabled',
    title: 'A webhook was disabled',
    body:
      `The webhook ${webhook.id} (${webhook.url}) failed more than ${failures} times in a row ` +
      `within ${windowDays} days and has been turned off. Fix the receiver, then set it active again.`,
  };
}
