import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PRE_TENANT_LOOKUPS } from '../../src/db/pre-tenant.ts';
import { sourceFiles, srcDir } from '../support/sources.ts';

/**
 * One tenant path (docs/decisions/0011-tenant-resolver.md "The tenant filter in queries"): every
 * exported function of every `*.repo.ts` takes the workspace (a `workspaceId` parameter, or a
 * parameter whose type has a required `workspaceId`: a row, a `SessionRef`, a query object), or is
 * named with its reason in src/db/pre-tenant.ts. Read with the TypeScript compiler's type checker,
 * so a row type imported from the schema counts as it is, not as it is spelled.
 */

/**
 * Billing's functions while billing moved into one feature folder and took the rule on: allowed
 * here until then, and empty since (its Stripe customer lookup is in pre-tenant.ts as
 * 'finds-workspace'). Keyed by file name and function, wherever the file is; an entry that names
 * no function any more is not an error.
 */
const BILLING_TODO = new Set<string>([]);
/** Route files that still read the workspace from the request themselves (billing, as above). */
const ROUTES_TODO = new Set<string>([]);

type Fn = { key: string; params: string[]; takesWorkspace: boolean; returnsWorkspace: boolean };

const repoFiles = sourceFiles().filter((f) => f.endsWith('.repo.ts'));
const fileKey = (file: string) => relative(srcDir, file).split('\\').join('/');

function readRepoFunctions(): Fn[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${srcDir}../tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const program = ts.createProgram(repoFiles, { ...config?.options, noEmit: true });
  const checker = program.getTypeChecker();
  const nonNullable = (t: ts.Type) =>
    t.isUnion() ? t.types.filter((x) => !(x.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null))) : [t];
  /** A required `workspaceId` on the type, on every member of a union, or on an array's elements. */
  const carries = (type: ts.Type, depth = 0): boolean => {
    if (depth > 3) return false;
    const parts = nonNullable(type);
    return (
      parts.length > 0 &&
      parts.every((t) => {
        if (checker.isArrayType(t))
          return carries(checker.getTypeArguments(t as ts.TypeReference)[0]!, depth + 1);
        const prop = t.getProperty('workspaceId');
        return !!prop && !(prop.flags & ts.SymbolFlags.Optional);
      })
    );
  };
  /** The found row carries its workspace, itself or one of its fields (`{ assistant, config }`). */
  const returns = (type: ts.Type): boolean => {
    const awaited = checker.getAwaitedType(type) ?? type;
    return nonNullable(awaited).every((t) => {
      const row = checker.isArrayType(t) ? checker.getTypeArguments(t as ts.TypeReference)[0]! : t;
      if (carries(row)) return true;
      return row.getProperties().some((p) => carries(checker.getTypeOfSymbol(p)));
    });
  };
  return repoFiles.flatMap((file) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`not read: ${file}`);
    return checker.getExportsOfModule(module).flatMap((symbol) => {
      const decl = symbol.valueDeclaration;
      const [signature] = decl ? checker.getTypeOfSymbolAtLocation(symbol, decl).getCallSignatures() : [];
      if (!decl || !signature) return [];
      const params = signature.getParameters();
      return [
        {
          key: `${fileKey(file)}#${symbol.name}`,
          params: params.map((p) => p.name),
          takesWorkspace: params.some(
            (p) => p.name === 'workspaceId' || carries(checker.getTypeOfSymbolAtLocation(p, decl)),
          ),
          returnsWorkspace: returns(signature.getReturnType()),
        },
      ];
    });
  });
}

const billingTodo = (key: string) => BILLING_TODO.has(key.slice(key.lastIndexOf('/') + 1));

describe('every repository function names its workspace (decision 0011)', () => {
  const fns = readRepoFunctions();
  const byKey = new Map(fns.map((f) => [f.key, f]));

  it('reads the repositories', () => {
    expect(repoFiles.length).toBeGreaterThan(20);
    // Known shapes: a workspaceId parameter, a row carrying one, and neither.
    expect(byKey.get('features/sms/sms.repo.ts#findConfig')?.takesWorkspace).toBe(true);
    expect(byKey.get('features/sms/sms.repo.ts#insertSession')?.takesWorkspace).toBe(true);
    expect(byKey.get('features/sms/sms.repo.ts#findForCallback')?.takesWorkspace).toBe(false);
    expect(byKey.get('features/sms/sms.repo.ts#findForCallback')?.returnsWorkspace).toBe(true);
  });

  it('takes the workspace, or is a listed pre-tenant lookup', () => {
    const offending = fns
      .filter((f) => !f.takesWorkspace && !(f.key in PRE_TENANT_LOOKUPS) && !billingTodo(f.key))
      .map((f) => `${f.key}(${f.params.join(', ')})`);
    expect(offending).toEqual([]);
  });

  it('lists only functions that exist and do not take the workspace', () => {
    const stale = Object.keys(PRE_TENANT_LOOKUPS).filter((key) => byKey.get(key)?.takesWorkspace !== false);
    expect(stale).toEqual([]);
  });

  it('a lookup that finds the workspace, or locates among the caller’s own, returns it', () => {
    const blind = Object.entries(PRE_TENANT_LOOKUPS)
      .filter(([key, reason]) => (reason === 'finds-workspace' || reason === 'caller') && byKey.has(key))
      .filter(([key]) => !byKey.get(key)?.returnsWorkspace)
      .map(([key]) => key);
    expect(blind).toEqual([]);
  });
});

describe('every route gets its workspace from the resolver (http/tenant.ts)', () => {
  it('no route reads a workspaceId from its params, query or body', () => {
    // `workspaceId: _ignored` (a body field a route drops) is not a read.
    const reads =
      /request\.(params|query|body)\??\.workspaceId|\{[^}]*\bworkspaceId\b(?!\s*:\s*_)[^}]*\}\s*=\s*request\.(params|query|body)\b/;
    const offending = sourceFiles()
      .filter((f) => /\.routes\.ts$/.test(f) && !ROUTES_TODO.has(fileKey(f).split('/').pop() ?? ''))
      .filter((f) => reads.test(readFileSync(f, 'utf8')))
      .map(fileKey);
    expect(offending).toEqual([]);
  });
});
