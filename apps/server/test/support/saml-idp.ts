import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * A local SAML 2.0 identity provider for the SSO tests: its metadata (served too, for
 * `metadataUrl`), the AuthnRequest read back from the redirect URL Parley builds, and responses
 * whose assertion is signed with `xml-crypto` (RSA-SHA256, exclusive c14n) with a throw-away key
 * pair made by openssl. Every field a refusal test needs can be changed: audience, recipient,
 * times, the assertion's id, the signing key.
 */
export type KeyPair = { key: string; cert: string };

/** A self-signed RSA certificate (xml-crypto signs with RSA; test/support/tls.ts makes EC keys). */
export function rsaKeyPair(cn = 'Parley Test IdP'): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'parley-saml-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
  };
}

const certBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

export type AuthnRequest = { id: string; issuer: string; acsUrl: string; relayState: string | null };

export type ResponseOptions = {
  request: AuthnRequest;
  email: string;
  /** Defaults: the request's issuer, its ACS URL, a fresh id, valid for 5 minutes from now. */
  audience?: string;
  recipient?: string;
  assertionId?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** Sign with another key (a forged response). */
  signWith?: KeyPair;
  /** No signature at all. */
  unsigned?: boolean;
  /** Change the signed XML afterwards (the signature no longer matches). */
  tamper?: (xml: string) => string;
};

export type TestSamlIdp = {
  entityId: string;
  ssoUrl: string;
  metadataUrl: string;
  metadataXml: string;
  keys: KeyPair;
  readRequest(redirectUrl: string): AuthnRequest;
  response(opts: ResponseOptions): string;
  close(): Promise<void>;
};

export async function startSamlIdp(): Promise<TestSamlIdp> {
  const keys = rsaKeyPair();
  const server = createServer((req, res) => {
    if (req.url === '/metadata') {
      res.setHeader('content-type', 'application/samlmetadata+xml');
      res.end(idp.metadataXml);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${origin}/idp`;
  const ssoUrl = `${origin}/sso`;
  const metadataXml = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(keys.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  const idp: TestSamlIdp = {
    entityId,
    ssoUrl,
    metadataUrl: `${origin}/metadata`,
    metadataXml,
    keys,
    readRequest(redirectUrl) {
      const u = new URL(redirectUrl);
      const xml = inflateRawSync(Buffer.from(u.searchParams.get('SAMLRequest') ?? '', 'base64')).toString(
        'utf8',
      );
      const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
      const issuer = /<(?:saml2?:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '';
      return {
        id: attr('ID'),
        issuer,
        acsUrl: attr('AssertionConsumerServiceURL'),
        relayState: u.searchParams.get('RelayState'),
      };
    },
    response(o) {
      const now = new Date();
      const iso = (d: Date) => d.toISOString();
      const notBefore = o.notBefore ?? new Date(now.getTime() - 60_000);
      const notOnOrAfter = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
      const recipient = o.recipient ?? o.request.acsUrl;
      const assertionId = o.assertionId ?? `_a${randomBytes(12).toString('hex')}`;
      const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(12).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${recipient}" InResponseTo="${o.request.id}"><saml:Issuer>${entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${entityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${o.request.id}" NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${recipient}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${o.audience ?? o.request.issuer}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomBytes(6).toString('hex')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement></saml:Assertion></samlp:Response>`;
      let out = xml;
      if (!o.unsigned) {
        const signer = o.signWith ?? keys;
        const sig = new SignedXml({
          privateKey: signer.key,
          publicCert: signer.cert,
          signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
          canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
        });
        sig.addReference({
          xpath: "//*[local-name(.)='Assertion']",
          transforms: [
            'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
            'http://www.w3.org/2001/10/xml-exc-c14n#',
          ],
          digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
        });
        sig.computeSignature(xml, {
          prefix: 'ds',
          location: {
            reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
            action: 'after',
          },
        });
        out = sig.getSignedXml();
      }
      if (o.tamper) out = o.tamper(out);
      return Buffer.from(out, 'utf8').toString('base64');
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  return idp;
}
