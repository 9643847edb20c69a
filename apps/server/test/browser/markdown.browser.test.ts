import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from './helpers.ts';

/**
 * The widget's Markdown renderer (apps/widget/src/markdown.ts) in a real DOM: the safe subset it
 * supports, and that markup in the text only ever becomes text (docs/widget-script.md).
 */

let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  const entry = fileURLToPath(new URL('../../../widget/src/markdown.ts', import.meta.url));
  const bundle = await build({
    stdin: {
      contents: `import { renderMarkdown } from ${JSON.stringify(entry)};
        window.md = (s) => { const d = document.createElement('div'); d.append(renderMarkdown(s)); return d.innerHTML; };`,
      loader: 'ts',
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.setContent('<!doctype html><title>md</title>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
});
afterAll(() => browser?.close());

const md = (text: string) =>
  page.evaluate((s) => (window as unknown as { md(s: string): string }).md(s), text);
const A = (href: string, label: string) =>
  `<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`;

describe.skipIf(!hasChromium)('renderMarkdown', () => {
  it('renders the safe subset', async () => {
    expect(await md('Hi **bold**, *it*, `a<b>`, snake_case_name and 2*3*4')).toBe(
      '<p>Hi <strong>bold</strong>, <em>it</em>, <code>a&lt;b&gt;</code>, snake_case_name and 2*3*4</p>',
    );
    expect(await md('- one\n- two\n  more\n- three')).toBe(
      '<ul><li>one</li><li>two<br>more</li><li>three</li></ul>',
    );
    expect(await md('3. three\n4. four')).toBe('<ol start="3"><li>three</li><li>four</li></ol>');
    expect(await md('```\nconst a = "<b>";\n```\nafter')).toBe(
      '<pre><code>const a = "&lt;b&gt;";</code></pre><p>after</p>',
    );
    expect(await md('# Title\nline 1\nline 2\n\nnext')).toBe(
      '<p><strong>Title</strong></p><p>line 1<br>line 2</p><p>next</p>',
    );
    expect(await md('> quoted **b**')).toBe('<blockquote><p>quoted <strong>b</strong></p></blockquote>');
    expect(await md('Answer. [1]')).toBe('<p>Answer. <sup class="ref">[1]</sup></p>');
  });

  it('links only absolute http(s) and mailto addresses, with plain-text labels', async () => {
    expect(await md('[x](https://a.test/p?q=1) and https://b.test/x. or [m](mailto:a@b.test)')).toBe(
      `<p>${A('https://a.test/p?q=1', 'x')} and ${A('https://b.test/x', 'https://b.test/x')}. or ${A('mailto:a@b.test', 'm')}</p>`,
    );
    expect(
      await md('[a](javascript:alert(1)) [b](JavaScript:alert) [c](/relative) [d](data:text/html,x)'),
    ).toBe('<p>[a](javascript:alert(1)) b c d</p>');
    // Images are not loaded (a tracking channel): their address becomes a link.
    expect(await md('![pic](https://t.test/p.png)')).toBe(`<p>${A('https://t.test/p.png', 'pic')}</p>`);
    expect(await md('[**x**](https://a.test)')).toBe(`<p>${A('https://a.test/', '**x**')}</p>`);
  });

  it('shows markup as text', async () => {
    expect(await md('<img src=x onerror=alert(1)> <script>alert(2)</script> &amp;')).toBe(
      '<p>&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt; &amp;amp;</p>',
    );
    expect(await md('**unclosed')).toBe('<p>**unclosed</p>');
  });
});
