import { z } from 'zod';
import { normalizeDomainEntry } from './hostnames.ts';
import { LANGUAGES } from './languages.ts';
import { en } from './widget-strings/en.ts';
import { placeholdersOf, WIDGET_STRING_KEYS, type WidgetStringKey } from './widget-strings/keys.ts';

/** The widget configuration an owner or admin manages (docs/widget.md "Embedding and configuration"). */

export const SESSION_TIMEOUT_MINUTES = { min: 1, max: 1440 } as const;

const fieldKey = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'A field key: a letter, then letters, digits or _ (at most 64)');

const uniqueKeys = z
  .array(fieldKey)
  .max(20)
  .refine((keys) => new Set(keys).size === keys.length, 'Each field may appear once');

/**
 * Hostnames or wildcards, normalised (lowercase, punycode; an origin or URL keeps its host) and
 * de-duplicated. A refusal names the entry in words: the dashboard shows it at the field.
 */
const allowedDomains = z
  .array(z.string().max(260))
  .max(100)
  .transform((entries, ctx) => {
    const out: string[] = [];
    entries.forEach((entry, i) => {
      const normalized = normalizeDomainEntry(entry);
      if (!normalized) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `“${entry.trim().slice(0, 80)}” is not a website address: write its hostname, such as shop.example.com (a full address such as https://shop.example.com/help works too), *.example.com for every subdomain, or * for every site`,
        });
      } else if (!out.includes(normalized)) out.push(normalized);
    });
    return out;
  });

/** The longest override text (characters). */
export const WIDGET_STRING_MAX = 500;

/**
 * The owner's own text for some of the widget's strings, per language (docs/languages.md
 * "Widget"): `{[language]: {[key]: text}}`. A language not supported or a key not in
 * WIDGET_STRING_KEYS is refused with its path; a text may use only the placeholders of its key
 * (`{name}` in `openChat`), so nothing it shows is left unfilled.
 */
export const widgetStringOverrides = z
  .record(z.string().max(20), z.record(z.string().max(40), z.string().trim().min(1).max(WIDGET_STRING_MAX)))
  .superRefine((value, ctx) => {
    for (const [language, texts] of Object.entries(value)) {
      if (!(LANGUAGES as readonly string[]).includes(language)) {
        ctx.addIssue({
          code: 'custom',
          path: [language],
          message: `Not a supported language: use one of ${LANGUAGES.join(', ')}`,
        });
        continue;
      }
      for (const [key, text] of Object.entries(texts)) {
        if (!(WIDGET_STRING_KEYS as readonly string[]).includes(key)) {
          ctx.addIssue({
            code: 'custom',
            path: [language, key],
            message: 'Not a key of the widget’s strings (docs/languages.md "Widget")',
          });
          continue;
        }
        const allowed = placeholdersOf(en[key as WidgetStringKey]);
        const stray = placeholdersOf(text).filter((p) => !allowed.includes(p));
        if (stray.length > 0) {
          ctx.addIssue({
            code: 'custom',
            path: [language, key],
            message: `Unknown placeholder {${stray[0]}}: this text may use ${allowed.length ? allowed.map((p) => `{${p}}`).join(', ') : 'none'}`,
          });
        }
      }
    }
  })
  // Languages left empty are dropped: an empty set of overrides is the same as none.
  .transform((value) =>
    Object.fromEntries(Object.entries(value).filter(([, texts]) => Object.keys(texts).length > 0)),
  );

export const widgetConfigPatch = z.strictObject({
  isEnabled: z.boolean().optional(),
  primaryColor: z
    .string()
    .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'A hex colour such as #4f46e5')
    .transform((c) => c.toLowerCase())
    .optional(),
  position: z.enum(['bottom-right', 'bottom-left']).optional(),
  welcomeMessage: z.string().trim().max(2000).nullable().optional(),
  allowedDomains: allowedDomains.optional(),
  leadFormEnabled: z.boolean().optional(),
  leadFormFields: uniqueKeys.optional(),
  leadFormRequiredFields: uniqueKeys.optional(),
  sessionTimeoutMinutes: z
    .number()
    .int()
    .min(SESSION_TIMEOUT_MINUTES.min)
    .max(SESSION_TIMEOUT_MINUTES.max)
    .optional(),
  /** Replaces all overrides at once; `{}` removes them. */
  strings: widgetStringOverrides.optional(),
});

export type WidgetConfigPatchInput = z.infer<typeof widgetConfigPatch>;

export const widgetSettings = z.object({
  assistantId: z.string(),
  isEnabled: z.boolean(),
  primaryColor: z.string(),
  position: z.enum(['bottom-right', 'bottom-left']),
  welcomeMessage: z.string().nullable(),
  allowedDomains: z.array(z.string()),
  leadFormEnabled: z.boolean(),
  leadFormFields: z.array(z.string()),
  leadFormRequiredFields: z.array(z.string()),
  sessionTimeoutMinutes: z.number().int(),
  /** The owner's overrides of the widget's strings, per language (docs/languages.md "Widget"). */
  strings: z.record(z.string(), z.record(z.string(), z.string())),
  /** The tag a site pastes into its pages (docs/widget.md "Embedding and configuration"). */
  embedSnippet: z.string(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
