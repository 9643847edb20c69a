/**
 * Field rules of the SMS configuration (docs/sms.md "Configuration"), plain code so the dashboard
 * checks a form by the same rules before sending it; sms.ts builds the request schemas from them.
 */
export const MESSAGE_LENGTH = { min: 50, max: 1600, default: 1600 } as const;
export const SESSION_TIMEOUT = { min: 1, max: 1440, default: 30 } as const;
export const ACCOUNT_SID = /^AC[A-Za-z0-9]{32}$/;
/** An auth token: printable characters without spaces, 32 to 256 of them. */
export const AUTH_TOKEN = { min: 32, max: 256, chars: /^[\x21-\x7e]+$/ } as const;
