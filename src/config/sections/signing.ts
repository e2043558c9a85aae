import type { SchemaOf } from '../define.js';
import { BOOLEAN, OPTIONAL_PATH } from '../formats.js';

/** The format the public key is sent in: raw 32 bytes or DER SubjectPublicKeyInfo, both base64. */
export const PUBLIC_KEY_FORMATS = ['raw', 'spki'] as const;
export type PublicKeyFormatName = (typeof PUBLIC_KEY_FORMATS)[number];

export interface SigningConfig {
  /** Absolute after loading, or `''` when not configured. */
  readonly keyFile: string;
  readonly publicKeyFormat: PublicKeyFormatName;
  readonly allowInsecureKeyFile: boolean;
}

export const signingSchema: SchemaOf<SigningConfig> = {
  keyFile: {
    doc: 'The file holding the Ed25519 signing key of the party. Relative to the working directory. Empty: not configured (nothing can be signed).',
    format: OPTIONAL_PATH,
    default: '',
    env: 'LEDGER_MM_SIGNING_KEY_FILE',
  },
  publicKeyFormat: {
    doc: 'How the public key is sent in a submission: "raw" (32 bytes) or "spki" (DER SubjectPublicKeyInfo), base64 either way.',
    format: PUBLIC_KEY_FORMATS,
    default: 'raw',
    env: 'LEDGER_MM_PUBLIC_KEY_FORMAT',
  },
  allowInsecureKeyFile: {
    doc: 'Accept a signing key file that group or others can read or write. Leave false outside tests.',
    format: BOOLEAN,
    default: false,
  },
};
