/**
 * Names nobody reads: a key a config file sets that the schema does not have, and a
 * `LEDGER_MM_*` variable no key reads. Both are errors, with the nearest known name offered.
 */
import { type AnySection, leaves } from './define.js';
import type { ConfigIssue } from './errors.js';
import { CONFIG_FILES_ENV, configSchema } from './schema.js';

/** `LEDGER_MM_*` variables read elsewhere than the schema (the config file list, the build's commit). */
const OTHER_ENV = new Set([CONFIG_FILES_ENV, 'LEDGER_MM_COMMIT']);
const SCHEMA_ENV = new Set(
  leaves(configSchema as unknown as AnySection).flatMap(({ leaf }) =>
    leaf.env === undefined ? [] : [leaf.env],
  ),
);

/**
 * A `LEDGER_MM_*` variable that no key reads is an error, like an unknown key in a file: a typo
 * (`LEDGER_MM_PAIR`) would otherwise be ignored silently and the daemon run on the default.
 */
export function unknownEnvironment(env: NodeJS.ProcessEnv): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('LEDGER_MM_') || SCHEMA_ENV.has(name) || OTHER_ENV.has(name)) continue;
    if (env[name] === undefined) continue;
    const near = [...SCHEMA_ENV, ...OTHER_ENV]
      .map((known) => ({ known, d: editDistance(known, name) }))
      .sort((a, b) => a.d - b.d)[0];
    issues.push({
      source: `env ${name}`,
      reason:
        near !== undefined && near.d <= 3
          ? `unknown environment variable (did you mean ${near.known}?)`
          : 'unknown environment variable: no configuration key reads it (see docs/reference/config.md)',
    });
  }
  return issues;
}

/** Why `name` is refused in `section`: an unknown key, with the nearest known one when close. */
export function unknownKeyReason(name: string, section: AnySection): string {
  const near = Object.keys(section).find(
    (k) => k.toLowerCase() === name.toLowerCase() || editDistance(k.toLowerCase(), name.toLowerCase()) <= 2,
  );
  return near === undefined ? 'unknown key' : `unknown key (did you mean ${JSON.stringify(near)}?)`;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
