import { z } from 'zod';
import { idParam } from './envelope.ts';

/** Request and response shapes of labels (docs/labels.md). */

/** A workspace holds at most this many labels (the 201st is a 400 naming the limit). */
export const MAX_LABELS = 200;

const name = z.string().trim().min(1).max(50);
const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'A color is #rrggbb')
  .transform((c) => c.toLowerCase());
const description = z.string().trim().max(200);

export const createLabelBody = z.strictObject({ name, color, description: description.optional() });
export const updateLabelBody = z.strictObject({
  name: name.optional(),
  color: color.optional(),
  description: description.optional(),
});

/** `PUT .../labels`: the whole set, replacing the one before (at most every label of the workspace). */
export const labelSetBody = z.strictObject({
  labelIds: z.array(idParam).max(MAX_LABELS),
});

export const labelSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A label as a conversation or a contact carries it. */
export const labelRef = z.object({ id: z.string(), name: z.string(), color: z.string() });
