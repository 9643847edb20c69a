/**
 * Every place a string can go in a request body, read from the body's JSON Schema in
 * /api/openapi.json: string values (and `{}` schemas, which take anything) and the keys of
 * records. Unions are walked branch by branch; `$ref`s are resolved against the document.
 */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema | false;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
};

/** A string slot: a value at `path`, or a key of the record at `path`. */
export type Slot = { path: PropertyKey[]; key: boolean };

type Doc = { components?: { schemas?: Record<string, Schema> } };

const KEYWORDS = [
  'type',
  'properties',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
];

export function resolver(doc: Doc) {
  return (schema: Schema): Schema => {
    let s = schema;
    for (let i = 0; i < 10 && s.$ref; i++) {
      const name = s.$ref.split('/').pop() ?? '';
      s = doc.components?.schemas?.[name] ?? {};
    }
    return s;
  };
}

const types = (s: Schema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
const anything = (s: Schema) => !KEYWORDS.some((k) => k in s);

/** The string slots of `schema`, deduplicated, outermost first. */
export function stringSlots(root: Schema, resolve: (s: Schema) => Schema): Slot[] {
  const seen = new Map<string, Slot>();
  const add = (slot: Slot) => seen.set(`${slot.key}:${slot.path.map(String).join('.')}`, slot);
  const walk = (raw: Schema, path: PropertyKey[], depth: number) => {
    if (depth > 12) return;
    const s = resolve(raw);
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])])
      walk(branch, path, depth + 1);
    const t = types(s);
    if (t.includes('string') || anything(s)) add({ path, key: false });
    for (const [name, prop] of Object.entries(s.properties ?? {})) walk(prop, [...path, name], depth + 1);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      add({ path, key: true });
      walk(s.additionalProperties, [...path, 'field'], depth + 1);
    }
    for (const [i, item] of (s.prefixItems ?? []).entries()) walk(item, [...path, i], depth + 1);
    if (s.items) walk(s.items, [...path, 0], depth + 1);
  };
  walk(root, [], 0);
  return [...seen.values()].filter((slot) => slot.path.length > 0 || slot.key);
}

/** A value of `schema` with its required fields filled (its first branch of a union). */
export function sample(raw: Schema, resolve: (s: Schema) => Schema, depth = 0): unknown {
  const s = resolve(raw);
  if (depth > 12) return null;
  if ('const' in s) return s.const;
  if (s.enum?.length) return s.enum[0];
  if ('default' in s) return s.default;
  const branch = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (branch) return sample(branch, resolve, depth + 1);
  const t = types(s);
  if (t.includes('object') || s.properties) {
    const out: Record<string, unknown> = {};
    for (const name of s.required ?? []) {
      const prop = s.properties?.[name];
      if (prop) out[name] = sample(prop, resolve, depth + 1);
    }
    return out;
  }
  if (t.includes('array')) return [];
  if (t.includes('string')) return 'text';
  if (t.includes('integer') || t.includes('number')) return 1;
  if (t.includes('boolean')) return true;
  return null;
}

/** `body` with `value` at `path`, creating the objects and arrays on the way. */
export function withValueAt(body: unknown, path: PropertyKey[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const base =
    typeof head === 'number' ? (Array.isArray(body) ? [...body] : []) : isObject(body) ? { ...body } : {};
  (base as Record<PropertyKey, unknown>)[head] = withValueAt(
    (base as Record<PropertyKey, unknown>)[head],
    rest,
    value,
  );
  return base;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);
