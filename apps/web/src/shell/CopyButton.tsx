import { useState } from 'react';

/**
 * Copies `text` to the clipboard and says so (invite links, API keys, webhook secrets, the widget
 * snippet). Where the clipboard is unavailable (an http origin other than localhost), it says to
 * copy by hand, the text being shown beside it.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
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
        {label}
      </button>
      <span role="status" className="muted">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}
