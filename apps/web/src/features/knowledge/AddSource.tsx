import type { SourceType } from '@parley/contract/api-types';
import { type FormEvent, useState } from 'react';
import { ErrorText } from '../../shell/ui.tsx';
import { FileUpload } from './FileUpload.tsx';
import { SpreadsheetForm, StoreForm } from './LiveForms.tsx';
import { useAddSource } from './mutations.ts';
import { WebsiteForm } from './WebsiteForm.tsx';

type Kind = SourceType;

const KINDS: Array<{ kind: Kind; label: string; hint: string }> = [
  {
    kind: 'qa',
    label: 'Questions and answers',
    hint: 'Each pair is answered as written: the quickest way to cover what customers ask most.',
  },
  { kind: 'file', label: 'Files', hint: 'Help articles, manuals and FAQs you already have.' },
  { kind: 'website', label: 'Website', hint: 'One page, a sitemap, or a crawl of your site; re-read daily.' },
  { kind: 'text', label: 'Text', hint: 'Paste any text, e.g. your policies.' },
  {
    kind: 'spreadsheet',
    label: 'Spreadsheet',
    hint: 'A sheet published as CSV, read live when a customer asks (prices, stock, opening hours).',
  },
  {
    kind: 'store',
    label: 'Store',
    hint: 'Shopify or WooCommerce: products and order status, read live when a customer asks.',
  },
];

/** Add knowledge of any kind the API accepts: Q&A, files, websites, text, spreadsheets, stores. */
export function AddSource({ assistantId }: { assistantId: string }) {
  const [kind, setKind] = useState<Kind>('qa');
  const hint = KINDS.find((k) => k.kind === kind)?.hint;
  return (
    <section className="card stack add-source" aria-labelledby="add-title">
      <h2 id="add-title">Add knowledge</h2>
      <fieldset className="kinds">
        <legend className="sr-only">Kind of source</legend>
        {KINDS.map((k) => (
          <label key={k.kind} className="check">
            <input type="radio" name="kind" checked={kind === k.kind} onChange={() => setKind(k.kind)} />
            {k.label}
          </label>
        ))}
      </fieldset>
      <p className="muted hint">{hint}</p>
      {kind === 'qa' && <QaForm assistantId={assistantId} />}
      {kind === 'text' && <TextForm assistantId={assistantId} />}
      {kind === 'file' && <FileUpload assistantId={assistantId} />}
      {kind === 'website' && <WebsiteForm assistantId={assistantId} />}
      {kind === 'spreadsheet' && <SpreadsheetForm assistantId={assistantId} />}
      {kind === 'store' && <StoreForm assistantId={assistantId} />}
    </section>
  );
}

type Pair = { question: string; answer: string };

function QaForm({ assistantId }: { assistantId: string }) {
  const add = useAddSource(assistantId);
  const [pairs, setPairs] = useState<Pair[]>([{ question: '', answer: '' }]);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    add.mutate(
      { type: 'qa', ...(name ? { name } : {}), pairs },
      {
        onSuccess: () => {
          form.reset();
          setPairs([{ question: '', answer: '' }]);
        },
      },
    );
  };
  const setPair = (i: number, key: keyof Pair, value: string) =>
    setPairs((old) => old.map((p, j) => (j === i ? { ...p, [key]: value } : p)));
  return (
    <form onSubmit={onSubmit} className="stack" aria-label="Add questions and answers">
      <label>
        Name (optional)
        <input name="name" maxLength={200} />
      </label>
      {pairs.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pairs have no id until saved; order is stable
        <fieldset key={i} className="pair">
          <legend>Pair {i + 1}</legend>
          <label>
            Question
            <input value={p.question} onChange={(e) => setPair(i, 'question', e.target.value)} required />
          </label>
          <label>
            Answer
            <textarea
              value={p.answer}
              rows={3}
              onChange={(e) => setPair(i, 'answer', e.target.value)}
              required
            />
          </label>
        </fieldset>
      ))}
      <button type="button" onClick={() => setPairs((old) => [...old, { question: '', answer: '' }])}>
        Add another pair
      </button>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        Add source
      </button>
    </form>
  );
}

function TextForm({ assistantId }: { assistantId: string }) {
  const add = useAddSource(assistantId);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    add.mutate(
      { type: 'text', name: String(f.get('name') ?? '').trim(), text: String(f.get('text') ?? '') },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <form onSubmit={onSubmit} className="stack" aria-label="Add text">
      <label>
        Name
        <input name="name" maxLength={200} required />
      </label>
      <label>
        Text
        <textarea name="text" rows={8} required />
      </label>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        Add source
      </button>
    </form>
  );
}
