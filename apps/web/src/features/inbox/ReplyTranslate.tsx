import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { languageName } from '../../i18n/format.ts';
import { translatable, useCanTranslate } from './translation.ts';
import type { InboxConversation } from './types.ts';
import './translation.css';

/**
 * The reply box's **Send in <language>** (docs/languages.md "Translation"): offered when the
 * customer's language is one the server translates into and differs from the dashboard's; off
 * until chosen (each translation uses a credit). `body` goes into the reply's request; `control`
 * into the form. Without a remote model the switch is disabled and says why.
 */
export function useReplyTranslate(
  ws: string,
  c: InboxConversation,
): { body: { translateTo?: string }; control: ReactNode } {
  const { t, i18n } = useTranslation('translation');
  const available = useCanTranslate(ws);
  const [on, setOn] = useState(false);
  const hint = useId();
  const customer = translatable(c.language);
  if (!customer || customer === translatable(i18n.language)) return { body: {}, control: null };
  const sending = on && available === true;
  return {
    body: sending ? { translateTo: customer } : {},
    control: (
      <div className="reply-translate">
        <label className="check">
          <input
            type="checkbox"
            checked={sending}
            disabled={available !== true}
            aria-describedby={hint}
            onChange={(e) => setOn(e.target.checked)}
          />
          {t('sendIn', { language: languageName(customer, i18n.language) })}
        </label>
        <span id={hint} className="muted">
          {available === false ? t('needsModel') : t('sendInHint')}
        </span>
      </div>
    ),
  };
}
