import type { Notice } from './types.ts';

/** `ingestion.failed`: a knowledge source could not be read (docs/notifications.md "Kinds"). */
export function ingestionFailedNotice(source: { id: string; name: string; error: string | null }): Notice {
  const reason = source.error ? ` The reason given: ${source.error}` : '';
  return {
    type: 'ingestion.failed',
    title: `A knowledge source failed: ${source.name}`,
    body:
      `The knowledge source ${source.name} (${source.id}) could not be read, so the assistant does not ` +
      `answer from it.${reason} Fix the source and sync it again.`,
  };
}
