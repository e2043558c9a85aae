/**
 * What the running build is: the package version and the source commit.
 *
 * - version: read once from the package's own `package.json` (three levels above this file,
 *   both as `src/observability/http/build-info.ts` and as `dist/observability/http/build-info.js`;
 *   the Docker image keeps `package.json` next to `dist/`).
 * - commit: `LEDGER_MM_COMMIT` from the environment, set at build time (e.g. a Docker build arg
 *   from `git rev-parse HEAD`). Nothing is run at runtime: no `git`, no shell.
 *
 * Either is `unknown` when it cannot be found.
 */
import { readFileSync } from 'node:fs';

/** See the module doc. */
export interface BuildInfo {
  readonly version: string;
  readonly commit: string;
}

/** The package version, or `unknown`. Reads the file synchronously (call it at startup only). */
export function packageVersion(url: URL = new URL('../../../package.json', import.meta.url)): string {
  try {
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
    if (pkg.name === 'ledger-mm' && typeof pkg.version === 'string' && pkg.version !== '') return pkg.version;
  } catch {
    // Missing or unreadable: reported as unknown.
  }
  return 'unknown';
}

/** The commit from `env.LEDGER_MM_COMMIT` (trimmed, 7–64 hex or a short tag), or `unknown`. */
export function buildCommit(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.LEDGER_MM_COMMIT?.trim() ?? '';
  return /^[A-Za-z0-9._-]{1,64}$/.test(raw) ? raw : 'unknown';
}

/** The build info of this process. */
export function buildInfo(overrides: Partial<BuildInfo> = {}): BuildInfo {
  return {
    version: overrides.version ?? packageVersion(),
    commit: overrides.commit ?? buildCommit(),
  };
}
