/**
 * The Canton `PreparedTransaction` behind every prepare, built with the Canton Network's protobuf
 * types and hashed with its V2 scheme: a placement creates a `Venue.Order:Order` contract, a
 * cancel exercises `Cancel` on the order's current contract; the metadata names the party as the
 * only submitter. The hash a client signs is this transaction's hash, so a client that decodes
 * and re-hashes it can tell what it signs.
 *
 * A `tamper-prepared` fault makes the venue lie, each way a compromised venue could:
 * `price`/`quantity` (the transaction's order differs from the echo, hash consistent), `hash` (an
 * honest transaction next to the hash of a different one), `extra-party` (another party acts
 * too), `other-contract` (a cancel exercises on another contract), `scheme` (a hashing scheme
 * version nobody knows).
 */
import { createHash } from 'node:crypto';
import {
  PreparedTransaction,
  type Metadata,
  type Metadata_InputContract,
  type Value,
} from '@canton-network/core-ledger-proto';
import { dec, toWire } from '../../core/decimal.js';
import { hashPrepared } from '../../signing/canton-hash.js';
import type { PreparedCommand } from './commands.js';
import type { EngineCore } from './engine-core.js';
import type { OrderRecord } from './orders.js';

/** The ways a `tamper-prepared` fault changes a prepare. */
export const TAMPER_KINDS = ['price', 'quantity', 'hash', 'extra-party', 'other-contract', 'scheme'] as const;
export type TamperKind = (typeof TAMPER_KINDS)[number];

/** The simulated venue's order template (the default of the daemon's `signing.template`). */
export const ORDER_TEMPLATE = { moduleName: 'Venue.Order', entityName: 'Order' } as const;
/** The simulated venue's Daml package (a fixed id: the sim has one package). */
const PACKAGE_ID = createHash('sha256').update('ledger-mm sim venue package').digest('hex');
const PACKAGE_NAME = 'ledger-mm-sim-venue';
const LF_VERSION = '2.1';
/** The synchronizer the venue's transactions run on. */
const SYNCHRONIZER_ID = `venue-sim::1220${createHash('sha256').update('sim synchronizer').digest('hex')}`;
/** The scheme version a `scheme` fault announces: one no client can recompute. */
export const UNKNOWN_SCHEME = 'HASHING_SCHEME_VERSION_V99';
/** The party a `extra-party` fault adds as a submitter and authoriser. */
export const INTRUDER_PARTY = `intruder::1220${'ee'.repeat(32)}`;

const text = (t: string): Value => ({ sum: { oneofKind: 'text', text: t } });
const numeric = (n: string): Value => ({ sum: { oneofKind: 'numeric', numeric: n } });
const party = (p: string): Value => ({ sum: { oneofKind: 'party', party: p } });
const optional = (v: Value | undefined): Value => ({
  sum: { oneofKind: 'optional', optional: { value: v } },
});
const sideOf = (side: 'BUY' | 'SELL'): Value => ({
  sum: { oneofKind: 'enum', enum: { constructor: side === 'BUY' ? 'Buy' : 'Sell' } },
});

function templateId() {
  return { packageId: PACKAGE_ID, ...ORDER_TEMPLATE };
}

/** A hex digest of `parts`, for ids derived from the command (no draw from the seeded stream). */
function derived(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** The order contract's create argument, with the quantity still open. */
function orderArgument(o: OrderRecord, price: string | null, quantity: string): Value {
  return {
    sum: {
      oneofKind: 'record',
      record: {
        fields: [
          { label: 'owner', value: party(o.partyId) },
          { label: 'orderId', value: text(o.orderId) },
          { label: 'pair', value: text(o.pair) },
          { label: 'side', value: sideOf(o.side) },
          { label: 'price', value: optional(price === null ? undefined : numeric(price)) },
          { label: 'quantity', value: numeric(quantity) },
          {
            label: 'clientOrderId',
            value: optional(o.clientOrderId === null ? undefined : text(o.clientOrderId)),
          },
        ],
      },
    },
  };
}

function orderCreate(
  o: OrderRecord,
  contractId: string,
  price: string | null,
  quantity: string,
  signatories: string[],
) {
  return {
    lfVersion: LF_VERSION,
    contractId,
    packageName: PACKAGE_NAME,
    templateId: templateId(),
    argument: orderArgument(o, price, quantity),
    signatories,
    stakeholders: signatories,
  };
}

function metadata(
  core: EngineCore,
  cmd: PreparedCommand,
  actAs: string[],
  inputContracts: Metadata_InputContract[] = [],
): Metadata {
  return {
    submitterInfo: { actAs, commandId: cmd.commandId },
    synchronizerId: SYNCHRONIZER_ID,
    mediatorGroup: 0,
    transactionUuid: derived('uuid', cmd.commandId).slice(0, 32),
    preparationTime: BigInt(core.now()) * 1000n,
    inputContracts,
    globalKeyMapping: [],
  };
}

function placement(
  core: EngineCore,
  cmd: PreparedCommand,
  o: OrderRecord,
  tamper: TamperKind | null,
): PreparedTransaction {
  const signatories = tamper === 'extra-party' ? [o.partyId, INTRUDER_PARTY] : [o.partyId];
  let price = o.price === null ? null : toWire(o.price);
  let quantity = toWire(o.quantity);
  if (tamper === 'price' && o.price !== null)
    price = toWire(o.price.times(dec(o.side === 'BUY' ? '1.01' : '0.99')));
  if (tamper === 'quantity') quantity = toWire(o.quantity.times(dec('2')));
  return PreparedTransaction.create({
    transaction: {
      version: LF_VERSION,
      roots: ['0'],
      nodes: [
        {
          nodeId: '0',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'create',
                create: orderCreate(o, `00${derived('create', cmd.commandId)}`, price, quantity, signatories),
              },
            },
          },
        },
      ],
      // The command's seeded 32 bytes (its hash until sealed): the node seed of the create.
      nodeSeeds: [{ nodeId: 0, seed: cmd.hash }],
    },
    metadata: metadata(core, cmd, signatories),
  });
}

function cancel(
  core: EngineCore,
  cmd: PreparedCommand,
  o: OrderRecord,
  tamper: TamperKind | null,
): PreparedTransaction {
  const contractId = cmd.contractId ?? '';
  const target = tamper === 'other-contract' ? `00${derived('elsewhere', contractId)}` : contractId;
  const actors = tamper === 'extra-party' ? [o.partyId, INTRUDER_PARTY] : [o.partyId];
  const open = toWire(o.quantity.minus(o.filled));
  const resting = orderCreate(o, target, o.price === null ? null : toWire(o.price), open, [o.partyId]);
  return PreparedTransaction.create({
    transaction: {
      version: LF_VERSION,
      roots: ['0'],
      nodes: [
        {
          nodeId: '0',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'exercise',
                exercise: {
                  lfVersion: LF_VERSION,
                  contractId: target,
                  packageName: PACKAGE_NAME,
                  templateId: templateId(),
                  signatories: [o.partyId],
                  stakeholders: [o.partyId],
                  actingParties: actors,
                  choiceId: 'Cancel',
                  chosenValue: { sum: { oneofKind: 'record', record: { fields: [] } } },
                  consuming: true,
                  children: [],
                  choiceObservers: [],
                },
              },
            },
          },
        },
      ],
      nodeSeeds: [{ nodeId: 0, seed: cmd.hash }],
    },
    metadata: metadata(core, cmd, actors, [
      {
        contract: { oneofKind: 'v1', v1: resting },
        createdAt: BigInt(o.createdAt) * 1000n,
        eventBlob: new Uint8Array(),
      },
    ]),
  });
}

/**
 * Builds the command's prepared transaction, hashes it (V2) and stores both on the command: the
 * hash is then what the submission host verifies signatures against. `tamper` lies as its kind
 * says. Settles within the current turn (the hash never waits on the thread pool).
 */
export async function sealCommand(
  core: EngineCore,
  cmd: PreparedCommand,
  order: OrderRecord,
  tamper: TamperKind | null,
): Promise<void> {
  const tx = cmd.kind === 'place' ? placement(core, cmd, order, tamper) : cancel(core, cmd, order, tamper);
  const signed =
    tamper === 'hash'
      ? cmd.kind === 'place'
        ? placement(core, cmd, order, 'quantity')
        : cancel(core, cmd, order, 'other-contract')
      : tx;
  const hash = await hashPrepared(signed, 'V2');
  cmd.hash = hash;
  cmd.hashB64 = Buffer.from(hash).toString('base64');
  cmd.preparedTransaction = Buffer.from(PreparedTransaction.toBinary(tx)).toString('base64');
  if (tamper === 'scheme') cmd.hashingSchemeVersion = UNKNOWN_SCHEME;
  if (tamper !== null) core.truth.event('command.tampered', { commandId: cmd.commandId, tamper });
}
