import { hash, verify } from '@node-rs/argon2';

/** Argon2id with the library's defaults (m=19456, t=2, p=1: OWASP's recommendation). */
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A fixed hash to verify against for unknown emails, so timing does not reveal which emails exist. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('parley-dummy-password');
  await verifyPassword(await dummyHash, password);
}
