/**
 * A catalog in another language of an English one (apps/web/src/i18n/en/<feature>.ts): the same
 * keys, every one translated. `satisfies Translation<typeof en>` makes a missing or extra key a
 * type error, so en and es stay complete (docs/languages.md "Dashboard").
 */
export type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };

/** Languages that translate only part of a catalog: English shows for the rest. */
export type PartialTranslation<T> = {
  [K in keyof T]?: T[K] extends string ? string : PartialTranslation<T[K]>;
};
