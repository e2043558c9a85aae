/**
 * The `firm` section: several parties run as one market maker (`docs/operations/parties.md`).
 * Empty `parties` (the default) is the one party of `venue.apiKey`/`venue.apiKeyFile`,
 * `signing.keyFile` and `store.path`, as always. A list names every party, primary first: its
 * API key file, its signing key file, and where they differ its venue URLs, its journal and the
 * pairs and sides it serves. With a list, the single-party key settings are not used.
 */
import { z } from 'zod';
import type { SchemaOf } from '../define.js';
import { zodFormat } from '../formats.js';

/** One configured party. */
export interface PartyConfig {
  readonly name: string;
  readonly apiKeyFile: string;
  readonly signingKeyFile: string;
  readonly baseUrl?: string;
  readonly submitUrl?: string;
  readonly storePath?: string;
  readonly pairs?: readonly string[];
  readonly sides?: readonly ('BUY' | 'SELL')[];
}

export interface FirmConfig {
  readonly parties: readonly PartyConfig[];
  readonly allocation: 'earliest-free' | 'fixed';
}

const PARTY = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, {
    error: 'must be 1-32 characters of a-z, 0-9, _ and -, starting with a letter or digit',
  }),
  apiKeyFile: z.string().min(1, { error: 'must name the file holding the party API key' }),
  signingKeyFile: z.string().min(1, { error: 'must name the file holding the party signing key' }),
  baseUrl: z.url({ error: 'must be a URL' }).optional(),
  submitUrl: z.url({ error: 'must be a URL' }).optional(),
  storePath: z.string().min(1).optional(),
  pairs: z
    .array(z.string().regex(/^[^/\s]+\/[^/\s]+$/, { error: 'must be a pair like "BTC/USDC"' }))
    .min(1)
    .optional(),
  sides: z
    .array(z.enum(['BUY', 'SELL']))
    .min(1)
    .optional(),
});

const PARTY_LIST = z
  .array(PARTY, { error: 'must be a list of {"name", "apiKeyFile", "signingKeyFile", …}' })
  .max(16, { error: 'at most 16 parties' })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((p, i) => {
      if (seen.has(p.name))
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${p.name} is listed twice` });
      seen.add(p.name);
    });
    if (list.length === 1)
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'list two parties or more (one party: leave it empty)',
      });
  });

export const firmSchema: SchemaOf<FirmConfig> = {
  parties: {
    doc: 'The parties of the firm, primary first: [{"name", "apiKeyFile", "signingKeyFile", "baseUrl"?, "submitUrl"?, "storePath"?, "pairs"?, "sides"?}]. Each has its own placement pipeline, journal (default store.path with the name before the extension; the primary keeps store.path) and wallet. [] = the one party of venue.apiKey and signing.keyFile. Paths relative to the working directory.',
    format: zodFormat('mm-parties', PARTY_LIST),
    default: [],
  },
  allocation: {
    doc: 'Which party places each quote: "earliest-free" (the party whose pipeline frees first and whose wallet can fund it) or "fixed" (the first listed party that serves the pair and side and can fund it).',
    format: ['earliest-free', 'fixed'],
    default: 'earliest-free',
  },
};
