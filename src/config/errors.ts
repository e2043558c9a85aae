/**
 * The configuration's one error, {@link ConfigError}: every problem found by a load (key, bad
 * value, where it came from, why it is refused), not just the first, and the operator's report
 * of it. Values are rendered with secrets masked and API keys cut to their handle. Thrown by
 * `load.ts`, reported by the CLI (exit 2) or, on a reload, logged while the old config stays.
 */
import { scrubText } from '../logging/redact.js';

/** One configuration problem. */
export interface ConfigIssue {
  /** The dotted key, e.g. `venue.timeouts.submitMs`; absent for a problem with a whole file. */
  readonly key?: string;
  /** The offending value, rendered for display (JSON), secrets masked; absent when there is none. */
  readonly value?: string;
  /** Why it is refused. */
  readonly reason: string;
  /** Where the value came from: a file path, `env NAME`, or `default`. */
  readonly source?: string;
}

/** The configuration is invalid. Carries every problem found, not just the first. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(formatIssues(issues));
    this.issues = Object.freeze([...issues]);
  }
}

/** The mask shown instead of a secret value. */
export const MASKED = '[redacted]';

/**
 * Renders a value for an error report: JSON, shortened, with any API key cut to its handle.
 * A secret is never rendered, only {@link MASKED}.
 */
export function renderValue(value: unknown, sensitive = false): string {
  if (sensitive) return MASKED;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  text = scrubText(text);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function formatIssue(issue: ConfigIssue): string {
  const where = issue.source === undefined ? '' : ` (from ${issue.source})`;
  if (issue.key === undefined) return `${issue.source ?? 'configuration'}: ${issue.reason}`;
  const value = issue.value === undefined ? '' : ` = ${issue.value}`;
  return `${issue.key}${value}${where}: ${issue.reason}`;
}

function formatIssues(issues: readonly ConfigIssue[]): string {
  const n = issues.length;
  const head = `invalid configuration (${n} problem${n === 1 ? '' : 's'}):`;
  return [head, ...issues.map((i) => `  ${formatIssue(i)}`)].join('\n');
}

/**
 * The report for an operator: a heading, then one line per problem with the key, the bad value
 * (secrets masked), where it came from and why it is refused. Ends with a newline.
 */
export function formatConfigError(err: ConfigError): string {
  return `ledger-mm: ${formatIssues(err.issues)}\n`;
}
