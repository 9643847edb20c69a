import { customType, timestamp } from 'drizzle-orm/pg-core';

/** The column kinds every table file uses, defined once (the references: refs.ts). */

/** A point in time, with its time zone, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Bytes, read as a Buffer (files, raw email). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});
