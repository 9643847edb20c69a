import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, type Data, get } from '../../api.ts';
import { formatCurrency } from '../../i18n/format.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { dateOf, type Invoice } from './types.ts';

/**
 * The workspace's invoices, newest first, each linking to Stripe's copy (docs/dashboard.md
 * "Billing"; shape in docs/billing.md "Routes"). A server without the invoices route (404) or without Stripe (400
 * `billing_not_configured`) leaves the portal as the place for them, and the card says so.
 */
export function Invoices({ ws }: { ws: string }) {
  const { t } = useTranslation('billing');
  const invoices = useQuery({
    queryKey: ['invoices', ws],
    queryFn: async () => {
      try {
        return (await get<Data<Invoice[]>>(`/api/workspaces/${ws}/billing/invoices`)).data;
      } catch (err) {
        if (err instanceof ApiError && (err.status === 404 || err.code === 'billing_not_configured'))
          return null;
        throw err;
      }
    },
    retry: false,
  });
  return (
    <section className="card" aria-labelledby="invoices-title">
      <h2 id="invoices-title">{t('invoices.title')}</h2>
      {invoices.isPending && <Loading />}
      <ErrorText error={invoices.error} />
      {invoices.data === null && <p className="muted">{t('invoices.elsewhere')}</p>}
      {invoices.data?.length === 0 && <p className="muted">{t('invoices.none')}</p>}
      {invoices.data && invoices.data.length > 0 && (
        <table className="invoices">
          <thead>
            <tr>
              <th scope="col">{t('invoices.date')}</th>
              <th scope="col">{t('invoices.number')}</th>
              <th scope="col">{t('invoices.amount')}</th>
              <th scope="col">{t('invoices.status')}</th>
              <th scope="col">
                <span className="sr-only">{t('invoices.download')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.data.map((inv) => {
              const link = inv.pdfUrl ?? inv.hostedUrl;
              return (
                <tr key={inv.id}>
                  <td>{dateOf(inv.createdAt)}</td>
                  <td>{inv.number ?? inv.id}</td>
                  <td>{money(inv.status === 'paid' ? inv.amountPaid : inv.amountDue, inv.currency)}</td>
                  <td>{inv.status}</td>
                  <td>
                    {link && (
                      <a href={link} target="_blank" rel="noreferrer">
                        {inv.pdfUrl ? t('invoices.download') : t('invoices.view')}
                      </a>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function money(cents: number, currency: string): string {
  try {
    return formatCurrency(cents, currency, { minor: true });
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}
