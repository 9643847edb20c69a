import { useEffect } from 'react';
import type { Theme } from '../api.ts';

/**
 * The user's theme preference (docs/dashboard.md) as `data-theme` on <html>; `system` follows
 * `prefers-color-scheme` and keeps following it while the page is open.
 */
export function useApplyTheme(theme: Theme) {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = theme === 'dark' || (theme === 'system' && media.matches);
      document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
