// The one Vite feature the catalogs' loader uses (apps/web/src/i18n/index.ts): typed here instead of
// pulling in vite/client's types, so the server's test programs that import dashboard modules
// typecheck too.
interface ImportMeta {
  glob<T>(pattern: string | string[], options: { eager: true }): Record<string, T>;
}
