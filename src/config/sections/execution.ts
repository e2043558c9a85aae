import type { SchemaOf } from '../define.js';
import { intFormat } from '../formats.js';

export interface ExecutionConfig {
  readonly cancelConcurrency: number;
}

export const executionSchema: SchemaOf<ExecutionConfig> = {
  cancelConcurrency: {
    doc: 'Cancels in flight at once (the venue has no bulk cancel; cancels may run concurrently). Placements are always one at a time.',
    format: intFormat(1, 64),
    default: 4,
  },
};
