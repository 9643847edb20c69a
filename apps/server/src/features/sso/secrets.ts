import type { AppContext } from '../../context.ts';
import { decrypt } from '../../lib/crypto.ts';
import type { ConnectionRow } from './sso.repo.ts';

/** The OIDC client secret, unsealed only when talking to the provider. */
export const clientSecretOf = (ctx: AppContext, row: ConnectionRow) =>
  row.clientSecretSealed ? decrypt(ctx.config.encryptionKey, row.clientSecretSealed) : '';
