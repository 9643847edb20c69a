/**
 * docs/workspaces.md "Workspaces": slugs are lowercase, URL-safe, at most 48 characters, single dashes
 * between parts.
 */
export const SLUG_MAX = 48;
export const SLUG_PATTERN = /^[a-z0-9](-?[a-z0-9])*$/;
