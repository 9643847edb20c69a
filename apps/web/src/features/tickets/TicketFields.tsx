import { useTranslation } from 'react-i18next';
import { PRIORITY_WORDS, type TicketPriority } from './types.ts';

/**
 * The fields a new ticket is written with, wherever one is opened (the tickets page, a
 * conversation's side panel): subject, description, priority.
 */
export function TicketFields({ subject }: { subject?: string }) {
  const { t } = useTranslation('tickets');
  return (
    <>
      <label>
        {t('fields.subject')}
        <input name="subject" required maxLength={300} defaultValue={subject} />
      </label>
      <label>
        {t('fields.description')}
        <textarea name="description" rows={3} maxLength={20000} />
      </label>
      <label>
        {t('fields.priority')}
        <select name="priority" defaultValue="medium">
          <WordOptions words={PRIORITY_WORDS} />
        </select>
      </label>
    </>
  );
}

/** What those fields hold, as a new ticket's body: no description when it is left empty. */
export function ticketFieldsOf(f: FormData): {
  subject: string;
  priority: TicketPriority;
  description?: string;
} {
  const description = String(f.get('description') ?? '').trim();
  return {
    subject: String(f.get('subject') ?? '').trim(),
    priority: String(f.get('priority') ?? 'medium') as TicketPriority,
    ...(description && { description }),
  };
}

/** A select's options from a map of values to their words (PRIORITY_WORDS, STATUS_WORDS). */
export function WordOptions({ words }: { words: Record<string, string> }) {
  return (
    <>
      {Object.entries(words).map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </>
  );
}
