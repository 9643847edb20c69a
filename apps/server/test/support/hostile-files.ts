import { constants, deflateRawSync } from 'node:zlib';

/**
 * Hostile and broken files, generated (nothing large is checked in): zip bombs, a DOCX of many
 * entries, a PDF whose page tree multiplies, a truncated PDF, a large valid PDF.
 * Used by test/knowledge/hostile-files.test.ts and bench/hostile-files.ts.
 */

type ZipEntry = {
  name: string;
  /** The entry's bytes as stored (deflated when method is 8). */
  data: Buffer;
  method: 0 | 8;
  /** What the central directory declares. */
  uncompressedSize: number;
  crc?: number;
};

/** A zip archive of these entries; ZIP64 end records when there are more than 65,535. */
export function zip(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc ?? 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.uncompressedSize, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x0800, 8);
    cd.writeUInt16LE(e.method, 10);
    cd.writeUInt32LE(e.crc ?? 0, 16);
    cd.writeUInt32LE(e.data.length, 20);
    cd.writeUInt32LE(e.uncompressedSize, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    parts.push(local, name, e.data);
    central.push(cd, name);
    offset += local.length + name.length + e.data.length;
  }
  const cdBuf = Buffer.concat(central);
  const many = entries.length > 0xffff;
  const tail: Buffer[] = [];
  if (many) {
    const z64 = Buffer.alloc(56);
    z64.writeUInt32LE(0x06064b50, 0);
    z64.writeBigUInt64LE(44n, 4);
    z64.writeUInt16LE(45, 12);
    z64.writeUInt16LE(45, 14);
    z64.writeBigUInt64LE(BigInt(entries.length), 24);
    z64.writeBigUInt64LE(BigInt(entries.length), 32);
    z64.writeBigUInt64LE(BigInt(cdBuf.length), 40);
    z64.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + cdBuf.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(z64, locator);
  }
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(many ? 0xffff : entries.length, 8);
  eocd.writeUInt16LE(many ? 0xffff : entries.length, 10);
  eocd.writeUInt32LE(cdBuf.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBuf, ...tail, eocd]);
}

/**
 * Raw deflate of `mib` MiB of zeros in about a thousandth of that, without compressing them: one
 * MiB is deflated once ending on a full flush (byte-aligned, no back-references across it), that
 * block repeated, then an empty final block.
 */
export function deflatedZeros(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), {
    level: 9,
    finishFlush: constants.Z_FULL_FLUSH,
  });
  const parts: Buffer[] = Array.from({ length: mib }, () => block);
  parts.push(Buffer.from([0x03, 0x00])); // final fixed-Huffman block with only end-of-block
  return Buffer.concat(parts);
}

/**
 * A DOCX-named zip whose one part inflates to `mib` MiB of zeros. `honest`: the directory
 * declares that size; otherwise it declares 1 KB (a directory that lies).
 */
export function zipBomb(mib = 2048, honest = true): Buffer {
  const data = deflatedZeros(mib);
  const size = Math.min(mib * 1024 * 1024, 0xfffffffe);
  return zip([{ name: 'word/document.xml', data, method: 8, uncompressedSize: honest ? size : 1024 }]);
}

/** A zip of `count` empty stored parts (ZIP64 past 65,535). */
export function manyEntries(count = 100_000): Buffer {
  return zip(
    Array.from({ length: count }, (_, i) => ({
      name: `word/media/p${i}.xml`,
      data: Buffer.alloc(0),
      method: 0 as const,
      uncompressedSize: 0,
    })),
  );
}

/** Assembles a PDF from its objects (1-based ids) with a correct cross-reference table. */
export function pdfOf(objects: Array<string | Buffer>): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(length);
    const b = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof obj === 'string' ? Buffer.from(obj, 'latin1') : obj,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    chunks.push(b);
    length += b.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) xref += `${String(o).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}

const page = (contents: number, parent: number) =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`;
const stream = (body: Buffer | string, dict = '') => {
  const b = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  return Buffer.concat([
    Buffer.from(`<< /Length ${b.length}${dict} >>\nstream\n`, 'latin1'),
    b,
    Buffer.from('\nendstream', 'latin1'),
  ]);
};

/**
 * A small PDF whose page tree shares its nodes: the root lists one node `fanout` times, and that
 * node lists one page `fanout` times, so a reader sees fanout² pages (a million by default) of a
 * few hundred bytes of file: reading it does not end in any reasonable time.
 */
export function pageTreeBomb(fanout = 1000): Buffer {
  const kidsOf = (id: number) => Array.from({ length: fanout }, () => `${id} 0 R`).join(' ');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kidsOf(4)}] /Count ${fanout * fanout} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Type /Pages /Parent 2 0 R /Kids [${kidsOf(5)}] /Count ${fanout} >>`,
    page(6, 4),
    stream('BT /F1 12 Tf 72 720 Td (Every page is this page.) Tj ET'),
  ]);
}

/**
 * A valid PDF of about `mib` MiB: `pages` pages of text and, to make up the size, an image on the
 * first page (incompressible bytes, as photos are), which text extraction skips.
 */
export function largePdf(mib: number, pages = 200): Buffer {
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '', // the page tree, once the page ids are known
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const text = (i: number) =>
    `BT /F1 11 Tf 72 720 Td (Page ${i}: refunds are processed within five business days.) Tj 0 -14 Td (Shipping to forty countries; tracking by email.) Tj ET`;
  const imageBytes = Buffer.alloc(Math.max(0, mib * 1024 * 1024 - pages * 400));
  for (let i = 0; i < imageBytes.length; i += 4) imageBytes.writeUInt32LE((i * 2654435761) >>> 0, i);
  const side = Math.floor(Math.sqrt(imageBytes.length / 3));
  objects.push(
    stream(
      imageBytes.subarray(0, side * side * 3),
      ` /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8`,
    ),
  );
  const imageId = objects.length;
  const pageIds: number[] = [];
  for (let i = 0; i < pages; i++) {
    const drawImage = i === 0 ? 'q 100 0 0 100 72 500 cm /Im1 Do Q ' : '';
    objects.push(stream(`${drawImage}${text(i + 1)}`));
    const contents = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 ${imageId} 0 R >> >> >>`,
    );
    pageIds.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`;
  return pdfOf(objects);
}

/** The first `fraction` of a PDF: what an interrupted download leaves. */
export const truncated = (pdf: Buffer, fraction = 0.6) => pdf.subarray(0, Math.floor(pdf.length * fraction));
