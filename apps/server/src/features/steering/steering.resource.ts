import type { LoadScope } from '../../http/resources.ts';
import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { type AssistantTestRow, type CuratedAnswerRow, findItem, type GuidanceRow } from './steering.repo.ts';
import { findRun, type TestRunRow } from './test-runs.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A guidance rule of the assistant loaded before it (`:guidanceId`). */
    guidance: GuidanceRow;
    /** A curated answer of the assistant loaded before it (`:answerId`). */
    curatedAnswer: CuratedAnswerRow;
    /** A test of the assistant loaded before it (`:testId`). */
    assistantTest: AssistantTestRow;
    /** A test run of the assistant loaded before it (`:runId`). */
    testRun: TestRunRow;
  }
}

/** The assistant the path named first, inside the tenant's workspace. */
const ownerOf = ({ tenant, loaded }: LoadScope) => ({
  workspaceId: tenant.workspaceId,
  assistantId: loaded.assistant?.row.id ?? '',
});

export const guidanceResource = defineResource({
  kind: 'guidance',
  param: 'guidanceId',
  notFound: resourceNotFound('Guidance rule'),
  load: (ctx, scope, id) => findItem(ctx.db, 'guidance', ownerOf(scope), id),
});

export const curatedAnswerResource = defineResource({
  kind: 'curatedAnswer',
  param: 'answerId',
  notFound: resourceNotFound('Curated answer'),
  load: (ctx, scope, id) => findItem(ctx.db, 'answers', ownerOf(scope), id),
});

export const assistantTestResource = defineResource({
  kind: 'assistantTest',
  param: 'testId',
  notFound: resourceNotFound('Test'),
  load: (ctx, scope, id) => findItem(ctx.db, 'tests', ownerOf(scope), id),
});

export const testRunResource = defineResource({
  kind: 'testRun',
  param: 'runId',
  notFound: resourceNotFound('Test run'),
  load: (ctx, scope, id) => findRun(ctx.db, ownerOf(scope), id),
});
