import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversations,
  messages,
  smsInbound,
  smsOutbound,
  smsSessions,
  ssoConnections,
  ssoDomains,
} from '../../src/db/schema/index.ts';
import * as conversationsRepo from '../../src/features/conversations/conversations.repo.ts';
import * as sms from '../../src/features/sms/sms.repo.ts';
import * as sso from '../../src/features/sso/sso.repo.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';

/**
 * The second pass of the tenant rule (tenant-repos.test.ts is the first): the repository
 * functions that were scoped with it, run against a real database holding two workspaces. Given
 * workspace B and the ids of A's rows, each reads nothing of A and changes nothing of A; given A, the same
 * call finds or changes the row (so the refusal is the workspace's, not a wrong id's).
 */
let t: TestApp;
let w: World;
type Seeded = {
  ws: string;
  assistantId: string;
  conversationId: string;
  messageId: string;
  sessionId: string;
  connectionId: string;
};
let a: Seeded;
const phone = '+15550001111';
const since = new Date(Date.now() - 86_400_000);

async function seed(ws: string, owner: World['owner'], tag: string): Promise<Seeded> {
  const assistantId = await createAssistant(t, owner, ws);
  const db = t.ctx.db;
  const conversationId = `cnv_rows_${tag}`;
  const messageId = `msg_rows_${tag}`;
  const sessionId = `sms_rows_${tag}`;
  const connectionId = `sso_rows_${tag}`;
  const at = new Date();
  await db.insert(conversations).values({ id: conversationId, workspaceId: ws, assistantId, channel: 'sms' });
  await db.insert(messages).values([
    { id: messageId, workspaceId: ws, conversationId, role: 'agent', content: 'hello', createdAt: at },
    { id: `${messageId}_in`, workspaceId: ws, conversationId, role: 'user', content: 'hi', createdAt: at },
  ]);
  await db
    .insert(smsSessions)
    .values({ id: sessionId, workspaceId: ws, assistantId, conversationId, phoneNumber: phone });
  await db.insert(smsInbound).values({
    id: `smi_rows_${tag}`,
    workspaceId: ws,
    assistantId,
    conversationId,
    providerSid: `SM${tag}`,
    fromNumber: phone,
    toNumber: '+15550002222',
    body: 'hi',
    publicBase: 'https://parley.test',
  });
  await db.insert(smsOutbound).values({
    messageId,
    workspaceId: ws,
    assistantId,
    toNumber: phone,
    body: 'hello',
    statusCallback: 'https://parley.test/cb',
  });
  await db.insert(ssoConnections).values({ id: connectionId, workspaceId: ws, type: 'oidc', name: tag });
  await db
    .insert(ssoDomains)
    .values({ connectionId, workspaceId: ws, domain: `${tag}.example.com`, token: 'tok' });
  return { ws, assistantId, conversationId, messageId, sessionId, connectionId };
}

const session = async (id: string) =>
  (await t.ctx.db.select().from(smsSessions).where(eq(smsSessions.id, id)))[0]!;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  a = await seed(w.ws, w.owner, 'a');
  await seed(w.otherWs, w.outsider, 'b');
});
afterAll(() => t?.close());

describe('SMS repository functions stay inside the workspace they are given', () => {
  it('reads: session, counts per day, session counts, last inbound, delivery', async () => {
    const b = w.otherWs;
    const db = t.ctx.db;
    expect(await sms.activeSession(db, { workspaceId: b, id: a.assistantId }, phone)).toBeUndefined();
    expect((await sms.activeSession(db, { workspaceId: a.ws, id: a.assistantId }, phone))?.id).toBe(
      a.sessionId,
    );
    expect(await sms.messageCountsByDay(db, { workspaceId: b, id: a.assistantId }, since)).toEqual([]);
    expect(await sms.messageCountsByDay(db, { workspaceId: a.ws, id: a.assistantId }, since)).toHaveLength(1);
    expect(await sms.sessionCounts(db, { workspaceId: b, id: a.assistantId }, since, new Date())).toEqual({
      uniqueContacts: 0,
      activeSessions: 0,
    });
    expect(
      (await sms.sessionCounts(db, { workspaceId: a.ws, id: a.assistantId }, since, new Date()))
        .uniqueContacts,
    ).toBe(1);
    expect(await sms.lastInboundOf(db, b, a.conversationId)).toBeUndefined();
    expect((await sms.lastInboundOf(db, a.ws, a.conversationId))?.fromNumber).toBe(phone);
    expect((await conversationsRepo.deliveriesOf(db, b, [a.messageId])).size).toBe(0);
    expect((await conversationsRepo.deliveriesOf(db, a.ws, [a.messageId])).size).toBe(1);
  });

  it('writes: session counts and ending change nothing of another workspace', async () => {
    const b = w.otherWs;
    const db = t.ctx.db;
    const before = await session(a.sessionId);
    await sms.countSessionMessage(db, { workspaceId: b, id: a.sessionId }, new Date());
    await sms.countSessionReply(db, b, a.conversationId, new Date());
    expect(await sms.endSession(db, { workspaceId: b, id: a.sessionId }, new Date())).toBe(false);
    expect(await session(a.sessionId)).toEqual(before);
    await sms.countSessionMessage(db, { workspaceId: a.ws, id: a.sessionId }, new Date());
    await sms.countSessionReply(db, a.ws, a.conversationId, new Date());
    expect((await session(a.sessionId)).messageCount).toBe(before.messageCount + 2);
    expect(await sms.endSession(db, { workspaceId: a.ws, id: a.sessionId }, new Date())).toBe(true);
  });
});

describe('SSO domain queries stay inside the workspace they are given', () => {
  it('lists, verifies and deletes domains only of the given workspace', async () => {
    const b = w.otherWs;
    const db = t.ctx.db;
    const domain = 'a.example.com';
    expect(await sso.domainsOf(db, b, [a.connectionId])).toEqual([]);
    await sso.markVerified(db, b, a.connectionId, domain, new Date());
    await sso.deleteDomainsExcept(db, b, a.connectionId, []);
    const [still] = await sso.domainsOf(db, a.ws, [a.connectionId]);
    expect(still).toMatchObject({ domain, verifiedAt: null });
    await sso.markVerified(db, a.ws, a.connectionId, domain, new Date());
    expect((await sso.domainsOf(db, a.ws, [a.connectionId]))[0]?.verifiedAt).toBeInstanceOf(Date);
    await sso.deleteDomainsExcept(db, a.ws, a.connectionId, []);
    expect(await sso.domainsOf(db, a.ws, [a.connectionId])).toEqual([]);
  });
});

describe('the chat resource loads inside the workspace', () => {
  it('finds a chat only with its own workspace', async () => {
    const db = t.ctx.db;
    const chatId = 'cnv_rows_chat';
    await db.insert(conversations).values({
      id: chatId,
      workspaceId: a.ws,
      assistantId: a.assistantId,
      channel: 'chat',
      startedBy: w.owner.id,
    });
    expect(await conversationsRepo.findChatOf(db, w.otherWs, w.owner.id, chatId)).toBeUndefined();
    expect((await conversationsRepo.findChatOf(db, a.ws, w.owner.id, chatId))?.id).toBe(chatId);
    expect((await conversationsRepo.locateChatOf(db, w.owner.id, chatId))?.workspaceId).toBe(a.ws);
  });
});
