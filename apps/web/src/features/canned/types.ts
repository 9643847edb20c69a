import { CANNED_VARIABLES, type cannedResponseSchema } from '@parley/contract/canned-responses';
import type { z } from 'zod';

/** Canned responses as the API answers them (docs/canned-responses.md "Fields"; the schema type-only). */
export type Canned = z.output<typeof cannedResponseSchema>;

export const cannedPath = (ws: string) => `/api/workspaces/${ws}/canned-responses`;

/** The variables a response may use, as they are typed: `{{contact.name}}`, … */
export const VARIABLE_WORDS = CANNED_VARIABLES.map((v) => `{{${v}}}`).join(', ');
