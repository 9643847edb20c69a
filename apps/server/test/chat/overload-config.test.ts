import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

/** The overload settings' defaults (docs/configuration.md "Overload"), as the server reads them. */
describe('overload settings', () => {
  it('holds chats to 5 ms on PostgreSQL and 15 on PGlite unless CHAT_START_TARGET_MS says', () => {
    // PGlite's statements take turns in one lane with a turn of the loop between them: a chat waits
    // for the others' statements as it starts (docs/configuration.md "Overload").
    const target = (env: Record<string, string>) =>
      loadConfig({ ENCRYPTION_KEY: 'ab'.repeat(32), ...env }).admission.targetStartMs;
    expect(target({})).toBe(15);
    expect(target({ DATABASE_URL: '' })).toBe(15);
    expect(target({ DATABASE_URL: 'postgres://db.example/parley' })).toBe(5);
    expect(target({ CHAT_START_TARGET_MS: '7' })).toBe(7);
    expect(target({ DATABASE_URL: 'postgres://db.example/parley', CHAT_START_TARGET_MS: '0' })).toBe(0);
  });
});
