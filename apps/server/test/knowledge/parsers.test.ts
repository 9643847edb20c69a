import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/features/knowledge/ingestion/chunking.ts';
import {
  CorruptFileError,
  detectKind,
  htmlToMarkdown,
  parseFile,
  UnsupportedFileError,
} from '../../src/features/knowledge/ingestion/parsers.ts';
import { makeDocx, makePdf } from '../support/documents.ts';

describe('detectKind', () => {
  it('knows the supported kinds by extension or MIME type and refuses others', () => {
    expect(detectKind('Guide.PDF')).toBe('pdf');
    expect(detectKind('a.docx')).toBe('docx');
    expect(detectKind('notes', 'text/markdown')).toBe('markdown');
    expect(detectKind('data.csv')).toBe('csv');
    expect(() => detectKind('virus.exe', 'application/octet-stream')).toThrow(UnsupportedFileError);
    expect(() => detectKind('x.png', 'image/png')).toThrow(UnsupportedFileError);
  });
});

describe('parseFile', () => {
  it('reads a PDF page by page', async () => {
    const parsed = await parseFile(makePdf(['Refunds take five days.', 'Shipping is free.']), 'pdf');
    expect(parsed.text).toContain('Refunds take five days.');
    expect(parsed.text).toContain('Shipping is free.');
  });

  it('refuses a corrupt PDF with a readable error', async () => {
    await expect(parseFile(Buffer.from('%PDF-1.4 garbage that is not a pdf'), 'pdf')).rejects.toThrow(
      CorruptFileError,
    );
    await expect(parseFile(Buffer.from('hello'), 'pdf')).rejects.toThrow(/Not a valid PDF/);
  });

  it('reads a DOCX keeping its headings', async () => {
    const parsed = await parseFile(
      await makeDocx('Returns', 'Items can be returned within 30 days.'),
      'docx',
    );
    expect(parsed.text).toMatch(/# Returns/);
    expect(chunkText(parsed.text)[0]).toMatchObject({ heading: 'Returns' });
    await expect(parseFile(Buffer.from('PK not a zip'), 'docx')).rejects.toThrow(CorruptFileError);
  });

  it('turns HTML into Markdown without scripts or navigation', () => {
    const html =
      '<html><head><title>Help &amp; FAQ</title><script>alert(1)</script></head><body><nav>Menu</nav><main><h1>Help</h1><p>Call us <b>anytime</b>.</p></main><footer>©</footer></body></html>';
    const parsed = htmlToMarkdown(html);
    expect(parsed.title).toBe('Help & FAQ');
    expect(parsed.text).toContain('# Help');
    expect(parsed.text).toContain('Call us **anytime**.');
    expect(parsed.text).not.toContain('alert');
    expect(parsed.text).not.toContain('Menu');
  });

  it('turns CSV rows into whole paragraphs', async () => {
    const parsed = await parseFile(
      Buffer.from('\uFEFFsku,name,price\nA1,"Blue mug, large",12\nB2,Plate,\n'),
      'csv',
    );
    expect(parsed.text).toBe('sku: A1; name: Blue mug, large; price: 12\n\nsku: B2; name: Plate');
  });

  it('reads text and markdown as is and refuses binary', async () => {
    expect((await parseFile(Buffer.from('# Title\n\nBody ünïcode'), 'markdown')).text).toBe(
      '# Title\n\nBody ünïcode',
    );
    await expect(parseFile(Buffer.from([0x00, 0x01, 0x02]), 'text')).rejects.toThrow(CorruptFileError);
  });
});
