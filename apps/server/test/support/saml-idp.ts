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
 * times, the assertion's id, the signing key. A browser sent to `ssoUrl` (the redirect binding)
 * gets the page a real IdP shows after its login: a form that posts the answer to the ACS URL by
 * itself (HTTP-POST binding), signed for `loginAs`, or a failed status when `loginAs` is unset.
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

/** Text content of an element: a hostile email must arrive as the IdP's text, not as markup. */
const xmlText = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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
  /** Who a browser at `ssoUrl` signs in as (undefined: the IdP answers with a failed status). */
  loginAs: string | undefined;
  /** The AuthnRequests browsers brought to `ssoUrl`, oldest first. */
  browserRequests: AuthnRequest[];
  readRequest(redirectUrl: string): AuthnRequest;
  response(opts: ResponseOptions): string;
  close(): Promise<void>;
};

const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTTP-POST binding as a browser runs it: a form that submits itself to the ACS URL. */
function autoPostPage(acsUrl: string, samlResponse: string, relayState: string | null): string {
  const relay =
    relayState === null ? '' : `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title></head>
<body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">${relay}
<noscript><button type="submit">Continue</button></noscript></form></body></html>`;
}

/**
 * `host`: the name in the IdP's URLs (it listens on 127.0.0.1 whatever the name); a browser test
 * passes `localhost` so that the IdP is another site than the app at 127.0.0.1, as in real life.
 */
export async function startSamlIdp(opts: { host?: string } = {}): Promise<TestSamlIdp> {
  const keys = rsaKeyPair();
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/metadata') {
      res.setHeader('content-type', 'application/samlmetadata+xml');
      res.end(idp.metadataXml);
      return;
    }
    if (path === '/sso' && req.method === 'GET') {
      const request = idp.readRequest(`${origin}${req.url}`);
      idp.browserRequests.push(request);
      const answer = idp.loginAs ? idp.response({ request, email: idp.loginAs }) : failedResponse(request);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(autoPostPage(request.acsUrl, answer, request.relayState));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://${opts.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
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
    loginAs: undefined,
    browserRequests: [],
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
      const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(12).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${recipient}" InResponseTo="${o.request.id}"><saml:Issuer>${entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${entityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlText(o.email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${o.request.id}" NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${recipient}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${o.audience ?? o.request.issuer}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomBytes(6).toString('hex')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement></saml:Assertion></samlp:Response>`;
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
  /** What an IdP answers when it signs no one in: a status without an assertion. */
  const failedResponse = (request: AuthnRequest) =>
    Buffer.from(
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(12).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${request.acsUrl}" InResponseTo="${request.id}"><saml:Issuer>${entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode></samlp:Status></samlp:Response>`,
      'utf8',
    ).toString('base64');
  return idp;
}
