import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, get, type OffsetPage } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { type Canned, cannedPath } from '../canned/types.ts';
import { inboxPath } from './types.ts';
import '../canned/canned.css';

/** The `/query` being typed at the caret: `/` at the start of the text or after whitespace. */
type Token = { start: number; end: number; query: string };

export function tokenAt(text: string, caret: number): Token | null {
  let start = caret;
  while (start > 0 && !/\s/.test(text[start - 1] ?? '')) start--;
  if (text[start] !== '/') return null;
  return { start, end: caret, query: text.slice(start + 1, caret) };
}

/** The most the API gives in one page; a workspace with more is searched on the server. */
const ALL = 100;

/**
 * The canned responses matching `query`. The first 100 are read once, when the picker first opens,
 * and filtered here as the agent types: no request per key, so the list follows the keys at once.
 * A workspace with more than 100 asks the server with `?q=` instead (the same rule: shortcut or
 * title, any case).
 */
function useMatches(ws: string, query: string, enabled: boolean) {
  const first = useQuery({
    queryKey: ['canned', ws, 'picker'],
    queryFn: () => get<OffsetPage<Canned>>(`${cannedPath(ws)}?limit=${ALL}`),
    enabled,
    staleTime: 30_000,
  });
  const many = (first.data?.total ?? 0) > ALL;
  const searched = useQuery({
    queryKey: ['canned', ws, 'picker', query],
    queryFn: () => get<OffsetPage<Canned>>(`${cannedPath(ws)}?limit=${ALL}&q=${encodeURIComponent(query)}`),
    enabled: enabled && many,
    placeholderData: keepPreviousData,
  });
  const q = query.toLowerCase();
  const local = (first.data?.data ?? []).filter(
    (c) => c.shortcut.includes(q) || c.title.toLowerCase().includes(q),
  );
  const found = many ? (searched.data?.data ?? []) : local;
  // Shortcuts that start with what was typed first, each group in the API's order (by shortcut).
  const matches = [...found].sort(
    (a, b) => Number(!a.shortcut.startsWith(q)) - Number(!b.shortcut.startsWith(q)),
  );
  return { matches, loading: first.isPending || (many && searched.isPending), error: first.error };
}

/**
 * The reply's textarea with the `/` picker (docs/dashboard.md "Inbox"): `/` at the start or after
 * a space opens a list of the workspace's canned responses filtered by what follows it. ArrowDown
 * and ArrowUp move, Enter or a click picks, Escape closes and leaves the text. Picking reads the
 * response rendered for this conversation (docs/canned-responses.md "Endpoints") and puts it in
 * place of the `/query`, to edit before sending. A combobox in the ARIA sense: the textarea keeps
 * the focus and names the active option with aria-activedescendant.
 */
export function CannedPicker(props: {
  id: string;
  /** The id of the textarea's label, which names the combobox too. */
  labelId: string;
  ws: string;
  conversationId: string;
  text: string;
  setText(text: string): void;
  /** Keys the picker does not take (the reply box's Ctrl+Enter). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): void;
}) {
  const { id, labelId, ws, conversationId, text, setText } = props;
  const { t } = useTranslation('inbox');
  const area = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  // Escape closes the list for this `/`; a `/` elsewhere opens it again.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState(-1);
  const token = caret === null ? null : tokenAt(text, caret);
  const open = token !== null && dismissed !== token.start;
  const { matches, loading, error } = useMatches(ws, token?.query ?? '', open);
  // Expanded while options are shown (a "no match" line is no listbox).
  const listed = open && matches.length > 0;
  const listId = `${id}-canned`;
  const optionId = (i: number) => `${listId}-${i}`;
  const query = token?.query;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts with no option active.
  useEffect(() => setActive(-1), [query, open]);
  const closed = token === null;
  useEffect(() => {
    if (closed) setDismissed(null);
  }, [closed]);
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  });

  // Where the caret goes once the picked text is in the box (after it).
  const caretAfter = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = caretAfter.current;
    if (at === null || !area.current) return;
    caretAfter.current = null;
    area.current.setSelectionRange(at, at);
    area.current.focus();
    setCaret(at);
    // A picked text whose last word starts with `/` (a path) opens no list.
    const after = tokenAt(text, at);
    if (after) setDismissed(after.start);
  }, [text]);
  const latest = useRef(text);
  latest.current = text;

  const pick = useMutation({
    mutationFn: async ({ canned }: { canned: Canned; token: Token }) =>
      get<Data<Canned>>(`${inboxPath}/${conversationId}/canned-responses/${canned.id}?workspaceId=${ws}`),
    onSuccess: (res, { token: t }) => {
      const now = latest.current;
      const typed = now.slice(t.start, t.end) === `/${t.query}`;
      // The `/query` is replaced; had it changed meanwhile, the text goes at the end instead.
      const [before, after] = typed ? [now.slice(0, t.start), now.slice(t.end)] : [now, ''];
      const content = res.data.content;
      caretAfter.current = before.length + content.length;
      setText(before + content + after);
    },
  });
  const choose = (i: number) => {
    const canned = matches[i];
    if (!canned || !token) return;
    setDismissed(token.start);
    pick.mutate({ canned, token });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open && matches.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((a) =>
          a < 0 && step < 0 ? matches.length - 1 : (a + step + matches.length) % matches.length,
        );
        return;
      }
      if (e.key === 'Enter' && active >= 0) {
        // Picks the option: no new line, and never the reply's submit.
        e.preventDefault();
        choose(active);
        return;
      }
    }
    if (open && e.key === 'Escape' && token) {
      e.preventDefault();
      setDismissed(token.start);
      return;
    }
    props.onKeyDown(e);
  };
  const track = () => setCaret(area.current?.selectionStart ?? null);

  return (
    <div className="canned-box">
      {/* The combobox is the box around the textarea and its list (ARIA 1.1's pattern): a
          textarea may not take the combobox role itself (ARIA in HTML), so it stays a textbox,
          tied to the list by aria-controls and aria-activedescendant. */}
      {/* biome-ignore lint/a11y/useFocusableInteractive: the textarea inside takes the focus. */}
      <div
        className="canned-anchor"
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={listed}
        aria-controls={listed ? listId : undefined}
        aria-labelledby={labelId}
      >
        <textarea
          ref={area}
          id={id}
          value={text}
          rows={3}
          maxLength={8000}
          aria-autocomplete="list"
          aria-controls={listed ? listId : undefined}
          aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
          }}
          onSelect={track}
          onClick={track}
          onBlur={() => setCaret(null)}
          onFocus={track}
          onKeyDown={onKeyDown}
        />
        {open && (
          // Clicks in the list keep the focus, and so the caret, in the textarea.
          // biome-ignore lint/a11y/noStaticElementInteractions: only stops the textarea losing focus.
          <div className="canned-popup" onMouseDown={(e) => e.preventDefault()}>
            {listed && (
              <div id={listId} role="listbox" aria-label={t('canned.list')} className="canned-options">
                {matches.map((c, i) => (
                  // The options take no focus: the textarea keeps it and points at the active one
                  // (aria-activedescendant), and its keys choose; a click picks too.
                  // biome-ignore lint/a11y/useFocusableInteractive: see above.
                  // biome-ignore lint/a11y/useKeyWithClickEvents: see above.
                  <div
                    key={c.id}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === active}
                    onClick={() => choose(i)}
                  >
                    <strong>/{c.shortcut}</strong> <span className="muted">{c.title}</span>
                  </div>
                ))}
              </div>
            )}
            <p className="muted" role="status">
              {loading
                ? t('canned.loading')
                : matches.length > 0
                  ? t('canned.found', { count: matches.length })
                  : token?.query
                    ? t('canned.noMatch', { query: token.query })
                    : t('canned.none')}
            </p>
            <ErrorText error={error} />
          </div>
        )}
      </div>
      <p id={`${id}-hint`} className="muted">
        {t('canned.hint')}
      </p>
      {pick.isPending && (
        <p className="muted" role="status">
          {t('canned.filling')}
        </p>
      )}
      <ErrorText error={pick.error} />
    </div>
  );
}
