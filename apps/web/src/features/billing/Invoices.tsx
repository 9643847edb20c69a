import { useQuery } from '@tanstack/react-query';
import { ApiError, type Data, get } from '../../api.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { dateOf, type Invoice } from './types.ts';

/**
 * The workspace's invoices, newest first, each linking to Stripe's copy (docs/dashboard.md
 * "Billing"; shape in docs/billing.md "Routes"). A server without the invoices route (404) or without Stripe (400
 * `billing_not_configured`) leaves the portal as the place for them, and the card says so.
 */
export function Invoices({ ws }: { ws: string }) {
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
      <h2 id="invoices-title">Invoices</h2>
      {invoices.isPending && <Loading />}
      <ErrorText error={invoices.error} />
      {invoices.data === null && (
        <p className="muted">Invoices are emailed to you and downloadable from "Manage billing".</p>
      )}
      {invoices.data?.length === 0 && <p className="muted">No invoices yet.</p>}
      {invoices.data && invoices.data.length > 0 && (
        <table className="invoices">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Number</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Download</span>
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
                        {inv.pdfUrl ? 'Download' : 'View'}
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
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(
      cents / 100,
    );
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}
