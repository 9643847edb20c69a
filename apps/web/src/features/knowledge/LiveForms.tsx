import { type FormEvent, useState } from 'react';
import { ErrorText } from '../../shell/ui.tsx';
import { useAddSource } from './mutations.ts';

/** A form's field by name, trimmed; undefined when empty (JSON then leaves it out). */
function fields(form: HTMLFormElement) {
  const data = new FormData(form);
  return (name: string) => String(data.get(name) ?? '').trim() || undefined;
}

/** A spreadsheet published as CSV (https), read live by the chat; nothing is indexed. */
export function SpreadsheetForm({ assistantId }: { assistantId: string }) {
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
    <form onSubmit={onSubmit} className="stack" aria-label="Add a spreadsheet">
      <label>
        Name
        <input name="name" maxLength={200} required placeholder="Price list" />
      </label>
      <label>
        Published CSV address
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
        In Google Sheets: File › Share › Publish to web, choose “Comma-separated values (.csv)” and copy the
        link. It must start with https://. The sheet is read when a customer asks, so edits show at once.
      </p>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        Add spreadsheet
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
    <form onSubmit={onSubmit} className="stack" aria-label="Connect a store" autoComplete="off">
      <label>
        Platform
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
        Store address
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
          Admin API access token
          <input name="accessToken" type="password" required maxLength={500} autoComplete="off" />
        </label>
      ) : (
        <>
          <label>
            Consumer key
            <input name="consumerKey" type="password" required maxLength={500} autoComplete="off" />
          </label>
          <label>
            Consumer secret
            <input name="consumerSecret" type="password" required maxLength={500} autoComplete="off" />
          </label>
        </>
      )}
      <label>
        Name (optional)
        <input name="name" maxLength={200} placeholder="The store's host, if left empty" />
      </label>
      <p id="store-hint" className="muted hint">
        {platform === 'shopify'
          ? 'Create a custom app in Shopify admin with read access to products and orders, and paste its Admin API access token.'
          : 'In WooCommerce › Settings › Advanced › REST API, add a key with Read permission.'}{' '}
        Credentials are stored encrypted and are never shown again. Order status is only told to a customer
        whose email matches the order.
      </p>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        Connect store
      </button>
    </form>
  );
}
