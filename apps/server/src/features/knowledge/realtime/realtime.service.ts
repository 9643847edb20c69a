import type { AppContext } from '../../../context.ts';
import { badRequest } from '../../../http/errors.ts';
import { decrypt } from '../../../lib/crypto.ts';
import { outboundReason } from '../../../lib/outbound/reasons.ts';
import type { SourceRow } from '../sources/sources.repo.ts';
import { matchRows, RealtimeError, readSheet } from './spreadsheet.ts';
import { lookupOrder, type StoreConfig, type StoreSecret, searchProducts } from './store.ts';

export type LookupInput = { query: string; orderNumber?: string; email?: string };

export type LookupResult =
  | { kind: 'spreadsheet'; columns: string[]; rows: Array<Record<string, string>> }
  | {
      kind: 'store';
      products: Awaited<ReturnType<typeof searchProducts>>;
      order: Awaited<ReturnType<typeof lookupOrder>>;
    };

/**
 * Reads a realtime source live (docs/knowledge.md "Realtime sources"): the chat engine's spreadsheet and
 * store tools and the "test this source" endpoint both come through here. Failures are readable errors.
 */
export async function realtimeLookup(
  ctx: AppContext,
  source: SourceRow,
  input: LookupInput,
): Promise<LookupResult> {
  try {
    if (source.type === 'spreadsheet') {
      const sheet = await readSheet(ctx, source.id, String(source.config.url));
      return { kind: 'spreadsheet', columns: sheet.columns, rows: matchRows(sheet, input.query) };
    }
    if (source.type === 'store') {
      const config = source.config as unknown as StoreConfig;
      const secret = JSON.parse(decrypt(ctx.config.encryptionKey, source.secretEnc ?? '')) as StoreSecret;
      const [products, order] = await Promise.all([
        searchProducts(ctx, config, secret, input.query),
        input.orderNumber && input.email
          ? lookupOrder(ctx, config, secret, input.orderNumber, input.email)
          : Promise.resolve(null),
      ]);
      return { kind: 'store', products, order };
    }
  } catch (err) {
    if (err instanceof RealtimeError) throw badRequest(err.message, { source: err.message });
    // A reason a user can act on (lib/outbound/reasons.ts); the raw error to the server log.
    ctx.log.warn({ err, sourceId: source.id }, 'realtime source lookup failed');
    const reason = outboundReason(err);
    throw badRequest(`Could not reach the source: ${reason}`, { source: reason });
  }
  throw badRequest('This source is indexed, not read live; use search instead');
}
