/**
 * The `execution` config section as a table of parameter specs (`src/config/param-spec.ts`): each
 * key's doc, default and bounds written once. The convict section and the {@link ExecutionConfig}
 * type come from the table; the execution layer resolves its settings from the configured values
 * (`src/execution/execution-settings.ts`). A new key is one row here and its use there.
 */
import { boolParam, enumParam, intParam, type ConfigOf } from '../param-spec.js';
import { sectionOf } from '../param-leaves.js';

/** What the placement pipeline does after an unknown placement (see `AfterUnknownPolicy`). */
export const AFTER_UNKNOWN_POLICIES = ['proceed', 'wait'] as const;
export type AfterUnknownConfig = (typeof AFTER_UNKNOWN_POLICIES)[number];

/** The table of the `execution` section. */
export const executionParamSpecs = {
  cancelConcurrency: intParam(
    'Cancels in flight at once (the venue has no bulk cancel; cancels may run concurrently). Placements are always one at a time.',
    1,
    64,
    4,
  ),
  afterUnknown: enumParam(
    'After a placement whose outcome is unknown (a 504, a timeout, a 200 that does not confirm within execution.placementConfirmWindowMs): "proceed" places the other slots after one order read and a short pause, while the unknown order keeps its own slot blocked until it is resolved; "wait" (the old behaviour) holds every placement until it is resolved or its 5-minute deadline passes.',
    AFTER_UNKNOWN_POLICIES,
    'proceed',
  ),
  prepareBeforeBalances: boolParam(
    'At startup, prepare the first quote while GET /balances (over 10 s on a cold cache) is still being read, once the API key, account, pairs, signing key and the recovery of our own orders have passed. A prepare commits nothing: the order is signed only once the balances are read and it still passes the funds, inventory and risk checks with them; if the read fails it is abandoned unsigned and the start proceeds as with false. The daemon is not ready until the preflight has passed. With several parties (firm.parties) the first prepare waits until every party has passed all but its balances, and nothing is signed before the balances of every party are read. False: nothing is prepared before the balances are known.',
    true,
  ),
  confirmPollMs: intParam(
    'After a placement is submitted, read the order every this many ms until it rests (or its outcome is handed to the resolver after execution.placementConfirmWindowMs). The next placement waits for that read (one placement in flight per party), so every ms between the commit and the read that sees it is pipeline time lost; the venue answers a read in well under a second. (An engine built without it reads on a backoff, 2 s then ×1.5 up to 8 s, which sees a commit 11-13 s after the submission 3-5 s late.) The cancel pool keeps that backoff.',
    250,
    60_000,
    2000,
  ),
  placementConfirmWindowMs: intParam(
    "How long after a placement's submission (a 200, or a 5xx or timeout whose outcome is unknown) its order is read before the outcome is handed to the resolver as unknown. The venue commits about 12 s after the submission's answer; it does not show an upper bound. The order keeps its slot blocked, and counts as exposure, until it is resolved.",
    10_000,
    600_000,
    60_000,
  ),
  cancelConfirmWindowMs: intParam(
    "How long after a cancel's submission the order is read for its cancellation (or its fill) before the cancel is treated as unconfirmed and retried from a fresh prepare (after 3 accepted cancels that never took effect the order is alarmed as stranded). The venue does not show an upper bound; a cancel's prepare and submission take 30-40 s.",
    10_000,
    600_000,
    90_000,
  ),
};

/** The configured `execution` section. */
export type ExecutionConfig = ConfigOf<typeof executionParamSpecs>;

/** The convict section of the table. */
export const executionSchema = sectionOf(executionParamSpecs);
