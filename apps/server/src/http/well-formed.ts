import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from './error-handler.ts';

/**
 * A UTF-16 surrogate code unit. Paired ones are one character and never match with the `u` flag;
 * only a lone (unpaired) half does. (`String.prototype.isWellFormed` says the same on Node 20+,
 * but is not in the compiler's library yet.)
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

export const LONE_SURROGATE_MESSAGE =
  'Must not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF)';

/** Plain parsed data (JSON, query string, form): never a Buffer, a stream or a multipart part. */
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The path (keys and array indexes, as Zod reports them) of the first string or object key that
 * holds a lone surrogate, or undefined. Iterative: a deeply nested body is walked whole, without
 * the call stack's limit.
 */
export function findLoneSurrogate(root: unknown): PropertyKey[] | undefined {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: root, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return path;
      continue;
    }
    if (!value || typeof value !== 'object' || !isPlain(value)) continue;
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    // Pushed in reverse so the first field in document order is reported first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as readonly [PropertyKey, unknown];
      if (typeof key === 'string' && LONE_SURROGATE.test(key)) return [...path, key];
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * One rule for every string the API accepts (docs/decisions/0001-http-conventions.md "Hostile
 * input"): a lone surrogate in the parsed body (JSON, form), the query string or a path parameter,
 * in a value or a key at any depth, is a 400 naming the field (`bad_request:chat` on the chat
 * surfaces). It cannot be stored as UTF-8: PostgreSQL refuses it in JSON columns and the drivers
 * turn it into U+FFFD in text columns, silently changing the customer's text. Runs first among the
 * preValidation hooks (registered before the tenant resolver), like a parse error: nothing about the
 * workspace or its resources is looked up for such a request.
 */
export function registerWellFormedInput(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const path =
      findLoneSurrogate(request.body) ??
      findLoneSurrogate(request.query) ??
      findLoneSurrogate(request.params);
    if (path !== undefined) throw validationError(request, [{ path, message: LONE_SURROGATE_MESSAGE }]);
  });
}

export const NOT_UTF8_MESSAGE = 'The body is not valid UTF-8';

type ParserHost = Pick<
  FastifyInstance,
  'getDefaultJsonParser' | 'removeContentTypeParser' | 'addContentTypeParser'
>;

/**
 * The JSON body parser, reading bytes: a body that is not valid UTF-8 is a 400 (`_`: the whole
 * body; the chat code on the chat surfaces) instead of Node's decoder silently putting U+FFFD in
 * place of the bad bytes. The bytes ED A0 80 are how a lone surrogate would be written raw, so the
 * rule is the same as for the `\ud800` escape (registerWellFormedInput). Fastify's own proto-safe
 * parser does the rest. `emptyIsNoBody`: an empty body reads as none (the widget's bodyless POSTs).
 */
export function registerJsonParser(app: ParserHost, opts: { emptyIsNoBody?: boolean } = {}) {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(validationError(request, [{ path: [], message: NOT_UTF8_MESSAGE }]), undefined);
      return;
    }
    const text = bytes.toString('utf8');
    if (opts.emptyIsNoBody && text.trim() === '') {
      done(null, undefined);
      return;
    }
    json(request, text, done);
  });
}
