import { useEffect, useRef } from 'react';
import { type NavigateFunction, useNavigate } from 'react-router';

/**
 * Keyboard shortcuts (docs/dashboard.md): `?` opens the help sheet; `g` then a letter goes to a
 * page. Off entirely when the user's `keyboardShortcuts` preference is false. Keys typed into a
 * field never trigger anything. `what` is a key of the shell's catalog (apps/web/src/i18n/en/shell.ts).
 */
export const SHORTCUTS = [
  { keys: '?', what: 'help.show' },
  { keys: 'g o', what: 'help.overview' },
  { keys: 'g a', what: 'help.assistants' },
  { keys: 'n', what: 'help.newAssistant' },
  { keys: 'Esc', what: 'help.close' },
] as const;

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

export function useShortcuts(opts: { enabled: boolean; ws: string | undefined; openHelp(): void }) {
  const navigate = useNavigate();
  const pending = useRef<string | null>(null);
  const latest = useRef(opts);
  latest.current = opts;

  useEffect(() => {
    if (!opts.enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      handle(e, latest.current, pending, navigate);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [opts.enabled, navigate]);
}

function handle(
  e: KeyboardEvent,
  opts: { ws: string | undefined; openHelp(): void },
  pending: { current: string | null },
  navigate: NavigateFunction,
) {
  const prefix = pending.current;
  pending.current = null;
  if (e.key === '?') {
    e.preventDefault();
    opts.openHelp();
    return;
  }
  if (!opts.ws) return;
  if (prefix === 'g' && e.key === 'o') navigate(`/w/${opts.ws}`);
  else if (prefix === 'g' && e.key === 'a') navigate(`/w/${opts.ws}/assistants`);
  else if (e.key === 'n') navigate(`/w/${opts.ws}/assistants/new`);
  else if (e.key === 'g') pending.current = 'g';
}
