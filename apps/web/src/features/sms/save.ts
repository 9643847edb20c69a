import { ApiError, api, type Data, get, patch, post } from '../../api.ts';
import {
  compactNumber,
  type Draft,
  type FormAConfig,
  type FormACreate,
  type FormAPatch,
  type FormBConfig,
  type FormBPut,
  formAPath,
  formBPath,
  SESSION_TIMEOUT,
  type SmsConfig,
} from './types.ts';

/** Both forms of the configuration; null when the assistant has none yet (the API's 404). */
export async function loadConfig(ws: string, id: string): Promise<SmsConfig | null> {
  let a: Data<FormAConfig>;
  try {
    a = await get<Data<FormAConfig>>(formAPath(id));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.code.startsWith('not_found')) return null;
    throw err;
  }
  // Form B only once Form A has found one: "none yet" costs one 404, not two.
  const b = await get<Data<FormBConfig>>(formBPath(ws, id));
  return { a: a.data, b: b.data };
}

/**
 * Writes the form through both forms of the API (docs/dashboard.md "SMS"): Form A creates or
 * patches the credentials, the number and the message options; Form B's PUT, which replaces its
 * fields together with the credentials, only when the session timeout changed. Then reads back.
 */
export async function write(
  ws: string,
  id: string,
  d: Draft,
  saved: SmsConfig | null,
): Promise<SmsConfig | null> {
  const sid = d.accountSid.trim();
  const token = d.authToken.trim();
  const number = compactNumber(d.phoneNumber);
  const options = {
    isEnabled: d.isEnabled,
    maxMessageLength: Number(d.maxMessageLength),
    enableContactMatching: d.enableContactMatching,
    autoCreateContacts: d.autoCreateContacts,
  };
  if (!saved) {
    const body: FormACreate = {
      providerAccountSid: sid,
      providerAuthToken: token,
      providerPhoneNumber: number,
      ...options,
    };
    await post<Data<FormAConfig>>(formAPath(id), body);
  } else {
    const body: FormAPatch = { ...options };
    if (sid !== saved.a.providerAccountSid) body.providerAccountSid = sid;
    if (number !== saved.a.providerPhoneNumber) body.providerPhoneNumber = number;
    if (token) body.providerAuthToken = token;
    await patch<Data<FormAConfig>>(formAPath(id), body);
  }
  const timeout = Number(d.sessionTimeoutMinutes);
  if (timeout !== (saved?.b.sessionTimeoutMinutes ?? SESSION_TIMEOUT.default)) {
    const body: FormBPut = {
      enabled: d.isEnabled,
      providerAccountSid: sid,
      providerAuthToken: token,
      phoneNumber: number,
      sessionTimeoutMinutes: timeout,
    };
    await api<Data<FormBConfig>>('PUT', formBPath(ws, id), body);
  }
  return loadConfig(ws, id);
}
