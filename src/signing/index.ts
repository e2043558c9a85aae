/** The signing module's public API. */
export type { PublicKeyFormat, Signer } from './signer.js';
export {
  DEFAULT_HASH_LENGTH,
  Ed25519Signer,
  signerFromSeed,
  type SignerPublicInfo,
} from './ed25519-signer.js';
export {
  DEFAULT_TRANSACTION_PATHS,
  PreparedVerifier,
  VERIFY_PREPARED_POLICIES,
  type PreparedEnvelope,
  type PreparedVerdict,
  type PreparedVerification,
  type PreparedVerifierOptions,
  type UnverifiedReason,
  type VerifyPreparedPolicy,
} from './prepared-verifier.js';
export type { PreparedExpectation } from './prepared-checks.js';
export { DEFAULT_TEMPLATE_MAP, type OrderFieldMap, type TemplateMap } from './template-map.js';
export { decodePrepared, hashPrepared, hashingSchemeOf, type HashingScheme } from './canton-hash.js';
export { loadSigner, type LoadSignerOptions } from './load-signer.js';
export {
  KEY_FILE_FORMATS,
  formatKeyFile,
  parseKeyFile,
  readKeyFile,
  type KeyFileFormat,
  type ReadKeyFileOptions,
} from './key-file.js';
export { KeyFileError, type KeyFileErrorCode } from './key-file-error.js';
export {
  generateKeyFile,
  KEY_FILE_MODE,
  type GenerateKeyFileOptions,
  type GeneratedKeyFile,
} from './generate-key-file.js';
export { checkPartyId, ledgerFingerprint, FINGERPRINT_PREFIX, type PartyIdVerdict } from './fingerprint.js';
export {
  describePublicKey,
  encodePublicKey,
  parsePublicKey,
  publicKeyToSpki,
  ED25519_SPKI_PREFIX,
  type PublicKeyInfo,
} from './public-key.js';
export { verifySignature, type SignatureCheck } from './verify-signature.js';
