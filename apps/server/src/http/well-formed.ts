import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from './error-handler.ts';

/**
 * Whether `s` has no lone (unpaired) UTF-16 surrogate. `String.prototype.isWellFormed` (Node 20+)
 * is not in the compiler's library yet; it is about twice as fast as a `\p{Surrogate}` test.
 */
const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

export const LONE_SURROGATE_MESSAGE =
  'Must not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF)';

/** Plain parsed data (JSON, query string, form): never a Buffer, a stream or a multipart part. */
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An object or array still to walk, and how it was reached (the path is built only on a hit). */
type Frame = { value: object; key: PropertyKey; parent: Frame | undefined };

function pathOf(frame: Frame, last: PropertyKey): PropertyKey[] {
  const path: PropertyKey[] = [last];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * The path (keys and array indexes, as Zod reports them) of a string or object key that holds a
 * lone surrogate, or undefined. Iterative: a deeply nested body is walked whole, without the call
 * stack's limit; a 2 MiB body of small objects takes a few tens of ms on a busy machine.
 */
export function findLoneSurrogate(root: unknown): PropertyKey[] | undefined {
  if (typeof root === 'string') return wellFormed(root) ? undefined : [];
  if (!root || typeof root !== 'object' || !isPlain(root)) return undefined;
  const stack: Frame[] = [{ value: root, key: '', parent: undefined }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const value = frame.value as Record<string, unknown> | unknown[];
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    const count = keys ? keys.length : (value as unknown[]).length;
    const children: Frame[] = [];
    for (let i = 0; i < count; i++) {
      const key: PropertyKey = keys ? (keys[i] as string) : i;
      if (keys && !wellFormed(key as string)) return pathOf(frame, key);
      const child = (value as Record<PropertyKey, unknown>)[key];
      if (typeof child === 'string') {
        if (!wellFormed(child)) return pathOf(frame, key);
      } else if (child && typeof child === 'object' && isPlain(child)) {
        children.push({ value: child, key, parent: frame });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Frame);
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
