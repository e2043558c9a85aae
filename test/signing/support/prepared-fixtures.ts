import {
  PreparedTransaction,
  type Create,
  type DamlTransaction_Node,
  type Value,
} from '@canton-network/core-ledger-proto';

/**
 * Canton prepared transactions built by hand with the protobuf types, independently of the
 * simulator's builder: a placement (one create of an order template) and a cancel (one exercise
 * on an order contract, the order among the input contracts).
 */

export const PARTY = `mm::1220${'ab'.repeat(32)}`;
export const OTHER = `other::1220${'cd'.repeat(32)}`;
export const CONTRACT = `00${'12'.repeat(33)}`;
const PACKAGE = 'fe'.repeat(32);

export const text = (t: string): Value => ({ sum: { oneofKind: 'text', text: t } });
export const numeric = (n: string): Value => ({ sum: { oneofKind: 'numeric', numeric: n } });
export const enumOf = (c: string): Value => ({ sum: { oneofKind: 'enum', enum: { constructor: c } } });
export const some = (v: Value | undefined): Value => ({
  sum: { oneofKind: 'optional', optional: { value: v } },
});
export const record = (fields: Record<string, Value>): Value => ({
  sum: {
    oneofKind: 'record',
    record: { fields: Object.entries(fields).map(([label, value]) => ({ label, value })) },
  },
});

/** What a fixture transaction may vary. */
export interface TxShape {
  readonly actAs?: string[];
  readonly signatories?: string[];
  readonly actingParties?: string[];
  readonly module?: string;
  readonly entity?: string;
  /** The create argument of a placement. */
  readonly argument?: Value;
  /** Extra nodes after the root (ids 1…). */
  readonly extra?: DamlTransaction_Node[];
  readonly contractId?: string;
  readonly choice?: string;
  readonly commandId?: string;
}

/** The default create argument: BUY 0.01 BTC/USDC @ 60000. */
export function orderArgument(over: Record<string, Value> = {}): Value {
  return record({
    owner: { sum: { oneofKind: 'party', party: PARTY } },
    pair: text('BTC/USDC'),
    side: enumOf('Buy'),
    price: some(numeric('60000')),
    quantity: numeric('0.01'),
    ...over,
  });
}

/** A seed for the root and every extra node (roots too, so the hash covers them). */
function seeds(s: TxShape, fill: number) {
  const ids = [0, ...(s.extra ?? []).map((n) => Number(n.nodeId))];
  return ids.map((nodeId) => ({ nodeId, seed: new Uint8Array(32).fill(fill + nodeId) }));
}

function templateId(s: TxShape) {
  return { packageId: PACKAGE, moduleName: s.module ?? 'Venue.Order', entityName: s.entity ?? 'Order' };
}

function metadata(s: TxShape) {
  return {
    submitterInfo: { actAs: s.actAs ?? [PARTY], commandId: s.commandId ?? 'cmd-1' },
    synchronizerId: `sync::1220${'00'.repeat(32)}`,
    mediatorGroup: 0,
    transactionUuid: '5b0f7c1e-0000-4000-8000-000000000000',
    preparationTime: 1_740_830_400_000_000n,
    inputContracts: [],
    globalKeyMapping: [],
  };
}

/** A placement: one create of the order template. */
export function placementTx(s: TxShape = {}): PreparedTransaction {
  return PreparedTransaction.create({
    transaction: {
      version: '2.1',
      roots: ['0', ...(s.extra ?? []).map((n) => n.nodeId)],
      nodes: [
        {
          nodeId: '0',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'create',
                create: {
                  lfVersion: '2.1',
                  contractId: `00${'34'.repeat(33)}`,
                  packageName: 'venue',
                  templateId: templateId(s),
                  argument: s.argument ?? orderArgument(),
                  signatories: s.signatories ?? [PARTY],
                  stakeholders: s.signatories ?? [PARTY],
                },
              },
            },
          },
        },
        ...(s.extra ?? []),
      ],
      nodeSeeds: seeds(s, 7),
    },
    metadata: metadata(s),
  });
}

function createOf(tx: PreparedTransaction): Create {
  const node = tx.transaction?.nodes[0]?.versionedNode;
  if (node?.oneofKind !== 'v1' || node.v1.nodeType.oneofKind !== 'create') throw new Error('not a create');
  return node.v1.nodeType.create;
}

/** A fetch node `id` of {@link CONTRACT}, acting as `party`. */
export function fetchNode(id: string, party = PARTY, contractId = CONTRACT): DamlTransaction_Node {
  return {
    nodeId: id,
    versionedNode: {
      oneofKind: 'v1',
      v1: {
        nodeType: {
          oneofKind: 'fetch',
          fetch: {
            lfVersion: '2.1',
            contractId,
            packageName: 'venue',
            templateId: { packageId: PACKAGE, moduleName: 'Venue.Order', entityName: 'Order' },
            signatories: [PARTY],
            stakeholders: [PARTY],
            actingParties: [party],
          },
        },
      },
    },
  };
}

/** An exercise node `id` of `choice` on `contractId` (a transfer, say), acting as {@link PARTY}. */
export function exerciseNode(id: string, choice: string, contractId: string): DamlTransaction_Node {
  return {
    nodeId: id,
    versionedNode: {
      oneofKind: 'v1',
      v1: {
        nodeType: {
          oneofKind: 'exercise',
          exercise: {
            lfVersion: '2.1',
            contractId,
            packageName: 'token',
            templateId: { packageId: PACKAGE, moduleName: 'Token.Holding', entityName: 'Holding' },
            signatories: [PARTY],
            stakeholders: [PARTY],
            actingParties: [PARTY],
            choiceId: choice,
            chosenValue: record({}),
            consuming: true,
            children: [],
            choiceObservers: [],
          },
        },
      },
    },
  };
}

/** A cancel: one exercise of `Cancel` on {@link CONTRACT}. */
export function cancelTx(s: TxShape = {}): PreparedTransaction {
  const base = placementTx(s);
  return PreparedTransaction.create({
    transaction: {
      version: '2.1',
      roots: ['0', ...(s.extra ?? []).map((n) => n.nodeId)],
      nodes: [
        {
          nodeId: '0',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'exercise',
                exercise: {
                  lfVersion: '2.1',
                  contractId: s.contractId ?? CONTRACT,
                  packageName: 'venue',
                  templateId: templateId(s),
                  signatories: [PARTY],
                  stakeholders: [PARTY],
                  actingParties: s.actingParties ?? [PARTY],
                  choiceId: s.choice ?? 'Cancel',
                  chosenValue: record({}),
                  consuming: true,
                  children: [],
                  choiceObservers: [],
                },
              },
            },
          },
        },
        ...(s.extra ?? []),
      ],
      nodeSeeds: seeds(s, 9),
    },
    metadata: {
      ...metadata(s),
      inputContracts: [
        {
          contract: {
            oneofKind: 'v1',
            v1: createOf(base),
          },
          createdAt: 1_740_830_000_000_000n,
          eventBlob: new Uint8Array(),
        },
      ],
    },
  });
}

/** The base64 protobuf of `tx`, as a prepare response carries it. */
export function b64(tx: PreparedTransaction): string {
  return Buffer.from(PreparedTransaction.toBinary(tx)).toString('base64');
}
