import { z } from 'zod';
import { idParam } from './envelope.ts';
import { labelRef } from './labels.ts';
import { offsetQuery } from './pagination.ts';
import { phoneField } from './phone-fields.ts';

/** Request and response shapes of contacts (docs/contacts-and-tickets.md "Endpoints"). */

export const emailField = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Must be a valid email address' }));

const name = z.string().trim().min(1).max(200);
const fieldKey = z.string().min(1).max(64);
const fieldValue = z.string().trim().max(2000);
const MAX_FIELDS = 50;
const tooMany = { message: `At most ${MAX_FIELDS} custom fields` };

export const createContactBody = z.strictObject({
  name: name.optional(),
  email: emailField.optional(),
  phone: phoneField.optional(),
  customFields: z
    .record(fieldKey, fieldValue)
    .refine((r) => Object.keys(r).length <= MAX_FIELDS, tooMany)
    .optional(),
});

/** null clears a field; a custom field set to null is removed, the others are kept (JSON merge patch). */
export const updateContactBody = z.strictObject({
  name: name.nullable().optional(),
  email: emailField.nullable().optional(),
  phone: phoneField.nullable().optional(),
  customFields: z
    .record(fieldKey, fieldValue.nullable())
    .refine((r) => Object.keys(r).length <= MAX_FIELDS, tooMany)
    .optional(),
});

export const contactListQuery = offsetQuery
  .extend({
    email: z.string().trim().min(1).max(254).optional(),
    phone: phoneField.optional(),
    q: z.string().trim().min(1).max(200).optional(),
    labelId: idParam.optional().describe('Only contacts with this label'),
  })
  .strict();

export const contactSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  customFields: z.record(z.string(), z.unknown()),
  source: z.string(),
  labels: z.array(labelRef).describe('Its labels (docs/labels.md)'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
