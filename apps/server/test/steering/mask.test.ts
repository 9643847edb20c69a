import { describe, expect, it } from 'vitest';
import { isPhone, maskText, placeholderOf } from '../../src/features/steering/mask.ts';

/** docs/measuring.md "Suggestions": what a suggestion's question and answer keep, and what they hide. */

describe('email addresses', () => {
  it('are masked, whoever they belong to, with unicode and plus addressing', () => {
    expect(maskText('Write to ada.lovelace+shop@example.co.uk or support@shop.example.com.')).toBe(
      'Write to [email] or [email].',
    );
    expect(maskText('Mail: jörg@müller.de')).toBe('Mail: [email]');
    expect(maskText('The @ sign and user@localhost stay')).toBe('The @ sign and user@localhost stay');
  });
});

describe('phone numbers', () => {
  it('international formats', () => {
    expect(maskText('Call +49 30 1234567 today')).toBe('Call [phone] today');
    expect(maskText('Call +1 (555) 123-4567.')).toBe('Call [phone].');
    expect(maskText('or 0044 20 7946 0958')).toBe('or [phone]');
    expect(maskText('+441632960961')).toBe('[phone]');
  });

  it('local formats', () => {
    expect(maskText('my number is 030 1234567, thanks')).toBe('my number is [phone], thanks');
    expect(maskText('mobile 0171-2345678')).toBe('mobile [phone]');
    expect(maskText('mobile 01712345678')).toBe('mobile [phone]');
    expect(maskText('(555) 123-4567 or 555.123.4567 or 555-123-4567')).toBe('[phone] or [phone] or [phone]');
    expect(maskText('free on 0800 123 456')).toBe('free on [phone]');
  });

  it('leave ordinary numbers: days, prices, years, dates, quantities, plain order numbers, decimals', () => {
    const kept = [
      'Returns are accepted within 30 days.',
      'It costs $1,299.00 or 49.99 EUR, 1 299 kr.',
      'Since 2024, and until 2025-2026.',
      'Delivered on 2024-11-27 or 27.11.2024 or 01.12.2024 or 12/01/2024.',
      'We have 3 sizes: 10, 12 and 14.',
      'Your order 100234567 shipped; tracking 1Z999AA10123456784.',
      'SKU12345678 and version 1.2.3.',
      'Opening hours 9-17, 10 - 14 on Saturdays.',
    ];
    for (const text of kept) expect(maskText(text), text).toBe(text);
  });

  it('isPhone decides on the whole run', () => {
    expect(isPhone('+49 30 1234567')).toBe(true);
    expect(isPhone('123456')).toBe(false);
    expect(isPhone('+1234567890123456')).toBe(false);
    expect(isPhone('1000000')).toBe(false);
  });
});

describe("the contact's own values", () => {
  const contact = {
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    phone: '+4930123456',
    customFields: {
      orderNumber: 'A-10023',
      loyalty_tier: 'Gold',
      vip: true,
      zip: 'N1',
      seat: 42,
      previousOrders: ['B-2001', 'B-2002'],
    },
  };

  it('name, email, phone and custom values of 3 characters or more, each with its placeholder', () => {
    expect(
      maskText(
        'Hi, I am Ada Lovelace (ADA@example.org, +4930123456). Where is order A-10023? I am a Gold member.',
        contact,
      ),
    ).toBe(
      'Hi, I am [name] ([email], [phone]). Where is order [order number]? I am a [loyalty tier] member.',
    );
    expect(maskText('Hello Ada, order a-10023 and B-2002 are on their way.', contact)).toBe(
      'Hello [name], order [order number] and [previous orders] are on their way.',
    );
  });

  it('only whole values: inside a word, short values and booleans stay', () => {
    expect(maskText('Adalbert wrote about XA-100234 in zone N1; vip true', contact)).toBe(
      'Adalbert wrote about XA-100234 in zone N1; vip true',
    );
    expect(maskText('Seat 42 is free', contact)).toBe('Seat 42 is free');
  });

  it('a name part as written: "Will" is masked, the word "will" is not', () => {
    expect(maskText('Will, we will refund it.', { name: 'Will Turner' })).toBe('[name], we will refund it.');
  });

  it('a value that names a placeholder does not mask the placeholder again', () => {
    expect(maskText('x@y.io wrote email', { customFields: { note: 'email' } })).toBe('[email] wrote [note]');
  });

  it('values with regular expression characters are matched literally', () => {
    expect(maskText('Ref (a+b)* and aab', { customFields: { ref: '(a+b)*' } })).toBe('Ref [ref] and aab');
  });

  it('no contact, or an empty one: only the general rules', () => {
    expect(maskText('Ada at ada@example.org', null)).toBe('Ada at [email]');
    expect(maskText('Ada at ada@example.org', { name: null, customFields: {} })).toBe('Ada at [email]');
  });
});

describe('placeholders from field names', () => {
  it('camel case, snake case and punctuation become lower-case words', () => {
    expect(placeholderOf('orderNumber')).toBe('[order number]');
    expect(placeholderOf('order_no.')).toBe('[order no]');
    expect(placeholderOf('Kundennummer')).toBe('[kundennummer]');
    expect(placeholderOf('🙂')).toBe('[field]');
    expect(placeholderOf('x'.repeat(100))).toBe(`[${'x'.repeat(40)}]`);
  });
});
