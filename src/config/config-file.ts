/**
 * Reading one config file of the layering and screening its content before convict sees it:
 * unreadable files, malformed JSON, unknown keys, secrets and values of the wrong shape become
 * issues and are left out, and every key loaded is recorded with the file that set it.
 */
import { readFileSync } from 'node:fs';

import { scrubText } from '../logging/redact.js';
import { type AnySection, isLeaf } from './define.js';
import { type ConfigIssue, MASKED, renderValue } from './errors.js';
import { checkFormat } from './formats.js';
import { describeJsonError } from './json-error.js';
import { unknownKeyReason } from './unknown-names.js';
import { CREDENTIAL_REASON, hedgeCredentialKeyReason, withoutHedgeCredentials } from './sections/hedge.js';

/** The reason an IO error gives, in words (`no such file`, `permission denied`…). */
export function ioReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return code ?? (e as Error).message;
}

/**
 * The content of the config file at `path` (an empty file is `{}`), or undefined with an issue
 * pushed when it cannot be read, is not JSON or does not hold an object.
 */
export function readConfigFile(path: string, issues: ConfigIssue[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    issues.push({ source: path, reason: `cannot read config file: ${ioReason(e)}` });
    return undefined;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    // The parser's message can quote the file; mask anything that looks like a key.
    issues.push({
      source: path,
      reason: `not valid JSON: ${scrubText(describeJsonError(text, e as Error))}`,
    });
    return undefined;
  }
  if (!isPlainObject(parsed)) {
    issues.push({ source: path, reason: 'must hold a JSON object' });
    return undefined;
  }
  return parsed;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The part of one file's content that may be loaded: unknown keys, secrets and values of the
 * wrong shape (an object for a key, a non-object for a section) are reported and left out.
 * Records which file set each key.
 */
export function screen(
  content: Record<string, unknown>,
  section: AnySection,
  prefix: string,
  file: string,
  issues: ConfigIssue[],
  sources: Map<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(content)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    const value = content[name];
    const node = Object.hasOwn(section, name) ? section[name] : undefined;
    if (node === undefined) {
      const credential = hedgeCredentialKeyReason(key);
      issues.push({
        key,
        value: credential === null ? renderValue(value) : MASKED,
        source: file,
        reason: credential ?? unknownKeyReason(name, section),
      });
    } else if (isLeaf(node)) {
      if (node.sensitive === true) {
        issues.push({
          key,
          value: MASKED,
          source: file,
          reason: `a secret is never read from a config file; set ${node.env ?? 'it'} in the environment${
            key === 'venue.apiKey' ? ' or point venue.apiKeyFile at a file holding the key' : ''
          }`,
        });
      } else if (isPlainObject(value)) {
        issues.push({
          key,
          value: renderValue(value),
          source: file,
          reason: formatReason(node.format, value),
        });
      } else {
        // A credential inside a list (hedge.pairs) is refused here, masked, and never loaded.
        const { kept, refused } = withoutHedgeCredentials(key, value);
        for (const k of refused)
          issues.push({ key: k, value: MASKED, source: file, reason: CREDENTIAL_REASON });
        out[name] = kept;
        sources.set(key, file);
      }
    } else if (!isPlainObject(value)) {
      issues.push({
        key,
        value: renderValue(value),
        source: file,
        reason: `must be an object with the keys ${Object.keys(node).join(', ')}`,
      });
    } else {
      out[name] = screen(value, node, key, file, issues, sources);
    }
  }
  return out;
}

function formatReason(format: string | readonly unknown[], value: unknown): string {
  try {
    checkFormat(format, value);
    return 'has the wrong type';
  } catch (e) {
    return (e as Error).message;
  }
}
