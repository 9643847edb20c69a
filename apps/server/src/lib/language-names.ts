/** Language names in English, for instructions to a model (the reply's language, a translation's). */
const DISPLAY = new Intl.DisplayNames(['en'], { type: 'language' });

/** Names already looked up: a pure function's results (about 20 µs a lookup, every chat). */
const named = new Map<string, string>();
const MAX_NAMED = 1000;

/** A language tag's English name ("es" → "Spanish"), the tag itself when unknown or malformed. */
export function languageName(tag: string): string {
  let name = named.get(tag);
  if (name === undefined) {
    try {
      name = DISPLAY.of(tag) ?? tag;
    } catch {
      name = tag;
    }
    if (named.size < MAX_NAMED) named.set(tag, name);
  }
  return name;
}
