/**
 * How an error is written to the log (pino's `err` key, app.ts): never a failed statement's
 * parameters, which hold customers' text (docs/decisions/0001-http-conventions.md). drizzle's DrizzleQueryError carries `params`
 * and repeats them in its message and stack; PostgreSQL's and PGlite's errors carry `detail`
 * ("Failing row contains (...)", "Key (email)=(...)"), `where` (the JSON text being parsed) and may
 * quote a value in the message ("invalid input syntax for type uuid: \"...\""). Kept: the SQL text
 * (`query`), the SQLSTATE `code`, the names of the constraint, table and column, and the stack frames.
 */

/** Fields that may hold the statement's values, dropped from any error. */
const VALUE_FIELDS = new Set([
  'params',
  'parameters',
  'values',
  'detail',
  'where',
  'internalQuery',
  'queryOptions',
]);

/** What a database error keeps besides its message and stack: names and codes, no values. */
const DATABASE_FIELDS = new Set([
  'name',
  'code',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'position',
  'file',
  'line',
  'query',
]);

/** A SQLSTATE: five digits or capitals (23505, 22P02). */
const SQLSTATE = /^[0-9A-Z]{5}$/;

const isDatabaseError = (err: Record<string, unknown>) =>
  'params' in err ||
  (typeof err.severity === 'string' && typeof err.code === 'string' && SQLSTATE.test(err.code));

/** A double-quoted part of a PostgreSQL message, taken left to right (`""` is a quote inside). */
const QUOTED = /"(?:[^"]|"")*"/g;

/**
 * Quoted names of relations, columns, constraints, types and encodings are schema, not data, and
 * are kept; any other quoted part (`: "text"`, `value "text" is out of range`) is a value.
 */
const NAMED_BEFORE =
  /\b(?:relation|column|constraint|table|index|type|function|schema|database|role|encoding|operator|sequence|extension|trigger|view|cursor|statement|savepoint|channel) $/;

function safeMessage(err: Record<string, unknown>, message: string): string {
  // drizzle's "Failed query: <sql>\nparams: <values>": the SQL (placeholders only) stays.
  const cut = 'params' in err ? message.indexOf('\nparams:') : -1;
  if (cut >= 0) return message.slice(0, cut);
  if (!isDatabaseError(err)) return message;
  return message.replace(QUOTED, (quoted, at: number) =>
    NAMED_BEFORE.test(message.slice(Math.max(0, at - 20), at)) ? quoted : '"[redacted]"',
  );
}

/**
 * The stack with its header's message made safe too (the header repeats the message). A stack whose
 * header no longer matches the message keeps only its frames.
 */
function safeStack(stack: string, original: string, message: string): string {
  if (message === original) return stack;
  // A function, not a string: `$1` in the SQL must not be read as a replacement pattern.
  if (original && stack.includes(original)) return stack.replace(original, () => message);
  return [message, ...stack.split('\n').filter((line) => /^\s+at /.test(line))].join('\n');
}

const MAX_DEPTH = 5;

/** pino serializer for `err`: pino's own shape (type, message, stack, own fields, cause) without values. */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!err || typeof err !== 'object') return err;
  const e = err as Record<string, unknown>;
  const database = isDatabaseError(e);
  const original = typeof e.message === 'string' ? e.message : '';
  const message = safeMessage(e, original);
  const out: Record<string, unknown> = { type: (err as object).constructor?.name ?? 'Object', message };
  if (typeof e.stack === 'string') out.stack = safeStack(e.stack, original, message);
  for (const [key, value] of Object.entries(e)) {
    if (key === 'message' || key === 'stack' || key === 'cause' || key === 'errors') continue;
    if (VALUE_FIELDS.has(key) || (database && !DATABASE_FIELDS.has(key))) continue;
    out[key] = value instanceof Error ? serializeError(value, depth + 1) : value;
  }
  if (depth < MAX_DEPTH) {
    if (e.cause !== undefined) out.cause = serializeError(e.cause, depth + 1);
    if (Array.isArray(e.errors)) out.errors = e.errors.map((inner) => serializeError(inner, depth + 1));
  }
  return out;
}

/** Fastify's `logger` option with the error serializer added (false stays false: no logger). */
export function withErrorSerializer(logger: boolean | object): boolean | object {
  if (logger === false) return false;
  const options = (logger === true ? {} : logger) as { serializers?: Record<string, unknown> };
  return { ...options, serializers: { ...options.serializers, err: serializeError } };
}
