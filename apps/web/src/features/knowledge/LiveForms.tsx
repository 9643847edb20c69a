import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../shell/ui.tsx';
import { useAddSource } from './mutations.ts';

/** A form's field by name, trimmed; undefined when empty (JSON then leaves it out). */
function fields(form: HTMLFormElement) {
  const data = new FormData(form);
  return (name: string) => String(data.get(name) ?? '').trim() || undefined;
}

/** A spreadsheet published as CSV (https), read live by the chat; nothing is indexed. */
export function SpreadsheetForm({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('knowledge');
  const add = useAddSource(assistantId);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const field = fields(form);
    add.mutate(
      { type: 'spreadsheet', name: field('name') ?? '', url: field('url') ?? '' },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <form onSubmit={onSubmit} className="stack" aria-label={t('spreadsheet.form')}>
      <label>
        {t('add.name')}
        <input name="name" maxLength={200} required placeholder={t('spreadsheet.namePlaceholder')} />
      </label>
      <label>
        {t('spreadsheet.url')}
        <input
          name="url"
          type="url"
          required
          maxLength={2000}
          pattern="https://.*"
          placeholder="https://docs.google.com/spreadsheets/d/e/…/pub?output=csv"
          aria-describedby="sheet-hint"
        />
      </label>
      <p id="sheet-hint" className="muted hint">
        {t('spreadsheet.hint')}
      </p>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        {t('spreadsheet.submit')}
      </button>
    </form>
  );
}

/**
 * A Shopify or WooCommerce store, read live for products and order status. The credentials go
 * to the server once: it stores them encrypted and never returns them, so the form clears them
 * and the list shows only the platform and the address.
 */
export function StoreForm({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('knowledge');
  const add = useAddSource(assistantId);
  const [platform, setPlatform] = useState<'shopify' | 'woocommerce'>('shopify');
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const field = fields(form);
    add.mutate(
      {
        type: 'store',
        platform,
        storeUrl: field('storeUrl') ?? '',
        name: field('name'),
        accessToken: field('accessToken'),
        consumerKey: field('consumerKey'),
        consumerSecret: field('consumerSecret'),
      },
      {
        onSuccess: () => {
          form.reset();
          setPlatform('shopify');
        },
      },
    );
  };
  return (
    <form onSubmit={onSubmit} className="stack" aria-label={t('store.form')} autoComplete="off">
      <label>
        {t('store.platform')}
        <select
          value={platform}
          onChange={(e) => setPlatform(e.target.value as 'shopify' | 'woocommerce')}
          aria-describedby="store-hint"
        >
          <option value="shopify">Shopify</option>
          <option value="woocommerce">WooCommerce</option>
        </select>
      </label>
      <label>
        {t('store.url')}
        <input
          name="storeUrl"
          type="url"
          required
          maxLength={2000}
          pattern="https://.*"
          placeholder={
            platform === 'shopify' ? 'https://your-shop.myshopify.com' : 'https://shop.example.com'
          }
        />
      </label>
      {platform === 'shopify' ? (
        <label>
          {t('store.accessToken')}
          <input name="accessToken" type="password" required maxLength={500} autoComplete="off" />
        </label>
      ) : (
        <>
          <label>
            {t('store.consumerKey')}
            <input name="consumerKey" type="password" required maxLength={500} autoComplete="off" />
          </label>
          <label>
            {t('store.consumerSecret')}
            <input name="consumerSecret" type="password" required maxLength={500} autoComplete="off" />
          </label>
        </>
      )}
      <label>
        {t('add.nameOptional')}
        <input name="name" maxLength={200} placeholder={t('store.namePlaceholder')} />
      </label>
      <p id="store-hint" className="muted hint">
        {platform === 'shopify' ? t('store.shopifyHint') : t('store.wooHint')} {t('store.hint')}
      </p>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        {t('store.submit')}
      </button>
    </form>
  );
}
