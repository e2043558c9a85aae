/**
 * Every quoting model, by the name `strategy.*.model` selects it with. Adding a model touches
 * three places: a file implementing {@link QuotingModel}, its line here, and its name in
 * `QUOTING_MODEL_NAMES` (`src/config/sections/strategy-params.ts`, where the config takes the
 * list from). The compiler refuses a name without a model and a model without a name.
 */
import { type ModelName, QUOTING_MODEL_NAMES } from '../../config/sections/strategy-params.js';
import { avellanedaStoikovModel } from './avellaneda-stoikov-model.js';
import { latencyAwareModel } from './latency-aware-model.js';
import type { QuotingModel } from './quoting-model.js';
import { spreadModel } from './spread-model.js';

/** See the module doc. */
export const QUOTING_MODELS = {
  spread: spreadModel,
  'avellaneda-stoikov': avellanedaStoikovModel,
  'latency-aware': latencyAwareModel,
} as const satisfies Readonly<Record<ModelName, QuotingModel>>;

/** The model names, in the config's order (the first is the default). */
export const MODEL_NAMES: readonly [ModelName, ...ModelName[]] = QUOTING_MODEL_NAMES;

/** The model configured as `name`. */
export function quotingModel(name: ModelName): QuotingModel {
  return QUOTING_MODELS[name];
}
