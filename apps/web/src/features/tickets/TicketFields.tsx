import { PRIORITY_WORDS, type TicketPriority } from './types.ts';

/**
 * The fields a new ticket is written with, wherever one is opened (the tickets page, a
 * conversation's side panel): subject, description, priority.
 */
export function TicketFields({ subject }: { subject?: string }) {
  return (
    <>
      <label>
        Subject
        <input name="subject" required maxLength={300} defaultValue={subject} />
      </label>
      <label>
        Description
        <textarea name="description" rows={3} maxLength={20000} />
      </label>
      <label>
        Priority
        <select name="priority" defaultValue="medium">
          {Object.entries(PRIORITY_WORDS).map(([p, words]) => (
            <option key={p} value={p}>
              {words}
            </option>
          ))}
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
