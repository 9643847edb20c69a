import type { SourceType } from '@parley/contract/api-types';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Choices, ErrorText } from '../../shell/ui.tsx';
import { FileUpload } from './FileUpload.tsx';
import { SpreadsheetForm, StoreForm } from './LiveForms.tsx';
import { useAddSource } from './mutations.ts';
import { WebsiteForm } from './WebsiteForm.tsx';

type Kind = SourceType;

/** The kinds in the order the form offers them; their names and hints are in the catalog. */
const KINDS: readonly Kind[] = ['qa', 'file', 'website', 'text', 'spreadsheet', 'store'];

/** Add knowledge of any kind the API accepts: Q&A, files, websites, text, spreadsheets, stores. */
export function AddSource({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('knowledge');
  const [kind, setKind] = useState<Kind>('qa');
  return (
    <section className="card stack add-source" aria-labelledby="add-title">
      <h2 id="add-title">{t('add.title')}</h2>
      <fieldset className="kinds">
        <legend className="sr-only">{t('add.kind')}</legend>
        <Choices
          name="kind"
          value={kind}
          options={KINDS.map((k) => ({ value: k, label: t(`add.kinds.${k}.label`) }))}
          onChange={setKind}
        />
      </fieldset>
      <p className="muted hint">{t(`add.kinds.${kind}.hint`)}</p>
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
  const { t } = useTranslation('knowledge');
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
    <form onSubmit={onSubmit} className="stack" aria-label={t('qa.form')}>
      <label>
        {t('add.nameOptional')}
        <input name="name" maxLength={200} />
      </label>
      {pairs.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pairs have no id until saved; order is stable
        <fieldset key={i} className="pair">
          <legend>{t('qa.pair', { n: i + 1 })}</legend>
          <label>
            {t('qa.question')}
            <input value={p.question} onChange={(e) => setPair(i, 'question', e.target.value)} required />
          </label>
          <label>
            {t('qa.answer')}
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
        {t('qa.another')}
      </button>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        {t('add.submit')}
      </button>
    </form>
  );
}

function TextForm({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('knowledge');
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
    <form onSubmit={onSubmit} className="stack" aria-label={t('text.form')}>
      <label>
        {t('add.name')}
        <input name="name" maxLength={200} required />
      </label>
      <label>
        {t('text.text')}
        <textarea name="text" rows={8} required />
      </label>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        {t('add.submit')}
      </button>
    </form>
  );
}
