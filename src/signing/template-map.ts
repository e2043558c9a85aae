/**
 * How to read the venue's Daml order template. The template itself is not published, so the
 * daemon maps it in configuration (`signing.template`): which template is an order, which record
 * fields hold the pair, side, price and quantity, and which choice cancels. The default matches
 * the simulated venue (`Venue.Order:Order`, fields `pair`, `side`, `price`, `quantity`, choice
 * `Cancel`).
 */
import type { Identifier, Value } from '@canton-network/core-ledger-proto';

/** The order template's record field names (a dotted label path reaches into a nested record). */
export interface OrderFieldMap {
  readonly pair: string;
  readonly side: string;
  readonly price: string;
  readonly quantity: string;
}

/** Config `signing.template`. */
export interface TemplateMap {
  /** `Module:Entity` of the order template, or `packageId:Module:Entity` to pin the package too. */
  readonly orderTemplate: string;
  readonly fields: OrderFieldMap;
  /** The choice a cancel exercises on the order contract. */
  readonly cancelChoice: string;
}

/** The map of the simulated venue's template. */
export const DEFAULT_TEMPLATE_MAP: TemplateMap = {
  orderTemplate: 'Venue.Order:Order',
  fields: { pair: 'pair', side: 'side', price: 'price', quantity: 'quantity' },
  cancelChoice: 'Cancel',
};

/** `packageId:Module:Entity` of an identifier (empty parts stay empty). */
export function templateName(id: Identifier | undefined): string {
  return id === undefined ? '(no template)' : `${id.packageId}:${id.moduleName}:${id.entityName}`;
}

/** True when `id` is the template `wanted` names (`Module:Entity` or `packageId:Module:Entity`). */
export function isTemplate(id: Identifier | undefined, wanted: string): boolean {
  if (id === undefined) return false;
  const parts = wanted.split(':');
  if (parts.length === 2) return `${id.moduleName}:${id.entityName}` === wanted;
  return templateName(id) === wanted;
}

/**
 * A scalar record value as text: text, party, numeric, int64, date, timestamp, bool, an enum's
 * or a variant's constructor, the inside of a `Some`. `null` for `None`; `undefined` for a value
 * that has no scalar reading (a record, a list, a map).
 */
export function scalarOf(value: Value | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const sum = value.sum;
  switch (sum.oneofKind) {
    case 'text':
      return sum.text;
    case 'party':
      return sum.party;
    case 'numeric':
      return sum.numeric;
    case 'int64':
      return sum.int64;
    case 'bool':
      return String(sum.bool);
    case 'date':
      return String(sum.date);
    case 'timestamp':
      return String(sum.timestamp);
    case 'enum':
      return sum.enum.constructor;
    case 'variant':
      return sum.variant.constructor;
    case 'optional':
      return sum.optional.value === undefined ? null : scalarOf(sum.optional.value);
    default:
      return undefined;
  }
}

/** The value under a dotted label path of a record value, or undefined when a step is missing. */
export function fieldOf(record: Value | undefined, path: string): Value | undefined {
  let cur = record;
  for (const label of path.split('.')) {
    if (cur?.sum.oneofKind !== 'record') return undefined;
    cur = cur.sum.record.fields.find((f) => f.label === label)?.value;
  }
  return cur;
}
