/**
 * The `signing` config section: the party's Ed25519 key file and its permissions check, the
 * public key's wire format, the only hash length the signer signs, and clear signing (the
 * `verifyPrepared` policy, where the prepared transaction sits in the envelope, and how to read
 * the venue's order template). {@link verificationOf} turns it into the order engine's
 * verification options, checked between prepare and sign in the placement pipeline.
 */
import type { SchemaOf } from '../define.js';
import { BOOLEAN, DAML_NAME, FIELD_PATHS, OPTIONAL_PATH, intFormat } from '../formats.js';
import { DEFAULT_HASH_LENGTH } from '../../signing/ed25519-signer.js';
import { DEFAULT_TEMPLATE_MAP, type TemplateMap } from '../../signing/template-map.js';
import {
  DEFAULT_TRANSACTION_PATHS,
  VERIFY_PREPARED_POLICIES,
  type PreparedVerification,
  type VerifyPreparedPolicy,
} from '../../signing/prepared-verifier.js';

/** The format the public key is sent in: raw 32 bytes or DER SubjectPublicKeyInfo, both base64. */
export const PUBLIC_KEY_FORMATS = ['raw', 'spki'] as const;
export type PublicKeyFormatName = (typeof PUBLIC_KEY_FORMATS)[number];

export interface SigningConfig {
  /** Absolute after loading, or `''` when not configured. */
  readonly keyFile: string;
  readonly publicKeyFormat: PublicKeyFormatName;
  readonly allowInsecureKeyFile: boolean;
  /** The only length of hash the signer signs, bytes. */
  readonly hashLength: number;
  /** Clear signing: what is checked in the prepared transaction before its hash is signed. */
  readonly verifyPrepared: VerifyPreparedPolicy;
  /** Where the base64 prepared transaction sits in the signing envelope, tried in order. */
  readonly preparedTransactionPaths: readonly string[];
  /** How to read the venue's order template. */
  readonly template: TemplateMap;
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
  hashLength: {
    doc: 'The signer refuses any preparedTransactionHash that is not exactly this many bytes (SHA-256: 32).',
    format: intFormat(16, 64, { name: 'mm-hash-length' }),
    default: DEFAULT_HASH_LENGTH,
  },
  verifyPrepared: {
    doc: 'Before signing, decode the prepared transaction, recompute its hash and check what it does: "off"; "if-present" (verify when the venue sends it, otherwise the echo check alone, warned once); "required" (never sign an unverified hash).',
    format: VERIFY_PREPARED_POLICIES,
    default: 'if-present',
    env: 'LEDGER_MM_VERIFY_PREPARED',
  },
  preparedTransactionPaths: {
    doc: 'Dotted paths from the signing envelope to the base64 PreparedTransaction, tried in order.',
    format: FIELD_PATHS,
    default: DEFAULT_TRANSACTION_PATHS,
  },
  template: {
    orderTemplate: {
      doc: 'The Daml order template, "Module:Entity" (or "packageId:Module:Entity" to pin the package).',
      format: DAML_NAME,
      default: DEFAULT_TEMPLATE_MAP.orderTemplate,
    },
    fields: {
      pair: {
        doc: 'The order template field holding the pair (a dotted label path reaches into a nested record).',
        format: DAML_NAME,
        default: DEFAULT_TEMPLATE_MAP.fields.pair,
      },
      side: {
        doc: 'The order template field holding the side (BUY/SELL, any case, text or enum).',
        format: DAML_NAME,
        default: DEFAULT_TEMPLATE_MAP.fields.side,
      },
      price: {
        doc: 'The order template field holding the limit price (a Numeric, compared as a decimal).',
        format: DAML_NAME,
        default: DEFAULT_TEMPLATE_MAP.fields.price,
      },
      quantity: {
        doc: 'The order template field holding the quantity (a Numeric, compared as a decimal).',
        format: DAML_NAME,
        default: DEFAULT_TEMPLATE_MAP.fields.quantity,
      },
    },
    cancelChoice: {
      doc: 'The choice a cancel exercises on the order contract.',
      format: DAML_NAME,
      default: DEFAULT_TEMPLATE_MAP.cancelChoice,
    },
  },
};

/** The order engine's clear-signing options, from config `signing`. */
export function verificationOf(signing: SigningConfig): PreparedVerification {
  return {
    policy: signing.verifyPrepared,
    template: signing.template,
    transactionPaths: signing.preparedTransactionPaths,
  };
}
