// `npm start` runs this first (package.json "prestart"): on a Node.js line Parley does not support
// it says so in one line and lets the start go on (a newcomer on an older Node still gets a server;
// what breaks there is theirs to judge). The supported lines are the LTS ones the image and CI run
// (package.json "engines", Dockerfile, .ci/run).
// Usage: node scripts/node-version.mjs [version]   (default: this Node's version)

import { pathToFileURL } from 'node:url';

export const SUPPORTED_NODE_LINES = [22, 24];

/** The one-line notice for a Node version ("20.20.2" or "v20.20.2"), or null when it is supported. */
export function nodeVersionNotice(version) {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (SUPPORTED_NODE_LINES.includes(major)) return null;
  const lines = SUPPORTED_NODE_LINES.join(' or ');
  return `Parley supports Node.js ${lines} (LTS); this is Node.js ${version.replace(/^v/, '')}, which may not work: install Node.js ${lines} (README, "Run it").`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const notice = nodeVersionNotice(process.argv[2] ?? process.versions.node);
  if (notice) console.warn(notice);
}
