import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A tiny authoritative DNS server over UDP answering TXT questions from `records` (name → texts),
 * NXDOMAIN otherwise: what SSO_DNS_SERVERS points at in the domain verification tests.
 */
export type TestDns = { server: string; records: Map<string, string[]>; close(): Promise<void> };

export async function startDns(): Promise<TestDns> {
  const records = new Map<string, string[]>();
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    let i = 12;
    const labels: string[] = [];
    while (msg[i] !== 0 && i < msg.length) {
      const len = msg[i]!;
      labels.push(msg.subarray(i + 1, i + 1 + len).toString('ascii'));
      i += len + 1;
    }
    const qEnd = i + 5;
    const qtype = msg.readUInt16BE(i + 1);
    const name = labels.join('.').toLowerCase();
    const texts = qtype === 16 ? (records.get(name) ?? []) : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    header.writeUInt16BE(records.has(name) ? 0x8580 : 0x8583, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(texts.length, 6);
    const answers = texts.map((t) => {
      const data = Buffer.from(t, 'utf8');
      const chunks: Buffer[] = [];
      for (let o = 0; o < data.length || o === 0; o += 255) {
        const part = data.subarray(o, o + 255);
        chunks.push(Buffer.from([part.length]), part);
        if (data.length === 0) break;
      }
      const rdata = Buffer.concat(chunks);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0);
      rr.writeUInt16BE(16, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    socket.send(Buffer.concat([header, msg.subarray(12, qEnd), ...answers]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const port = (socket.address() as AddressInfo).port;
  return {
    server: `127.0.0.1:${port}`,
    records,
    close: () => new Promise((r) => socket.close(() => r())),
  };
}
