import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../shell/ui.tsx';
import { FILE_ACCEPT, formatBytes, UPLOAD_LIMIT_BYTES } from './types.ts';
import { uploadFile } from './upload.ts';

type Item = {
  file: File;
  state: 'too-big' | 'waiting' | 'uploading' | 'added' | 'failed';
  error?: unknown;
};

/**
 * Upload files as knowledge (`POST .../sources/files`, one request a file). Several can be
 * chosen at once; a file over the limit is refused here before anything is sent, and each
 * server refusal (400 wrong type, 413 too big) is shown in words beside its file.
 */
export function FileUpload({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('knowledge');
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [busy, setBusy] = useState(false);
  const ready = items.filter((i) => i.state === 'waiting');

  const choose = (files: FileList | null) =>
    setItems(
      Array.from(files ?? [], (file) => ({
        file,
        state: file.size > UPLOAD_LIMIT_BYTES ? 'too-big' : 'waiting',
      })),
    );

  const set = (file: File, patch: Partial<Item>) =>
    setItems((old) => old.map((i) => (i.file === file ? { ...i, ...patch } : i)));

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    // One after another: the server takes one file a request, and its worker queues them anyway.
    for (const { file } of ready) {
      set(file, { state: 'uploading' });
      try {
        await uploadFile(assistantId, file);
        set(file, { state: 'added' });
      } catch (error) {
        set(file, { state: 'failed', error });
      }
      await qc.invalidateQueries({ queryKey: ['sources', assistantId] });
    }
    setBusy(false);
    if (input.current) input.current.value = '';
  };

  return (
    <form onSubmit={onSubmit} className="stack" aria-label={t('files.form')}>
      <label>
        {t('files.choose')}
        <input
          ref={input}
          type="file"
          name="files"
          multiple
          accept={FILE_ACCEPT}
          aria-describedby="file-rules"
          onChange={(e) => choose(e.target.files)}
          disabled={busy}
        />
      </label>
      <p id="file-rules" className="muted hint">
        {t('files.rules', { limit: formatBytes(UPLOAD_LIMIT_BYTES) })}
      </p>
      {items.length > 0 && (
        <ul className="uploads" aria-label={t('files.chosen')}>
          {items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two chosen files may share a name
            <li key={i}>
              <span className="upload-name">{item.file.name}</span>{' '}
              <span className="muted">{formatBytes(item.file.size)}</span> <UploadState item={item} />
            </li>
          ))}
        </ul>
      )}
      <button type="submit" className="primary" disabled={busy || ready.length === 0}>
        {busy
          ? t('files.uploading')
          : ready.length > 1
            ? t('files.uploadMany', { count: ready.length })
            : t('files.upload')}
      </button>
    </form>
  );
}

function UploadState({ item }: { item: Item }) {
  const { t } = useTranslation('knowledge');
  switch (item.state) {
    case 'too-big':
      return (
        <ErrorText
          error={t('files.tooBig', {
            size: formatBytes(item.file.size),
            limit: formatBytes(UPLOAD_LIMIT_BYTES),
          })}
        />
      );
    case 'failed':
      return <ErrorText error={item.error} />;
    case 'uploading':
      return <span className="muted">{t('files.states.uploading')}</span>;
    case 'added':
      return <span className="ok">{t('files.states.added')}</span>;
    default:
      return <span className="muted">{t('files.states.waiting')}</span>;
  }
}
