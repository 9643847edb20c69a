import type { Notice } from './types.ts';

/**
 * `assistant.tests_failed`: a test run in which tests that passed in the previous run failed
 * (docs/steering.md "Test runs"; docs/notifications.md "Kinds").
 */
export function testsFailedNotice(
  assistant: { id: string; name: string },
  runId: string,
  regressed: Array<{ name: string; reasons: string[] }>,
): Notice {
  const shown = regressed.slice(0, 5).map((r) => `"${r.name}": ${r.reasons[0] ?? 'it failed'}`);
  const more = regressed.length > shown.length ? ` And ${regressed.length - shown.length} more.` : '';
  const n = regressed.length;
  return {
    type: 'assistant.tests_failed',
    title: `${n} ${n === 1 ? 'test' : 'tests'} of ${assistant.name} stopped passing`,
    body:
      `In test run ${runId} of the assistant ${assistant.name} (${assistant.id}), ${n} ${n === 1 ? 'test that passed' : 'tests that passed'} ` +
      `in the run before failed. ${shown.join(' ')}${more} Open the assistant's Tests page to see the replies.`,
  };
}
