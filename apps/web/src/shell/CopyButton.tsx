import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Copies `text` to the clipboard and says so (invite links, API keys, webhook secrets, the widget
 * snippet). Where the clipboard is unavailable (an http origin other than localhost), it says to
 * copy by hand, the text being shown beside it.
 */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" onClick={copy}>
        {label ?? t('copy.copy')}
      </button>
      <span role="status" className="muted">
        {state === 'copied' ? t('copy.copied') : state === 'failed' ? t('copy.failed') : ''}
      </span>
    </span>
  );
}
