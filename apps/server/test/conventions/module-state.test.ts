import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles, srcDir } from '../support/sources.ts';

/**
 * No module-level state in features (docs/architecture.md "State"): what lives across requests
 * is built at startup and carried by the context (src/context.ts), so no file under
 * src/features/ keeps state of its own at module level. Read with the TypeScript compiler's
 * parser, one file at a time. At the top level of a file this fails on:
 * - a `let` or `var` (module-level state that changes);
 * - a `const` that starts as an empty array or object literal (`[]`, `{}`): a registry filled
 *   later, like the sign-in guards were (a constant table is written out where it is declared);
 * - a `new Map`, `WeakMap`, `Set` or `WeakSet` anywhere in a top-level initialiser (inside an object or
 *   array literal, a call's arguments, a class's static field), except inside a function, which
 *   makes a new one per call.
 * The rule for constants: a top-level `new Set(...)` or `new Map(...)` is allowed only as the whole
 * initialiser of a `const` whose declared type is `ReadonlySet<...>` or `ReadonlyMap<...>`, so the
 * compiler refuses any write to it. Never a WeakMap or WeakSet: those only ever serve as caches.
 *
 * PROCESS_WIDE names the few declarations that stay, each with its reason: they belong to the
 * process, not to an app (a context), or run where no context exists (the parse worker and the
 * parse process of features/knowledge/ingestion). A new entry needs the same kind of reason.
 */
const PROCESS_WIDE: Record<string, string> = {
  'auth/passwords.ts#dummyHash':
    'the hash of a fixed string, computed on first use (an Argon2 hash at import would slow every start)',
  'knowledge/retrieval/analysis.ts#memo':
    'a bounded memo of a pure function (the stemmers): the same answer for every app of the process',
  'knowledge/retrieval/analysis.ts#segmenters': 'Intl word segmenters, one per locale: stateless, built once',
  'knowledge/retrieval/analysis.ts#stemmers': 'Snowball stemmers, one per language: pure, built once',
  'knowledge/retrieval/analysis.ts#stopSets':
    'stop-word sets of a package, one per language: constant, built once',
  'knowledge/ingestion/parse-isolated.ts#waiting': 'the warm parse worker thread: one per process',
  'knowledge/ingestion/parse-isolated.ts#started': 'how many parse workers this process started (tests)',
  'knowledge/ingestion/parse-process.ts#host': 'the parse child process: one per process',
  'knowledge/ingestion/parse-process.ts#nextId': 'ids of requests to that child process',
  'knowledge/ingestion/parse-process.ts#started': 'how many parse processes this process started (tests)',
  'knowledge/ingestion/parse-gate.ts#word': 'the shared memory word of the parse gate, made once per process',
  'knowledge/ingestion/stored-file.ts#kept':
    "the parse process's own database connection (that process has no context)",
};

const COLLECTIONS = new Set(['Map', 'WeakMap', 'Set', 'WeakSet']);
const READONLY_TYPES: Record<string, string> = { Set: 'ReadonlySet', Map: 'ReadonlyMap' };

/** `name: reason` for each top-level declaration of `text` that keeps module-level state. */
function moduleState(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  /** Every `new Map/WeakMap/Set/WeakSet` under `node`, not entering functions (they run per call). */
  const collections = (node: ts.Node): ts.NewExpression[] => {
    if (ts.isFunctionLike(node)) return [];
    const own =
      ts.isNewExpression(node) && ts.isIdentifier(node.expression) && COLLECTIONS.has(node.expression.text)
        ? [node]
        : [];
    const inner: ts.NewExpression[] = [];
    ts.forEachChild(node, (child) => {
      inner.push(...collections(child));
    });
    return [...own, ...inner];
  };

  const readonlyConstant = (decl: ts.VariableDeclaration, created: ts.NewExpression) => {
    const kind = (created.expression as ts.Identifier).text;
    const wanted = READONLY_TYPES[kind];
    const type = decl.type;
    return (
      !!wanted &&
      decl.initializer === created &&
      !!type &&
      ts.isTypeReferenceNode(type) &&
      ts.isIdentifier(type.typeName) &&
      type.typeName.text === wanted
    );
  };

  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const decl of statement.declarationList.declarations) {
        const name = decl.name.getText(source);
        if (!isConst) {
          found.push(`${name} (line ${line(decl)}): a top-level let/var`);
          continue;
        }
        const init = decl.initializer;
        if (
          init &&
          ((ts.isArrayLiteralExpression(init) && init.elements.length === 0) ||
            (ts.isObjectLiteralExpression(init) && init.properties.length === 0))
        ) {
          found.push(`${name} (line ${line(decl)}): a top-level empty array or object, filled later`);
        }
        for (const created of init ? collections(init) : []) {
          if (readonlyConstant(decl, created)) continue;
          const kind = (created.expression as ts.Identifier).text;
          found.push(`${name} (line ${line(created)}): a top-level new ${kind}`);
        }
      }
    } else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic =
          ts.canHaveModifiers(member) &&
          ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (!isStatic || !ts.isPropertyDeclaration(member) || !member.initializer) continue;
        for (const created of collections(member.initializer)) {
          const kind = (created.expression as ts.Identifier).text;
          const name = `${statement.name?.text ?? 'class'}.${member.name.getText(source)}`;
          found.push(`${name} (line ${line(created)}): a static new ${kind}`);
        }
      }
    } else if (ts.isExpressionStatement(statement)) {
      for (const created of collections(statement.expression)) {
        found.push(`(line ${line(created)}): a top-level new ${(created.expression as ts.Identifier).text}`);
      }
    }
  }
  return found;
}

const featuresDir = join(srcDir, 'features');
const keyOf = (file: string) => relative(featuresDir, file).split('\\').join('/');

describe('no module-level state in features', () => {
  it('the rule catches what it names and lets constants be', () => {
    const bad = [
      'let cached: string | undefined;',
      'export let n = 1;',
      'var v = 0;',
      'const cache = new Map<string, string>();',
      'const weak = new WeakMap<object, string>();',
      'const seen = new Set<string>();',
      'const table = { byId: new Map() };',
      'const list = [new WeakSet()];',
      'const frozen = Object.freeze(new Map());',
      'const loose: Set<string> = new Set(["a"]);',
      'const weakTyped: ReadonlyMap<object, string> = new WeakMap();',
      'class Registry { static all = new Map(); }',
      'const guards: Guard[] = [];',
      'const byName: Record<string, Handler> = {};',
    ];
    for (const text of bad) expect(moduleState('bad.ts', text), text).toHaveLength(1);
    const good = [
      "const ENDED: ReadonlySet<string> = new Set(['canceled', 'unpaid']);",
      'const NAMES: ReadonlyMap<string, number> = new Map([["a", 1]]);',
      'const LIMIT = 10;',
      'const build = () => new Map<string, string>();',
      'function fresh() { let n = 0; const m = new Map(); return [n, m]; }',
      'const make = { cache: () => new WeakMap() };',
      'class Holder { items = new Map(); }',
      "const KINDS = ['a', 'b'] as const;",
      'const FIELDS = { a: 1 };',
    ];
    for (const text of good) expect(moduleState('good.ts', text), text).toEqual([]);
  });

  it('no file under src/features/ keeps a module-level Map, WeakMap, Set, mutable let or registry', () => {
    const files = sourceFiles(featuresDir);
    expect(files.length).toBeGreaterThan(50);
    const offences: string[] = [];
    const allowedSeen = new Set<string>();
    for (const file of files) {
      for (const offence of moduleState(file, readFileSync(file, 'utf8'))) {
        const key = `${keyOf(file)}#${offence.split(' ')[0]}`;
        if (key in PROCESS_WIDE) allowedSeen.add(key);
        else offences.push(`${keyOf(file)}: ${offence}`);
      }
    }
    expect(offences).toEqual([]);
    // An entry whose declaration is gone is taken off the list, so the list stays what is left.
    expect(Object.keys(PROCESS_WIDE).filter((key) => !allowedSeen.has(key))).toEqual([]);
  });
});
