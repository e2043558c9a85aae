/**
 * Every identifier the simulated venue hands out, drawn from one seeded stream so that the same
 * seed and the same sequence of calls give the same ids. Shapes imitate the real venue's: UUIDs
 * for orders, commands and correlation ids, long hex ledger contract ids, `party::1220<hex>`
 * party ids.
 */
import type { Rng } from '../rng.js';

/** Each byte's two lowercase hex digits (ids are built per request: no Buffer round trip). */
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hexOf(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_BYTE[bytes[i]!]!;
  return out;
}

/** See the module doc. */
export class IdSource {
  private tradeSeq = 0;
  private requestSeq = 0;

  constructor(private readonly rng: Rng) {}

  /** `n` seeded bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.rng.int(0, 255);
    return out;
  }

  /** `n` seeded bytes as lowercase hex. */
  hex(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += HEX_BYTE[this.rng.int(0, 255)]!;
    return out;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const b = this.bytes(16);
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = hexOf(b);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  orderId(): string {
    return this.uuid();
  }

  /** A ledger contract id: `00` followed by 66 hex digits. */
  contractId(): string {
    return `00${this.hex(33)}`;
  }

  commandId(): string {
    return this.uuid();
  }

  submitToken(): string {
    return `st_${this.hex(24)}`;
  }

  correlationId(): string {
    return this.uuid();
  }

  /** A ledger party id for `hint`: `<hint>::1220<64 hex>`. */
  partyId(hint: string): string {
    return `${hint}::1220${this.hex(32)}`;
  }

  /** The two halves of an API key `mm_ak_<prefix>.<secret>`. */
  apiKeyParts(): { prefix: string; secret: string } {
    return { prefix: this.hex(6), secret: this.hex(24) };
  }

  /** Trade ids are sequential, which also makes them usable as a cursor. */
  tradeId(): string {
    this.tradeSeq += 1;
    return `t${String(this.tradeSeq).padStart(10, '0')}`;
  }

  requestId(): string {
    this.requestSeq += 1;
    return `req_${String(this.requestSeq).padStart(8, '0')}_${this.hex(4)}`;
  }
}
