import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Comments cite only what a reader of this repository can open (docs/architecture.md "Rules"):
 * never the specification's decisions by section, an issue by number or the specification by
 * section, and every `*.md` file they name exists, with the heading they quote after it, e.g.
 * `docs/api.md "Order of checks"`.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const scanned = ['apps/server/src', 'apps/server/test', 'apps/web', 'apps/widget', 'bench'];
const skipped = new Set(['node_modules', 'dist', '.tmp', 'test-results', 'migrations', 'public']);
const extensions = /\.(ts|tsx|mts|js|mjs|css)$/;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : filesUnder(path);
    return extensions.test(entry.name) ? [path] : [];
  });
}

type Comment = { file: string; line: number; text: string };

/** Every comment of a file: TypeScript's own scanner for code, so strings and regexes never count. */
function commentsOf(file: string): Comment[] {
  const text = readFileSync(file, 'utf8');
  const at = (pos: number) => text.slice(0, pos).split('\n').length;
  if (file.endsWith('.css')) {
    return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({ file, line: at(m.index), text: m[0] }));
  }
  const kind = file.endsWith('x')
    ? ts.ScriptKind.TSX
    : file.endsWith('js')
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, Comment>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, { file, line: at(r.pos), text: text.slice(r.pos, r.end) });
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()];
}

const self = fileURLToPath(import.meta.url);
const comments = scanned.flatMap((dir) => filesUnder(join(root, dir))).flatMap(commentsOf);

/** What a comment may not cite (this file has to name them, so it is not checked for them). */
const banned: [RegExp, string][] = [
  [/[Dd]ecisions(\.md)?\s*§|§\s*\d/, 'cites the specification’s decisions by section'],
  [/\b[Ii]ssues?\s+#?\d+/, 'cites an issue by number'],
  [
    /\b[Ss]pec(ification)?\b/,
    'cites the specification, which is not in this repository: cite the docs/ summary',
  ],
  [/\bStates\s*(→|:)/, 'cites the specification’s state tables'],
];

/** Headings of a Markdown file, as written and without a closing aside (`Knowledge (`bench/...`)`). */
function headingsOf(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].flatMap((m) => [
    m[1]!,
    m[1]!.replace(/\s+\(.*\)$/, ''),
  ]);
}

/** A cited Markdown path: from the repository root, beside the citing file, or under docs/. */
function resolveDoc(citing: string, cited: string): string | undefined {
  const bare = cited.replace(/^(\.\.\/)+/, '');
  const candidates = [join(root, bare), resolve(dirname(citing), cited), join(root, 'docs', bare)];
  return candidates.find((path) => existsSync(path));
}

function problems(): string[] {
  const found: string[] = [];
  for (const c of comments) {
    const where = (index: number) =>
      `${relative(root, c.file)}:${c.line + c.text.slice(0, index).split('\n').length - 1}`;
    for (const [pattern, why] of c.file === self ? [] : banned) {
      for (const m of c.text.matchAll(new RegExp(pattern, 'g'))) found.push(`${where(m.index)} ${why}`);
    }
    for (const m of c.text.matchAll(/(?<![\w/.-])((?:\.\.\/)*[\w./-]*[\w-]\.md)\b(?:\s+"([^"\n]+)")?/g)) {
      const path = resolveDoc(c.file, m[1]!);
      if (!path) found.push(`${where(m.index)} cites ${m[1]}, which is not in the repository`);
      else if (m[2] && !headingsOf(path).includes(m[2])) {
        found.push(`${where(m.index)} cites "${m[2]}", not a heading of ${m[1]}`);
      }
    }
  }
  return found;
}

describe('citations in comments', () => {
  it('reads the comments of the sources, tests and benchmarks', () => {
    expect(comments.length).toBeGreaterThan(1000);
    expect(comments.some((c) => c.file.endsWith('docs-citations.test.ts'))).toBe(true);
  });

  it('cite only files of this repository, and headings they have', () => {
    expect(problems()).toEqual([]);
  });
});

/**
 * Every decision a file of the repository cites, in code (comments and strings alike) or in docs,
 * is one a reader can open: "decision 0009", "decisions 0003 and 0010" and `docs/decisions/0010-…`
 * name a file of docs/decisions/; "decisions §9" names the specification's, which is not here.
 */
function decisionCitations(): string[] {
  const have = new Set(readdirSync(join(root, 'docs/decisions')).map((f) => f.slice(0, 4)));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => /\.(ts|tsx|mjs|md)$/.test(f) && join(root, f) !== self && existsSync(join(root, f)));
  const found: string[] = [];
  for (const file of tracked) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const at = `${file}:${i + 1}`;
        for (const m of line.matchAll(/[Dd]ecisions?(\.md)?\s*§\s*\d+/g)) {
          found.push(`${at} "${m[0]}" cites the specification's decisions: cite the docs of this repository`);
        }
        for (const m of line.matchAll(/\b[Dd]ecisions?\s+((?:#?\d{1,4}(?:\s*(?:,|and|or|&)\s*)?)+)/g)) {
          for (const n of m[1]!.match(/\d{1,4}/g) ?? []) {
            if (!have.has(n.padStart(4, '0')))
              found.push(`${at} "${m[0].trim()}": no docs/decisions/${n.padStart(4, '0')}-*.md`);
          }
        }
        for (const m of line.matchAll(/decisions\/(\d{4})/g)) {
          if (!have.has(m[1]!)) found.push(`${at} "${m[0]}": no such file under docs/decisions/`);
        }
      });
  }
  return found;
}

describe('citations of decisions, in code and docs', () => {
  it('name only files of docs/decisions/', () => {
    expect(decisionCitations()).toEqual([]);
  });
});
