import type { WidgetConfig } from './api.ts';
import { h } from './dom.ts';
import type { Say } from './strings.ts';

/**
 * docs/widget.md "Leads and feedback": these three are top-level fields (their labels and
 * required-field messages are among the widget's strings); any other configured key is a custom
 * field, labelled from its key.
 */
const STANDARD = {
  name: ['leadName', 'nameRequired'],
  email: ['leadEmail', 'emailRequired'],
  phone: ['leadPhone', 'phoneRequired'],
} as const;
type Standard = keyof typeof STANDARD;
const standard = (field: string): field is Standard => Object.hasOwn(STANDARD, field);
const TYPES: Record<string, string> = { email: 'email', phone: 'tel' };
const AUTOCOMPLETE: Record<string, string> = { name: 'name', email: 'email', phone: 'tel' };

export type LeadResult = { ok: true } | { ok: false; fieldErrors?: Record<string, string>; message?: string };

/**
 * The lead form card (docs/widget-script.md: lead form when enabled). Required fields are checked here
 * too, with a message per field tied to its input (`aria-describedby`, `aria-invalid`), and focus
 * goes to the first field in error. `submit` gets the API's lead body.
 */
export function buildLeadForm(
  config: WidgetConfig,
  t: Say,
  submit: (body: Record<string, unknown>) => Promise<LeadResult>,
  skip: () => void,
): HTMLFormElement {
  const fields = (config.leadFormFields ?? []).filter((f) => typeof f === 'string' && f);
  const required = new Set(config.leadFormRequiredFields ?? []);
  const form = h('form', { class: 'card', novalidate: true, 'aria-labelledby': 'parley-lead-t' });
  form.append(h('h3', { id: 'parley-lead-t' }, t('leadTitle')), h('p', { class: 'note' }, t('leadIntro')));
  const inputs = new Map<string, { input: HTMLInputElement; error: HTMLSpanElement }>();
  for (const field of fields) {
    const id = `parley-lead-${field}`;
    const input = h('input', {
      id,
      name: field,
      type: TYPES[field] ?? 'text',
      autocomplete: AUTOCOMPLETE[field] ?? 'off',
      maxlength: '200',
      // The server takes phone numbers in E.164 (docs/widget.md "Leads and feedback").
      placeholder: field === 'phone' ? '+14155550100' : undefined,
      required: required.has(field),
      'aria-required': required.has(field) ? 'true' : undefined,
      'aria-describedby': `${id}-e`,
    });
    const error = h('span', { class: 'err', id: `${id}-e` });
    const label = h('label', { for: id }, `${labelOf(field, t)}${required.has(field) ? ' *' : ''}`);
    form.append(h('div', { class: 'f' }, label, input, error));
    inputs.set(field, { input, error });
  }
  const status = h('p', { class: 'err', role: 'alert' });
  const send = h('button', { type: 'submit', class: 'btn' }, t('leadSend'));
  const later = h('button', { type: 'button', class: 'btn ghost' }, t('leadLater'));
  later.addEventListener('click', skip);
  form.append(status, h('div', { class: 'row' }, send, later));

  const show = (errors: Record<string, string>) => {
    let first: HTMLInputElement | undefined;
    for (const [field, { input, error }] of inputs) {
      const message = errors[field] ?? '';
      error.textContent = message;
      input.setAttribute('aria-invalid', message ? 'true' : 'false');
      if (message && !first) first = input;
    }
    first?.focus();
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values: Record<string, string> = {};
    const errors: Record<string, string> = {};
    for (const [field, { input }] of inputs) {
      const value = input.value.trim();
      if (value) values[field] = value;
      if (!value && required.has(field)) {
        errors[field] = standard(field)
          ? t(STANDARD[field][1])
          : t('fieldRequired', { field: labelOf(field, t) });
      } else if (value && field === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
        errors[field] = t('emailInvalid');
      }
    }
    show(errors);
    status.textContent = '';
    if (Object.keys(errors).length) return;
    const body: Record<string, unknown> = {};
    const customFields: Record<string, string> = {};
    for (const [field, value] of Object.entries(values)) {
      if (standard(field)) body[field] = value;
      else customFields[field] = value;
    }
    if (Object.keys(customFields).length) body.customFields = customFields;
    send.disabled = true;
    const result = await submit(body);
    send.disabled = false;
    if (result.ok) return;
    if (result.fieldErrors) show(result.fieldErrors);
    status.textContent = result.message ?? '';
  });
  return form;
}

/** `companyName` / `company_name` → "Company name". */
function labelOf(field: string, t: Say): string {
  if (standard(field)) return t(STANDARD[field][0]);
  const words = field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
