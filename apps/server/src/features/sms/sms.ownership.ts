import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';
import type { Lookup, ProviderClient } from './provider.ts';

/**
 * A number is saved only when the provider confirms that the account holds it (docs/sms.md
 * "Proof of ownership"; docs/decisions/0026-sms-number-ownership.md): otherwise any workspace
 * could claim a number that is not on its account, and its real owner would get a 409.
 */

/** The provider's REST client for this app (SMS_PROVIDER_API_BASE): built once by bootstrap.ts. */
export const provider = (ctx: AppContext): ProviderClient => ctx.smsProvider;

export type Credentials = { accountSid: string; authToken: string; phoneNumber: string };

/** The request's own field names, so that a refusal names the fields the caller sent. */
export type FieldNames = Record<keyof Credentials, string>;
export const FORM_A_FIELDS: FieldNames = {
  accountSid: 'providerAccountSid',
  authToken: 'providerAuthToken',
  phoneNumber: 'providerPhoneNumber',
};
export const FORM_B_FIELDS: FieldNames = { ...FORM_A_FIELDS, phoneNumber: 'phoneNumber' };

/** The same question the test endpoint asks: does this account hold this number? */
export const lookUp = (ctx: AppContext, c: Credentials): Promise<Lookup> =>
  provider(ctx).lookupNumber({ accountSid: c.accountSid, authToken: c.authToken }, c.phoneNumber);

/** A save's refusal in words: the message, `_` for the whole form, and the fields at fault. */
function refusal(found: Lookup, c: Credentials, names: FieldNames) {
  if (found.failure === 'credentials') {
    const why = 'The SMS provider rejected these credentials (account SID and auth token); nothing was saved';
    return badRequest(why, {
      _: why,
      [names.accountSid]: 'The provider rejected this account SID with this auth token',
      [names.authToken]: 'The provider rejected this auth token for this account SID',
    });
  }
  if (found.failure === 'number') {
    const why = `The provider account ${c.accountSid} does not hold ${c.phoneNumber}: only a number of the account can be connected; nothing was saved`;
    return badRequest(why, {
      _: why,
      [names.phoneNumber]: `Not a number of the provider account ${c.accountSid}`,
    });
  }
  // Unreachable, 5xx, 429: the project has no 502-like code (http/errors.ts), so a 400 in words.
  const why = `${found.reason ?? 'The SMS provider did not answer'}, so the number could not be confirmed; nothing was saved. Try again shortly`;
  return badRequest(why, { _: why });
}

/**
 * Throws 400 `bad_request:api` unless the provider confirms that these credentials hold this
 * number. Called after validation and before the 409 checks (docs/sms.md "Proof of ownership").
 */
export async function requireHeld(ctx: AppContext, c: Credentials, names: FieldNames): Promise<void> {
  const found = await lookUp(ctx, c);
  if (!found.valid) throw refusal(found, c, names);
}
