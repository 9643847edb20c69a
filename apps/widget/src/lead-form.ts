import type { WidgetConfig } from './api.ts';
import { h } from './dom.ts';

/**
 * docs/widget.md "Leads and feedback": these three are top-level fields; any other configured key is a custom
 * field.
 */
const STANDARD: Record<string, string> = { name: 'Name', email: 'Email', phone: 'Phone' };
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
  submit: (body: Record<string, unknown>) => Promise<LeadResult>,
  skip: () => void,
): HTMLFormElement {
  const fields = (config.leadFormFields ?? []).filter((f) => typeof f === 'string' && f);
  const required = new Set(config.leadFormRequiredFields ?? []);
  const form = h('form', { class: 'card', novalidate: true, 'aria-labelledby': 'parley-lead-t' });
  form.append(
    h('h3', { id: 'parley-lead-t' }, 'Leave your details'),
    h('p', { class: 'note' }, "So we can follow up if we can't solve this right away."),
  );
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
    const label = h('label', { for: id }, `${labelOf(field)}${required.has(field) ? ' *' : ''}`);
    form.append(h('div', { class: 'f' }, label, input, error));
    inputs.set(field, { input, error });
  }
  const status = h('p', { class: 'err', role: 'alert' });
  const send = h('button', { type: 'submit', class: 'btn' }, 'Send');
  const later = h('button', { type: 'button', class: 'btn ghost' }, 'Not now');
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
      if (!value && required.has(field)) errors[field] = `Please enter your ${labelOf(field).toLowerCase()}.`;
      else if (value && field === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
        errors[field] = 'Please enter a valid email address.';
      }
    }
    show(errors);
    status.textContent = '';
    if (Object.keys(errors).length) return;
    const body: Record<string, unknown> = {};
    const customFields: Record<string, string> = {};
    for (const [field, value] of Object.entries(values)) {
      if (field in STANDARD) body[field] = value;
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
function labelOf(field: string): string {
  if (STANDARD[field]) return STANDARD[field];
  const words = field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
