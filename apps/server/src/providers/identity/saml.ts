import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { XMLParser } from 'fast-xml-parser';
import { IdentityError } from './errors.ts';

/**
 * SAML 2.0 through `@node-saml/node-saml` (docs/sso.md "Signing in"): SP-initiated by HTTP-Redirect,
 * the response by HTTP-POST. The library checks the signature (the response's or the
 * assertion's, against the IdP's certificates), the audience, the times and `InResponseTo` (in
 * `requests`, a store shared by every instance); this file adds what it leaves out: the
 * assertion's id, its Recipient and the response's Destination against our ACS URL.
 */

export type IdpMetadata = { entityId: string; ssoUrl: string; certs: string[] };

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  isArray: (name) =>
    [
      'EntityDescriptor',
      'IDPSSODescriptor',
      'KeyDescriptor',
      'SingleSignOnService',
      'X509Certificate',
    ].includes(name),
  processEntities: false,
});

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
type Node = Record<string, unknown>;

/** The IdP's entity id, redirect-binding SSO URL and signing certificates, or the reason in words. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch {
    throw new IdentityError('The metadata is not XML');
  }
  const entities = asArray(
    (doc.EntitiesDescriptor as Node | undefined)?.EntityDescriptor ?? doc.EntityDescriptor,
  ) as Node[];
  const entity = entities.find((e) => asArray(e.IDPSSODescriptor).length > 0);
  if (!entity) throw new IdentityError('The metadata holds no IDPSSODescriptor');
  const entityId = entity['@entityID'];
  if (typeof entityId !== 'string' || !entityId) throw new IdentityError('The metadata names no entityID');
  const idp = asArray(entity.IDPSSODescriptor)[0] as Node;
  const sso = (asArray(idp.SingleSignOnService) as Node[]).find((s) => s['@Binding'] === REDIRECT);
  const ssoUrl = sso?.['@Location'];
  if (typeof ssoUrl !== 'string' || !/^https?:\/\//.test(ssoUrl)) {
    throw new IdentityError('The metadata has no SingleSignOnService with the HTTP-Redirect binding');
  }
  const certs = (asArray(idp.KeyDescriptor) as Node[])
    .filter((k) => k['@use'] === undefined || k['@use'] === 'signing')
    .flatMap((k) => asArray(((k.KeyInfo as Node | undefined)?.X509Data as Node | undefined)?.X509Certificate))
    .map((c) => String(typeof c === 'object' && c !== null ? (c as Node)['#text'] : c).replace(/\s+/g, ''))
    .filter((c) => c.length > 0);
  if (certs.length === 0) throw new IdentityError('The metadata has no signing certificate');
  return { entityId, ssoUrl, certs };
}

export type ServiceProvider = { entityId: string; acsUrl: string };

/** Clock skew allowed on the assertion's times (docs/sso.md: 3 minutes). */
const SKEW_MS = 180_000;

function saml(idp: IdpMetadata, sp: ServiceProvider, requests: CacheProvider): SAML {
  return new SAML({
    entryPoint: idp.ssoUrl,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    idpIssuer: idp.entityId,
    idpCert: idp.certs,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: 10 * 60_000,
    cacheProvider: requests,
    disableRequestedAuthnContext: true,
  });
}

/** The IdP's SSO URL with `SAMLRequest` (and `RelayState`); the request id is saved in `requests`. */
export async function authnRequestUrl(
  idp: IdpMetadata,
  sp: ServiceProvider,
  requests: CacheProvider,
  relayState: string,
): Promise<string> {
  return saml(idp, sp, requests).getAuthorizeUrlAsync(relayState, undefined, {});
}

export type SamlIdentity = {
  email: string | undefined;
  name: string | undefined;
  assertionId: string;
  notOnOrAfter: Date;
};

/** Validates an HTTP-POST response; any failure is an IdentityError. */
export async function validateResponse(
  idp: IdpMetadata,
  sp: ServiceProvider,
  requests: CacheProvider,
  samlResponse: string,
): Promise<SamlIdentity> {
  let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
  try {
    ({ profile } = await saml(idp, sp, requests).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw new IdentityError(`SAML response refused: ${err instanceof Error ? err.message : 'invalid'}`, {
      cause: err,
    });
  }
  if (!profile) throw new IdentityError('SAML response carried no assertion');
  const assertionXml = profile.getAssertionXml?.();
  const responseXml = profile.getSamlResponseXml?.();
  if (!assertionXml || !responseXml) throw new IdentityError('SAML response carried no assertion');
  const assertion = (parser.parse(assertionXml) as Node).Assertion as Node | undefined;
  const response = (parser.parse(responseXml) as Node).Response as Node | undefined;
  const assertionId = assertion?.['@ID'];
  if (typeof assertionId !== 'string' || !assertionId) throw new IdentityError('The assertion has no ID');
  const destination = response?.['@Destination'];
  if (destination !== undefined && destination !== sp.acsUrl) throw new IdentityError('Wrong Destination');
  const confirmation = ((assertion?.Subject as Node | undefined)?.SubjectConfirmation as Node | undefined)
    ?.SubjectConfirmationData as Node | undefined;
  if (confirmation?.['@Recipient'] !== undefined && confirmation['@Recipient'] !== sp.acsUrl) {
    throw new IdentityError('Wrong Recipient');
  }
  const until =
    (confirmation?.['@NotOnOrAfter'] as string | undefined) ??
    ((assertion?.Conditions as Node | undefined)?.['@NotOnOrAfter'] as string | undefined);
  const notOnOrAfter = until ? new Date(until) : new Date(Date.now() + 10 * 60_000);
  const isEmailFormat = /emailAddress$/.test(profile.nameIDFormat ?? '');
  const attrEmail = profile.email ?? profile.mail ?? profile['urn:oid:0.9.2342.19200300.100.1.3'];
  const email = isEmailFormat ? profile.nameID : typeof attrEmail === 'string' ? attrEmail : undefined;
  const name = typeof profile.displayName === 'string' ? profile.displayName : undefined;
  return {
    email,
    name,
    assertionId,
    notOnOrAfter: Number.isNaN(notOnOrAfter.getTime()) ? new Date() : notOnOrAfter,
  };
}

/** The service provider's metadata XML (public, for the IdP's administrator). */
export function serviceProviderMetadata(
  idp: IdpMetadata,
  sp: ServiceProvider,
  requests: CacheProvider,
): string {
  return saml(idp, sp, requests).generateServiceProviderMetadata(null, null);
}
