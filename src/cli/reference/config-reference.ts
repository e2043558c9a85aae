/**
 * `docs/reference/config.md`: every configuration key, read from the loaded convict schema
 * (`configSchema`, which the strategy's parameter tables of `param-spec` build their sections of).
 * Each key's type, default, environment variable, doc and rule come from its leaf; the rule is the
 * reason the key's own format gives when it refuses a value, so nothing here restates a bound.
 */
import { type AnySection, type Leaf, leaves } from '../../config/define.js';
import { FORMATS } from '../../config/formats.js';
import { RELOADABLE_SECTIONS } from '../../config/reload.js';
import { CONFIG_FILES_ENV, configSchema } from '../../config/schema.js';
import { banner, cell, code, table } from './markdown.js';

/** A value no format accepts: the format's refusal of it states the format's rule. */
const PROBE = Object.freeze({ probe: Symbol('not a config value') });

/** The rule of a leaf, in the words of its format. */
export function ruleOf(leaf: Leaf<unknown>): string {
  if (typeof leaf.format !== 'string') {
    return `one of ${leaf.format.map((v) => code(String(v))).join(', ')}`;
  }
  const format = FORMATS.get(leaf.format);
  if (format === undefined) return `format ${code(leaf.format)}`;
  try {
    format.validate(PROBE);
  } catch (err) {
    return cell(err instanceof Error ? err.message : String(err));
  }
  return `format ${code(leaf.format)}`;
}

/** The type of a leaf, from its format and default. */
export function typeOf(leaf: Leaf<unknown>): string {
  if (typeof leaf.format !== 'string') return 'enum';
  const d = leaf.default;
  if (Array.isArray(d)) return 'list';
  if (typeof d === 'boolean') return 'boolean';
  if (typeof d === 'number') return ruleOf(leaf).startsWith('must be an integer') ? 'integer' : 'number';
  if (typeof d === 'string') return /decimal string/.test(ruleOf(leaf)) ? 'decimal string' : 'string';
  return typeof d;
}

function defaultOf(leaf: Leaf<unknown>): string {
  if (leaf.sensitive === true) return '(secret: from the environment or a file only)';
  const d = leaf.default;
  return typeof d === 'string' ? code(d) : code(JSON.stringify(d));
}

function sectionText(name: string, node: AnySection[string]): string {
  const entries = leaves({ [name]: node });
  const reload = (RELOADABLE_SECTIONS as readonly string[]).includes(name)
    ? 'Reloads without a restart (SIGHUP or a changed config file).'
    : 'Read at start; a change needs a restart.';
  const rows = entries.map(({ key, leaf }) => [
    code(key),
    typeOf(leaf),
    defaultOf(leaf),
    leaf.env === undefined ? '' : code(leaf.env),
    cell(leaf.doc),
    ruleOf(leaf),
  ]);
  return [
    `## ${name}`,
    '',
    reload,
    '',
    table(['key', 'type', 'default', 'env', 'doc', 'rule'], rows),
    '',
  ].join('\n');
}

/** The whole page. */
export function configReference(): string {
  const schema = configSchema as unknown as AnySection;
  const count = leaves(schema).length;
  return [
    banner('Configuration reference', 'the config schema (`src/config/`)'),
    `Every key of the configuration (${count} keys), section by section, as the loader knows it. How`,
    'the layers combine (`config/default.json`, `--config FILE`, ' +
      `\`${CONFIG_FILES_ENV}\`, the environment), how reload works and`,
    'what to set for a live venue: [../configuration.md](../configuration.md).',
    '',
    '`strategy.defaults.*` applies to every pair; `strategy.pairs` lists per-pair overrides of the',
    'same keys (`[{"pair": "BTC/USDC", "spread": {"bidBps": 8}}]`). The **rule** is the reason the',
    'loader gives when it refuses a value. An `env` variable overrides every file.',
    '',
    ...Object.entries(schema).map(([name, node]) => sectionText(name, node)),
  ].join('\n');
}
